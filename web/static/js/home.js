// The guest's phone page: the event and the RSVP (rsvp.js). The drink menu,
// orders and recommendations add their own modules to the page and fill
// #menu-area and #reco-area.
import { api } from "./api.js";
import { startPage } from "./page.js";
import { startRSVP } from "./rsvp.js";
import { locale, t } from "./i18n.js";

const me = startPage("guest", "bartender", "admin");

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

function renderEvent(event) {
  document.getElementById("event-name").textContent = event.eventName || t("guest.ourParty");
  document.title = `${event.eventName || t("guest.welcome")} · barhub`;
  showRow("event-when", formatWhen(event.eventDate, event.timezone));
  showRow("event-where", event.location);
  showRow("event-dress", event.dressCode);
  const info = document.getElementById("event-info");
  info.textContent = event.info || "";
  info.hidden = !event.info;
}

async function main() {
  document.getElementById("greeting").textContent = me.guest?.firstName
    ? t("guest.greeting", { name: me.guest.firstName })
    : t("guest.greetingAnon");
  let view;
  try {
    view = await api("GET", "/api/rsvp");
  } catch (err) {
    const box = document.getElementById("rsvp-error");
    box.textContent = err.message;
    box.hidden = false;
    document.getElementById("rsvp-form").hidden = false;
    return;
  }
  renderEvent(view.event);
  startRSVP(view, { formatWhen, onChange: (v) => renderEvent(v.event) });
}

if (me) main();
