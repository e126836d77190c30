// The host's announcement composer and the count of people connected right now.
import { api, auth } from "./api.js";
import { startLive } from "./page.js";

const form = document.getElementById("announce-form");
const text = document.getElementById("announce-text");
const status = document.getElementById("announce-status");
const online = document.getElementById("announce-online");
const pushBox = document.getElementById("announce-push");

async function loadPresence() {
  try {
    const p = await api("GET", "/api/admin/presence");
    const n = p.topics?.guests ?? 0;
    online.textContent = n === 1 ? "1 phone or tablet connected" : `${n} phones and tablets connected`;
  } catch {
    online.textContent = "";
  }
}

if (form && auth()?.role === "admin") {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = text.value.trim();
    if (!value) {
      status.textContent = "Write the announcement first.";
      status.className = "error";
      return;
    }
    status.textContent = "Sending…";
    status.className = "muted";
    try {
      const push = !!pushBox?.checked;
      await api("POST", "/api/admin/announcements", { text: value, push });
      status.textContent = push ? "Sent to every guest, and as a notification to the phones that allow them." : "Sent to every guest.";
      status.className = "saved";
      text.value = "";
    } catch (err) {
      status.textContent = err.message;
      status.className = "error";
    }
  });
  loadPresence();
  setInterval(loadPresence, 15000);
  startLive("admin");
}
