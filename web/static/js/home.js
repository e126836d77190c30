// The guest app: RSVP, menu and orders build on this page.
import { startPage } from "./page.js";

const me = startPage("guest", "bartender", "admin");
if (me) {
  const first = me.guest?.firstName || "there";
  document.getElementById("greeting").textContent = `Welcome, ${first}!`;
}
