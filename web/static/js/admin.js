// The host's dashboard: live figures, answers over time and the latest
// answers (this file); the guest desk (desk.js); the dietary report,
// event settings, import/export and invitations (desk-tools.js). The bar's
// admin modules add themselves to #bar-admin-area.
import { api } from "./api.js";
import { t, has, formatList, formatTime, formatDateTime } from "./i18n.js";
import { renderChart } from "./chart.js";
import { startGuests, reloadGuests, reloadGroups } from "./desk.js";
import { startTools, reloadDietary } from "./desk-tools.js";
import "./shopping-admin.js"; // the shopping plan panel (#shopping) starts itself
import { startLive, startPage } from "./page.js";
import { loadReminders } from "./reminders-admin.js";
import "./audit-admin.js"; // the audit log panel (#audit) starts itself
import { usePublicURL } from "./invite-admin.js";

const $ = (id) => document.getElementById(id);
const STAT_FIELDS = ["invited", "comingHeads", "coming", "expected", "pending", "declined", "neverLoggedIn", "withAllergies", "checkedIn", "checkedInHeads", "walkIns"];

let statsVersion = -1;

// renderStats fills the tiles; an older figure arriving late (events and
// fetches race) never overwrites a newer one.
function renderStats(s) {
  if (typeof s.version === "number") {
    if (s.version < statsVersion) return;
    statsVersion = s.version;
  }
  $("stat-staff-note").textContent = s.staff ? t("desk.stat.staff", { count: s.staff }) : "";
  for (const f of STAT_FIELDS) {
    const node = $(`stat-${f}`);
    if (!node) continue;
    const value = String(s[f] ?? "–");
    if (node.textContent !== value) {
      node.textContent = value;
      const tile = node.closest(".stat");
      tile?.classList.remove("flash");
      void tile?.offsetWidth; // restart the animation
      tile?.classList.add("flash");
    }
  }
}

// showPublicURL warns when invitation links would not open on a phone and
// offers this machine's network addresses; a pick is kept for every instance
// and used by the next copied link at once (usePublicURL).
async function showPublicURL(r) {
  if (!r) {
    try {
      r = await api("GET", "/api/admin/public-url");
    } catch {
      return;
    }
  }
  usePublicURL(r);
  const box = $("public-url");
  box.hidden = r.reachable;
  box.dataset.level = r.level;
  if (r.reachable) return;
  // desk.publicUrl.not_http, .unspecified, .loopback, .listens_locally
  const problem = r.reason && has(`desk.publicUrl.${r.reason}`) ? t(`desk.publicUrl.${r.reason}`, { url: r.url, host: r.host, port: r.port }) : r.problem;
  // --public-url wins over any pick: only a restart with another one helps.
  const fromFlag = r.source === "flag";
  const after = fromFlag ? ` ${t("desk.publicUrl.flag")}` : r.suggestions.length ? ` ${t("desk.publicUrl.pick")}` : "";
  $("public-url-problem").textContent = `${problem}. ${t("desk.publicUrl.uses", { url: r.url })}${after}`;
  const picks = (fromFlag ? [] : r.suggestions).map((u) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t("desk.publicUrl.use", { url: u });
    b.addEventListener("click", async () => {
      try {
        showPublicURL(await api("PUT", "/api/admin/public-url", { url: u }));
      } catch (err) {
        alert(err.message);
      }
    });
    return b;
  });
  $("public-url-picks").replaceChildren(...picks);
}

async function loadStats({ timeline = false } = {}) {
  const s = await api("GET", `/api/admin/stats${timeline ? "?timeline=true" : ""}`);
  renderStats(s);
  if (timeline) renderChart($("chart"), s.timeline || []);
  return s;
}

// The latest answers: read from the store when the page opens (they
// survive a reload), then each rsvp.changed event on top. Both come as one
// shape: an audit entry's action, who did it, about whom, and the answer.
const FEED_MAX = 12;

function fromEntry(e) {
  const d = e.details || {};
  return { at: e.at, action: e.action, by: e.actorName, name: d.name || "", status: d.status || "", numGuests: d.numGuests || 0, needs: !!d.needs, tastes: !!d.tastes, group: d.group, changed: d.changed, created: d.created };
}

const ACTION_OF = { rsvp: "rsvp.answer", created: "guest.create", edited: "guest.update", deleted: "guest.delete", import: "guest.import", "walk-in": "door.walk_in" };

function fromEvent(ev) {
  const guests = ev.guests || [];
  const who = guests.length === 1 ? `${guests[0].firstName} ${guests[0].lastName}` : "";
  const a = ev.answer || {};
  return { at: ev.at, action: ACTION_OF[ev.reason] || "guest.update", by: ev.byName, name: ev.reason === "rsvp" ? ev.byName : who, count: guests.length, status: a.status || "", numGuests: a.numGuests || 0, needs: !!a.needs, tastes: !!a.tastes };
}

// feedText says one item in the page's language.
function feedText(it) {
  switch (it.action) {
    case "rsvp.answer": {
      const what = [];
      if (it.status === "coming") what.push(t("feed.coming", { count: it.numGuests || 1 }));
      if (it.status === "declined") what.push(t("feed.declined"));
      if (it.needs) what.push(t("feed.needs"));
      if (it.tastes) what.push(t("feed.tastes"));
      return t("feed.answered", { name: it.name || it.by, what: formatList(what.length ? what : [t("feed.saved")]) });
    }
    case "guest.create":
      return t("feed.added", { by: it.by, name: it.name || t("feed.someGuests", { count: it.count || 1 }) });
    case "guest.delete":
      return it.name ? t("feed.deleted", { by: it.by, name: it.name }) : t("feed.deletedSomeone", { by: it.by });
    case "guest.import":
      return t("feed.imported", { by: it.by });
    case "door.walk_in":
      return t("feed.walkIn", { by: it.by, name: it.name });
    case "guest.dietary_review":
      return t("feed.reviewed", { by: it.by, name: it.name });
    default:
      if (typeof it.group === "string") return it.group ? t("feed.moved", { by: it.by, name: it.name, group: it.group }) : t("feed.leftGroup", { by: it.by, name: it.name });
      return t("feed.edited", { by: it.by, name: it.name || t("feed.someGuests", { count: it.count || 1 }) });
  }
}

function feedItem(it) {
  const li = document.createElement("li");
  li.dataset.action = it.action;
  const time = document.createElement("time");
  time.dateTime = it.at;
  time.textContent = formatTime(it.at);
  const text = document.createElement("span");
  text.textContent = feedText(it);
  li.append(time, text);
  return li;
}

// Live events that arrive before the stored list are kept and put on top
// of it once it is in, unless it already holds them (an event is at most
// as late as the entry the same change writes after it).
let feedLoaded = false;
let feedNewest = "";
const feedEarly = [];

function addFeed(ev) {
  const it = fromEvent(ev);
  if (feedLoaded) prependFeed(it);
  else feedEarly.push(it);
}

function prependFeed(it) {
  const feed = $("feed");
  if (feed.firstElementChild?.classList.contains("muted")) feed.replaceChildren();
  feed.prepend(feedItem(it));
  while (feed.children.length > FEED_MAX) feed.lastElementChild.remove();
}

async function loadFeed() {
  let items = [];
  try {
    const res = await api("GET", `/api/admin/answers?limit=${FEED_MAX}`);
    items = res.answers.map(fromEntry);
  } catch {
    // The live events still fill the list.
  }
  feedNewest = items[0]?.at || "";
  feedLoaded = true;
  const feed = $("feed");
  const nodes = items.map(feedItem);
  if (nodes.length) feed.replaceChildren(...nodes);
  for (const it of feedEarly.splice(0)) {
    if (!feedNewest || Date.parse(it.at) > Date.parse(feedNewest)) prependFeed(it);
  }
}

// debounce runs fn once things calm down: a 200-row import is one refresh.
function debounce(fn, ms) {
  let timer = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

const refreshLists = debounce(() => {
  reloadGuests();
  reloadGroups();
  reloadDietary();
  loadStats({ timeline: true }).catch(() => {});
}, 300);

function startDeskLive() {
  // startLive shows the connection in #live-status and sends a refused
  // sign-in back to /login; the handlers below are added before any event
  // can arrive (the socket opens later).
  const live = startLive("admin");
  live.on("stats.updated", (data) => renderStats(data));
  live.on("rsvp.changed", (data) => {
    addFeed(data);
    refreshLists();
  });
  live.on("guest.activity", debounce(() => loadStats().catch(() => {}), 500));
  // Invitations sent, delivered, failed, opened (invite-admin.js).
  live.on("invite.updated", debounce(() => {
    reloadGuests();
    loadReminders();
  }, 300));
  // The door: the figures come with stats.updated; the list's "in" marks follow.
  const arrivals = debounce(() => reloadGuests(), 1000);
  live.on("guest.checked_in", arrivals);
  live.on("guest.check_in_undone", arrivals);
  live.onResync("admin", () => refreshLists());
  return live;
}

async function main() {
  // Subscribe first, then fetch: nothing can fall between the two.
  startDeskLive();
  startGuests();
  startTools({
    onSettings: (s) => {
      const date = s.eventDate ? formatDateTime(s.eventDate, { dateStyle: "full", timeStyle: "short", timeZone: s.timezone || undefined }) : t("desk.dateNotSet");
      $("event-line").textContent = `${s.eventName} · ${date}`;
    },
  });
  showPublicURL();
  loadFeed();
  try {
    await loadStats({ timeline: true });
  } catch (err) {
    $("chart").textContent = err.message;
  }
}

if (startPage("admin")) main();
