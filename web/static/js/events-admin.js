// The host's events card (#events): every event they host in the host's order, with
// open, archive and delete, and "new event from this one" (docs/EVENTS.md).
import { api, auth } from "./api.js";
import { t } from "./i18n.js";
import { eventWhen, openFrom, statusText } from "./events.js";

const $ = (id) => document.getElementById(id);

// The events as last listed, for the form (the current one's time zone).
let events = [];
// The event just made, offered with "Open" until the list is read again.
let made = "";

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== ""));
  return node;
}

const BADGE = { upcoming: "ok", past: "", archived: "warn" };

function eventRow(e) {
  const meta = el("span", { class: "event-meta" },
    el("span", { class: `badge ${BADGE[e.status] || ""}`.trim(), "data-status": e.status }, statusText(e.status)),
    el("span", { class: "event-when" }, eventWhen(e, { dateStyle: "full", timeStyle: "short" }) || t("desk.dateNotSet")),
    e.current ? el("span", { class: "badge ok event-here" }, t("events.here")) : null,
    e.id === made ? el("span", { class: "badge event-new" }, t("events.made")) : null,
  );
  const actions = el("span", { class: "event-actions" });
  if (!e.current && e.status !== "archived") {
    const open = el("button", { type: "button", class: e.id === made ? "primary event-open" : "event-open" }, t("events.open"));
    open.setAttribute("aria-label", t("events.openNamed", { name: e.name }));
    open.addEventListener("click", () => openFrom(open, e.id, showError));
    actions.append(open);
  }
  if (!e.current) {
    const archived = e.status === "archived";
    const arch = el("button", { type: "button", class: "event-archive" }, archived ? t("events.unarchive") : t("events.archive"));
    arch.setAttribute("aria-label", t(archived ? "events.unarchiveNamed" : "events.archiveNamed", { name: e.name }));
    arch.addEventListener("click", () => archive(e, !archived, arch));
    const del = el("button", { type: "button", class: "danger event-delete" }, t("events.delete"));
    del.setAttribute("aria-label", t("events.deleteNamed", { name: e.name }));
    del.addEventListener("click", () => askDelete(e));
    actions.append(arch, del);
  }
  const li = el("li", { "data-event": e.id, "data-status": e.status },
    el("span", { class: "event-what" }, el("span", { class: "event-title" }, e.name), meta),
    actions);
  if (e.current) li.setAttribute("aria-current", "true");
  return li;
}

function showError(err) {
  const box = $("events-error");
  if (!err) {
    box.hidden = true;
    return;
  }
  box.textContent = refusal(err);
  box.hidden = false;
}

// refusal says why the server refused a change to the events, in the page's language.
function refusal(err) {
  if (err.code === "first_event") return t("events.firstEvent");
  if (err.status === 403) return t("events.forbidden");
  return err.message;
}

async function load() {
  try {
    const res = await api("GET", "/api/admin/events");
    events = res.events || [];
    $("events-list").replaceChildren(...events.map(eventRow));
    fillFrom();
  } catch (err) {
    showError(err);
  }
}

// fillFrom offers every event to start from, the one open now first chosen; a choice
// the host made stays while its event is listed.
function fillFrom() {
  const select = $("event-new-from");
  const chosen = select.value;
  select.replaceChildren(...events.map((e) => {
    const o = new Option(e.current ? t("events.new.fromHere", { name: e.name }) : e.name, e.id);
    o.selected = chosen ? e.id === chosen : e.current;
    return o;
  }));
}

async function archive(e, archived, button) {
  button.disabled = true;
  try {
    await api("PUT", `/api/admin/events/${encodeURIComponent(e.id)}/archived`, { archived });
    showError(null);
    await load();
  } catch (err) {
    button.disabled = false;
    showError(err);
  }
}

// askDelete names the event in a dialog before anything is deleted.
let deleting = null;

function askDelete(e) {
  deleting = e;
  $("event-delete-text").textContent = t("events.delete.text", { name: e.name });
  $("event-delete-error").hidden = true;
  $("event-delete-ok").disabled = false;
  $("event-delete-dialog").showModal();
}

async function confirmDelete() {
  const e = deleting;
  if (!e) return;
  $("event-delete-ok").disabled = true;
  try {
    await api("DELETE", `/api/admin/events/${encodeURIComponent(e.id)}`);
    $("event-delete-dialog").close();
    deleting = null;
    showError(null);
    await load();
  } catch (err) {
    $("event-delete-ok").disabled = false;
    const box = $("event-delete-error");
    box.textContent = refusal(err);
    box.hidden = false;
  }
}

// zonedISO reads a datetime-local value as wall-clock time in timeZone and returns the
// instant, RFC 3339 in UTC: the new event's date means the party's local time.
export function zonedISO(local, timeZone) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  const offset = (at) => {
    const parts = {};
    for (const p of new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }).formatToParts(at)) parts[p.type] = p.value;
    return Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute) - at;
  };
  let at = wall;
  try {
    // Twice, so a date across a daylight-saving change lands on its own offset.
    at = wall - offset(wall);
    at = wall - offset(at);
  } catch {
    at = wall;
  }
  return new Date(at).toISOString();
}

async function create(ev) {
  ev.preventDefault();
  const name = $("event-new-name").value.trim();
  const error = $("event-new-error");
  const status = $("event-new-status");
  status.textContent = "";
  if (!name) {
    error.textContent = t("events.new.nameMissing");
    error.hidden = false;
    $("event-new-name").focus();
    return;
  }
  const settings = $("event-new-settings").checked;
  // The date is the party's local time: the time zone the settings bring along, or
  // without them UTC, as a new party starts in.
  const from = events.find((e) => e.id === $("event-new-from").value) || events.find((e) => e.current);
  const zone = settings ? from?.timezone || "UTC" : "UTC";
  const body = { from: from?.id || "", name, guests: $("event-new-guests").checked, menu: $("event-new-menu").checked, settings };
  const date = $("event-new-date").value;
  if (date) body.startsAt = zonedISO(date, zone);
  $("event-new-submit").disabled = true;
  try {
    const e = await api("POST", "/api/admin/events", body);
    error.hidden = true;
    made = e.id;
    status.textContent = t("events.new.done", { name: e.name });
    $("event-new-name").value = "";
    $("event-new-date").value = "";
    await load();
  } catch (err) {
    // Only a host of the first event makes events: they host every one.
    error.textContent = err.status === 403 ? t("events.forbidden") : err.message;
    error.hidden = false;
  } finally {
    $("event-new-submit").disabled = false;
  }
}

if ($("events") && auth()?.role === "admin") {
  $("event-new-form").addEventListener("submit", create);
  $("event-delete-ok").addEventListener("click", confirmDelete);
  load();
}
