// Shared start-up for the signed-in pages: checks the role, shows who is signed in and
// wires the sign-out button. Each app's own module calls startPage first.
import { displayName, logout, requireRole } from "./api.js";

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
