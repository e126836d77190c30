// Shared start-up for the signed-in pages: checks the role, shows who is signed in and
// wires the sign-out button. Each app's own module calls startPage first.
import { clearAuth, displayName, logout, requireRole } from "./api.js";
import { connect } from "./live.js";

// startPage returns the sign-in (see auth in api.js), or null while the browser is being
// sent to /login.
export function startPage(...roles) {
  const me = requireRole(...roles);
  if (!me) return null;
  const who = document.getElementById("whoami");
  if (who) who.textContent = displayName(me.guest);
  const out = document.getElementById("logout");
  if (out) out.addEventListener("click", logout);
  return me;
}

const statusText = {
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  unauthorized: "Signed out",
  closed: "Offline",
};

// startLive opens the page's live connection, joins topics, and shows its state in
// #live-status. The page adds its own handlers to the returned connection (see live.js).
export function startLive(...topics) {
  const live = connect();
  const badge = document.getElementById("live-status");
  live.onStatus((status) => {
    if (badge) {
      badge.dataset.status = status;
      badge.querySelector(".text").textContent = statusText[status] || status;
    }
    if (status === "unauthorized") {
      // The token was refused for a ticket: it has expired or been revoked.
      clearAuth();
      location.assign("/login?expired=1");
    }
  });
  for (const topic of topics) live.subscribe(topic);
  return live;
}
