// The guest's phone app: four views behind a bottom navigation (Menu · My orders · Ask
// the bartender · RSVP & info), the event (live: the host's changes arrive as
// event.changed on "guests") and the RSVP (rsvp.js). The drink menu, orders and
// recommendations are their own modules (menu.js, reco.js), which fill their views.
import { api } from "./api.js";
import { startLive, startPage } from "./page.js";
import { setEvent, startRSVP } from "./rsvp.js";
import { locale, t } from "./i18n.js";
import { startMyEvents } from "./events.js";

const me = startPage("guest", "bartender", "admin");

// ---- Views -------------------------------------------------------------------------------

const VIEWS = ["menu", "orders", "ask", "info"];
const scrolls = {}; // view → where the guest had scrolled to, kept while they look elsewhere
let current = "";
let chosen = false; // the guest (or the address) picked a view; the page no longer guesses
let first = "menu"; // the view the page opened on, where "back" ends

// viewFromAddress reads the view from #menu…#info, or from what a notification's tap
// opens (?order=<id> is an order, ?tab=ask the recommendation; see sw.js).
function viewFromAddress() {
  const hash = location.hash.slice(1);
  if (VIEWS.includes(hash)) return hash;
  const q = new URLSearchParams(location.search);
  if (q.has("order")) return "orders";
  if (VIEWS.includes(q.get("tab"))) return q.get("tab");
  return "";
}

// show makes view the one on screen (on a phone; a wide screen shows them all), keeping
// each view's scroll position, so the menu is where the guest left it.
export function show(view) {
  if (!VIEWS.includes(view)) return;
  if (view === current) return;
  if (current) scrolls[current] = window.scrollY;
  current = view;
  document.body.dataset.view = view;
  for (const tab of document.querySelectorAll("#tabbar a")) {
    if (tab.dataset.view === view) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  window.scrollTo(0, scrolls[view] || 0);
  document.dispatchEvent(new CustomEvent("barhub:view", { detail: view }));
}

function startViews() {
  document.body.classList.add("has-tabbar");
  // Announcements float just under the top bar, whose height depends on the language.
  const bar = document.querySelector(".topbar");
  if (bar && window.ResizeObserver) {
    new ResizeObserver(() => document.documentElement.style.setProperty("--topbar-h", `${bar.offsetHeight}px`)).observe(bar);
  }
  const initial = viewFromAddress();
  chosen = !!initial;
  // Before the guest has answered, the invitation comes first; after, the menu.
  first = initial || (me.guest?.status === "pending" ? "info" : "menu");
  show(first);
  document.getElementById("tabbar").addEventListener("click", (e) => {
    const tab = e.target.closest("a[data-view]");
    if (!tab) return;
    e.preventDefault();
    chosen = true;
    // A tap on the view already showing goes back to its top, as in phone apps.
    if (tab.dataset.view === current) {
      window.scrollTo({ top: 0, behavior: "smooth" });
      return;
    }
    history.pushState(null, "", `#${tab.dataset.view}`);
    show(tab.dataset.view);
  });
  // The phone's back button walks back through the views.
  window.addEventListener("popstate", () => show(viewFromAddress() || first));
  // Other modules ask for a view by event (the order dock asks for "orders").
  document.addEventListener("barhub:show", (e) => {
    chosen = true;
    if (e.detail !== current) history.pushState(null, "", `#${e.detail}`);
    show(e.detail);
  });
}

// ---- The event ---------------------------------------------------------------------------

// formatWhen shows a time in the event's own time zone, so a guest abroad
// still reads the party's local time.
export function formatWhen(iso, timeZone, options = { dateStyle: "full", timeStyle: "short" }) {
  if (!iso) return "";
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: timeZone || undefined }).format(new Date(iso));
  } catch {
    return new Date(iso).toLocaleString(locale);
  }
}

function showRow(id, text) {
  const row = document.getElementById(`${id}-row`);
  document.getElementById(id).textContent = text || "";
  if (row) row.hidden = !text;
}

// mapURL is where the address opens: the same map search the invitation e-mail links to.
export function mapURL(location) {
  return "https://www.openstreetmap.org/search?query=" + encodeURIComponent(location);
}

function renderEvent(event) {
  document.getElementById("event-name").textContent = event.eventName || t("guest.ourParty");
  document.title = `${event.eventName || t("guest.welcome")} · barhub`;
  showRow("event-when", formatWhen(event.eventDate, event.timezone));
  showRow("event-where", event.location);
  const map = document.getElementById("event-map");
  map.hidden = !event.location;
  if (event.location) map.href = mapURL(event.location);
  showRow("event-dress", event.dressCode);
  const info = document.getElementById("event-info");
  info.textContent = event.info || "";
  info.hidden = !event.info;
  // The calendar file is made from the event as it is now: a changed event needs a new one.
  const cal = document.getElementById("event-calendar");
  cal.hidden = !event.eventDate;
  delete cal.dataset.blob;
  cal.href = "/api/event.ics";
}

// The calendar file needs the sign-in, which a plain link cannot send: the first tap
// fetches it, and the link then hands the file to the phone.
function startCalendar() {
  const cal = document.getElementById("event-calendar");
  const error = document.getElementById("calendar-error");
  cal.addEventListener("click", async (e) => {
    if (cal.dataset.blob) return;
    e.preventDefault();
    error.hidden = true;
    try {
      const res = await fetch("/api/event.ics", { headers: { Authorization: `Bearer ${localStorage.getItem("barhub.token")}` } });
      if (!res.ok) throw new Error(`calendar: ${res.status}`);
      // A data: address rather than a blob: one: iPhones open it as a calendar entry.
      cal.href = "data:text/calendar;charset=utf-8," + encodeURIComponent(await res.text());
      cal.dataset.blob = "1";
      cal.click();
    } catch {
      error.textContent = t("guest.calendarFailed");
      error.hidden = false;
    }
  });
}

async function main() {
  startViews();
  startCalendar();
  startMyEvents();
  document.getElementById("greeting").textContent = me.guest?.firstName
    ? t("guest.greeting", { name: me.guest.firstName })
    : t("guest.greetingAnon");
  // Subscribe before fetching, so a change made in between is not lost.
  const live = startLive("guests");
  live.on("event.changed", (event) => {
    if (!event?.eventName) return;
    renderEvent(event);
    setEvent(event);
  });
  let view;
  const load = async () => {
    view = await api("GET", "/api/rsvp");
    renderEvent(view.event);
    return view;
  };
  live.onResync("guests", () => load().then((v) => setEvent(v.event)).catch(() => {}));
  try {
    await load();
  } catch (err) {
    const box = document.getElementById("rsvp-error");
    box.textContent = err.message;
    box.hidden = false;
    document.getElementById("rsvp-form").hidden = false;
    return;
  }
  // The sign-in remembered an older answer: a guest who has still not answered sees
  // the invitation first.
  if (!chosen && view.guest?.status === "pending") show((first = "info"));
  startRSVP(view, { formatWhen, onChange: (v) => renderEvent(v.event) });
}

if (me) main();
