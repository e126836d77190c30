// The host's announcement composer and the count of people connected right now. To a
// part of the guest list, the page collects their ids and sends them all in one request
// ("guestIds"), so the server publishes to every guest's topic at once.
import { api, auth } from "./api.js";
import { startLive } from "./page.js";
import { t } from "./i18n.js";

const form = document.getElementById("announce-form");
const text = document.getElementById("announce-text");
const to = document.getElementById("announce-to");
const status = document.getElementById("announce-status");
const online = document.getElementById("announce-online");
const pushBox = document.getElementById("announce-push");

// guestIDs lists every guest with the given RSVP status, a page at a time.
async function guestIDs(status) {
  const ids = [];
  for (let page = 1; ; page++) {
    const p = await api("GET", `/api/admin/guests?status=${encodeURIComponent(status)}&limit=500&page=${page}`);
    for (const g of p.guests || []) if (g.role === "guest") ids.push(g.id);
    if (page >= (p.pages || 0)) return ids;
  }
}

// showPresence shows how many guests have barhub open on a phone or tablet: people
// with the guest role connected to any instance, whichever page they are on.
function showPresence(people) {
  online.textContent = t("announce.online", { count: people?.guest ?? 0 });
}

async function loadPresence() {
  try {
    const p = await api("GET", "/api/admin/presence");
    showPresence(p.people);
  } catch {
    online.textContent = "";
  }
}

if (form && auth()?.role === "admin") {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = text.value.trim();
    if (!value) {
      status.textContent = t("announce.empty");
      status.className = "error";
      return;
    }
    status.textContent = t("announce.sending");
    status.className = "muted";
    try {
      const push = !!pushBox?.checked;
      if (!to?.value) {
        await api("POST", "/api/admin/announcements", { text: value, push });
        status.textContent = push ? t("announce.sentAllPush") : t("announce.sentAll");
      } else {
        const ids = await guestIDs(to.value);
        if (ids.length === 0) {
          status.textContent = t("announce.noGuests");
          status.className = "muted";
          return;
        }
        const res = await api("POST", "/api/admin/announcements", { text: value, guestIds: ids, push });
        status.textContent = t("announce.sentToGuests", { count: res.guests });
      }
      status.className = "saved";
      text.value = "";
    } catch (err) {
      status.textContent = err.message;
      status.className = "error";
    }
  });
  // The server says on admin whenever someone connects or leaves; the slow poll only
  // forgets an instance that stopped without saying so.
  const live = startLive("admin");
  live.on("presence.changed", (data) => showPresence(data.people));
  live.onResync("admin", loadPresence);
  // Whoever connected while the desk's own socket was (re)connecting was announced
  // before it could hear: ask once it is open.
  live.onStatus((status) => status === "open" && loadPresence());
  loadPresence();
  setInterval(loadPresence, 15000);
}
