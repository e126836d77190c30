// One person's events (docs/EVENTS.md, "In the web apps"): the switch from the event a
// token is for to another the same person is invited to, and the small switcher staff
// pages show in their top bar. A token carries its event, so after a switch every page
// works unchanged: it only needs the new token and a fresh start.
import { api, auth, homeFor, setAuth } from "./api.js";
import { locale, t } from "./i18n.js";

// The live socket's positions belong to the event they were read in (live.js); the
// next event's socket starts from its own.
const LIVE_KEYS = ["barhub.live.seq", "barhub.live.epoch"];

// switchEvent trades the sign-in for one of event id and starts the page again there:
// this page when the person has the same role in that event, else their role's home.
export async function switchEvent(id) {
  const before = auth()?.role;
  const data = await api("POST", "/api/auth/switch", { event: id });
  setAuth(data);
  for (const k of LIVE_KEYS) {
    try {
      sessionStorage.removeItem(k);
    } catch {
      // storage blocked: the socket then resynchronises on its own
    }
  }
  if (data.role === before) location.reload();
  else location.assign(homeFor(data.role));
  return data;
}

// followEventLink opens the event a link names (?event=<id>, as a push notification's
// tap gives) when the page holds another event's sign-in and the person is invited to
// that one; the parameter is dropped from the address either way, so a reload does not
// switch again.
export async function followEventLink() {
  const url = new URL(location.href);
  const id = url.searchParams.get("event");
  if (!id) return;
  url.searchParams.delete("event");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  const here = (await myEvents()).find((e) => e.current);
  if (!here || here.id === id) return;
  try {
    await switchEvent(id);
  } catch {
    // Not invited there (any more): stay in this event.
  }
}

// eventWhen is an event's start in its own time zone, or "" without a date.
export function eventWhen(e, options = { dateStyle: "medium", timeStyle: "short" }) {
  if (!e.startsAt) return "";
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: e.timezone || undefined }).format(new Date(e.startsAt));
  } catch {
    return new Date(e.startsAt).toLocaleString(locale);
  }
}

// statusText says upcoming / past / archived in the page's language.
export function statusText(status) {
  // events.status.upcoming, events.status.past, events.status.archived
  return t(`events.status.${status}`);
}

// myEvents returns the events the signed-in person is invited to, next first, or []
// when the list cannot be had (the page then simply offers no switch).
export async function myEvents() {
  try {
    const res = await api("GET", "/api/me/events");
    return res?.events || [];
  } catch {
    return [];
  }
}

// startEventSwitch fills the top bar's #event-switch: the current event's name, and
// with more than one event a small menu to open another.
export async function startEventSwitch() {
  const host = document.getElementById("event-switch");
  if (!host) return;
  const events = await myEvents();
  const current = events.find((e) => e.current);
  if (!current) return;
  const others = events.filter((e) => !e.current);
  if (others.length === 0) {
    // The desk names its one event in its overview already, and its top bar is full.
    if (host.hasAttribute("data-only-many")) return;
    const name = document.createElement("span");
    name.className = "event-switch-name";
    name.textContent = current.name;
    name.title = current.name;
    host.replaceChildren(name);
    host.hidden = false;
    return;
  }
  const details = document.createElement("details");
  details.className = "event-switch-menu";
  const summary = document.createElement("summary");
  summary.setAttribute("aria-label", t("events.switch.label", { name: current.name }));
  const name = document.createElement("span");
  name.className = "event-switch-name";
  name.textContent = current.name;
  summary.append(name);
  const list = document.createElement("ul");
  list.className = "event-switch-list";
  for (const e of others) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "quiet";
    b.dataset.event = e.id;
    b.textContent = t("events.switch.open", { name: e.name });
    const when = eventWhen(e);
    if (when) b.title = when;
    b.addEventListener("click", () => openFrom(b, e.id));
    li.append(b);
    list.append(li);
  }
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  const panel = document.createElement("div");
  panel.className = "event-switch-panel";
  panel.append(list, error);
  details.append(summary, panel);
  // A tap elsewhere or Escape closes the menu, as menus do.
  document.addEventListener("click", (ev) => {
    if (details.open && !details.contains(ev.target)) details.open = false;
  });
  details.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && details.open) {
      details.open = false;
      summary.focus();
    }
  });
  host.replaceChildren(details);
  host.hidden = false;
}

// openFrom switches from a button, saying why when the server refuses: through
// onError, or in the alert box next to the button.
export async function openFrom(button, id, onError) {
  button.disabled = true;
  try {
    await switchEvent(id);
  } catch (err) {
    button.disabled = false;
    const text = err.code === "not_invited" ? t("events.notInvited") : err.message;
    if (onError) {
      onError(err, text);
      return;
    }
    const box = button.closest("details, li, section")?.querySelector(".error[role=alert]");
    if (box) {
      box.textContent = text;
      box.hidden = false;
    }
  }
}

// startMyEvents fills the guest's "Your events" (#my-events) when they are invited to
// more than one: each with its date, the one open now marked, the others a tap away.
export async function startMyEvents() {
  const card = document.getElementById("my-events");
  if (!card) return;
  const events = await myEvents();
  if (events.length < 2) {
    card.hidden = true;
    return;
  }
  const list = document.getElementById("my-events-list");
  list.replaceChildren(...events.map((e) => {
    const li = document.createElement("li");
    li.dataset.event = e.id;
    const what = document.createElement("span");
    what.className = "event-what";
    const name = document.createElement("span");
    name.className = "event-title";
    name.textContent = e.name;
    const meta = document.createElement("span");
    meta.className = "event-meta";
    const when = eventWhen(e, { dateStyle: "full", timeStyle: "short" });
    if (when) meta.append(when);
    what.append(name, meta);
    li.append(what);
    if (e.current) {
      li.setAttribute("aria-current", "true");
      const here = document.createElement("span");
      here.className = "badge ok event-here";
      here.textContent = t("events.here");
      meta.append(here);
    } else {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "event-open";
      b.textContent = t("events.open");
      b.setAttribute("aria-label", t("events.openNamed", { name: e.name }));
      b.addEventListener("click", () => openFrom(b, e.id, (err, text) => {
        const box = document.getElementById("my-events-error");
        box.textContent = text;
        box.hidden = false;
      }));
      li.append(b);
    }
    return li;
  }));
  card.hidden = false;
}
