// The host's dashboard: live figures, answers over time and the latest
// answers (this file); the guest desk (desk.js); the dietary report,
// event settings, import/export and invitations (desk-tools.js). The bar's
// admin modules add themselves to #bar-admin-area.
import { api } from "./api.js";
import { renderChart } from "./chart.js";
import { startGuests, reloadGuests, reloadGroups } from "./desk.js";
import { startTools, reloadDietary } from "./desk-tools.js";
import "./shopping-admin.js"; // the shopping plan panel (#shopping) starts itself
import { startLive, startPage } from "./page.js";
import { loadReminders } from "./reminders-admin.js";
import "./audit-admin.js"; // the audit log panel (#audit) starts itself

const $ = (id) => document.getElementById(id);
const STAT_FIELDS = ["invited", "comingHeads", "coming", "expected", "pending", "declined", "neverLoggedIn", "withAllergies", "checkedIn", "checkedInHeads"];

let statsVersion = -1;

// renderStats fills the tiles; an older figure arriving late (events and
// fetches race) never overwrites a newer one.
function renderStats(s) {
  if (typeof s.version === "number") {
    if (s.version < statsVersion) return;
    statsVersion = s.version;
  }
  $("stat-staff-note").textContent = s.staff ? `(+ ${s.staff} staff)` : "";
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
// offers this machine's network addresses; a pick is kept for every instance.
async function showPublicURL() {
  let r;
  try {
    r = await api("GET", "/api/admin/public-url");
  } catch {
    return;
  }
  const box = $("public-url");
  box.hidden = r.reachable;
  box.dataset.level = r.level;
  if (r.reachable) return;
  $("public-url-problem").textContent = `${r.problem}. Invitation links and QR codes use ${r.url}.` + (r.suggestions.length ? " Pick an address phones on your network can open:" : "");
  const picks = r.suggestions.map((u) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Use ${u}`;
    b.addEventListener("click", async () => {
      try {
        await api("PUT", "/api/admin/public-url", { url: u });
        showPublicURL();
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

function when(iso) {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

const REASONS = { created: "added", edited: "edited", deleted: "deleted", import: "imported" };

// addFeed shows one rsvp.changed event at the top of the latest answers.
function addFeed(ev) {
  const feed = $("feed");
  if (feed.firstElementChild?.classList.contains("muted")) feed.replaceChildren();
  const li = document.createElement("li");
  const time = document.createElement("time");
  time.dateTime = ev.at;
  time.textContent = when(ev.at);
  const text = document.createElement("span");
  if (ev.reason === "rsvp") {
    const parts = (ev.guests || []).map((g) => {
      const what = g.status === "coming" ? (g.numGuests > 1 ? `coming (${g.numGuests})` : "coming") : g.status === "declined" ? "not coming" : "not answered";
      return `${g.firstName} ${g.lastName}: ${what}`;
    });
    text.textContent = `${ev.byName} answered. ${parts.join(", ")}`;
  } else if (ev.reason === "deleted") {
    text.textContent = `${ev.byName} deleted a guest`;
  } else {
    const n = (ev.guests || []).length;
    const who = n === 1 ? `${ev.guests[0].firstName} ${ev.guests[0].lastName}` : `${n} guests`;
    text.textContent = `${ev.byName} ${REASONS[ev.reason] || "changed"} ${who}`;
  }
  li.append(time, text);
  feed.prepend(li);
  while (feed.children.length > 12) feed.lastElementChild.remove();
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
      const date = s.eventDate ? new Date(s.eventDate).toLocaleString(undefined, { dateStyle: "full", timeStyle: "short", timeZone: s.timezone || undefined }) : "date not set";
      $("event-line").textContent = `${s.eventName} · ${date}`;
    },
  });
  showPublicURL();
  try {
    await loadStats({ timeline: true });
  } catch (err) {
    $("chart").textContent = err.message;
  }
}

if (startPage("admin")) main();
