// Shared start-up for the signed-in pages: checks the role, shows who is signed in and
// wires the sign-out button. Each app's own module calls startPage first.
import { api, clearAuth, displayName, logout, rememberPage, requireRole, wasSignedIn } from "./api.js";
import { connect } from "./live.js";
import { followEventLink, startEventSwitch } from "./events.js";
import { t } from "./i18n.js";

// startPage returns the sign-in (see auth in api.js), or null while the browser is being
// sent to /login.
export function startPage(...roles) {
  const me = requireRole(...roles);
  if (!me) return null;
  rememberPage();
  const who = document.getElementById("whoami");
  if (who) who.textContent = displayName(me.guest);
  const out = document.getElementById("logout");
  if (out) out.addEventListener("click", logout);
  const everywhere = document.getElementById("logout-everywhere");
  if (everywhere) {
    everywhere.addEventListener("click", async () => {
      if (!confirm(t("common.signOutEverywhereConfirm"))) return;
      try {
        await api("POST", "/api/auth/signout-everywhere");
      } catch {
        // Signed out already, or offline: this device signs out either way.
      }
      logout();
    });
  }
  // The staff pages name the event they work in, and open another from the top bar.
  if (document.getElementById("event-switch")) startEventSwitch();
  // A link into another of the person's events (a notification's tap) opens it.
  followEventLink();
  return me;
}


// startLive returns the page's one live connection, opening it on the first call, and
// joins topics; its state shows in #live-status. Every module of a page shares the one
// socket (a guest's phone holds one connection, not one per panel), adding its own
// handlers to it (see live.js).
let pageLive = null;

export function startLive(...topics) {
  if (!pageLive) {
    pageLive = connect();
    const badge = document.getElementById("live-status");
    pageLive.onStatus((status) => {
      if (badge) {
        badge.dataset.status = status;
        badge.querySelector(".text").textContent = t(`live.${status}`);
      }
      if (status === "unauthorized") {
        // The token was refused for a ticket: it has expired or been revoked. Without
        // one (a first visit) nobody was signed out, and the page only asks to sign in.
        const signedIn = wasSignedIn();
        clearAuth();
        location.assign(signedIn ? "/login?expired=1" : "/login");
      }
    });
  }
  for (const topic of topics) pageLive.subscribe(topic);
  return pageLive;
}
