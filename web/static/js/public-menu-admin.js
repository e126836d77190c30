// The host's switch of the public menu and its poster (docs/MENU.md): the switch is
// kept in the event's settings and changes the menu for strangers at once; until the
// host sets it, --public-menu (BARHUB_PUBLIC_MENU) decides. The poster is a page to
// print with a big QR code of the public menu's address.
import { api, ApiError, requireRole } from "./api.js";
import { authedFetch } from "./desk-tools.js";
import { lang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

if ($("public-menu") && requireRole("admin")) start();

// DETAILS are what PUT /api/admin/settings replaces; the switch sends them as stored.
const DETAILS = ["eventName", "eventDate", "location", "dressCode", "info", "rsvpDeadline", "timezone"];

async function start() {
  $("pubmenu-switch").addEventListener("change", (e) => save(e.target.checked));
  $("pubmenu-poster").addEventListener("click", printPoster);
  try {
    show(await api("GET", "/api/admin/settings"));
  } catch (err) {
    showError(err);
  }
}

function show(s) {
  $("pubmenu-switch").checked = !!s.publicMenu;
  $("pubmenu-source").textContent = s.publicMenuSet
    ? t("desk.pubmenu.setHere")
    : t(s.publicMenuDefault ? "desk.pubmenu.defaultOn" : "desk.pubmenu.defaultOff");
}

function showError(err) {
  $("pubmenu-error").textContent = err.message;
  $("pubmenu-error").hidden = false;
}

async function save(on) {
  $("pubmenu-switch").disabled = true;
  $("pubmenu-status").textContent = "";
  try {
    const now = await api("GET", "/api/admin/settings");
    const body = { publicMenu: on };
    for (const f of DETAILS) body[f] = now[f] ?? "";
    show(await api("PUT", "/api/admin/settings", body));
    $("pubmenu-error").hidden = true;
    $("pubmenu-status").textContent = t("tools.saved");
  } catch (err) {
    $("pubmenu-switch").checked = !on;
    showError(err);
  } finally {
    $("pubmenu-switch").disabled = false;
  }
}

// printPoster opens the poster in a new tab, opened inside the click so no pop-up
// blocker stops it, as the invitations are (desk-tools.js).
async function printPoster() {
  const win = window.open("", "_blank");
  if (!win) {
    alert(t("tools.allowPopups"));
    return;
  }
  win.document.title = t("desk.pubmenu.posterLoading");
  try {
    let res;
    try {
      // The poster's text is in the page's language.
      res = await authedFetch("/api/admin/poster", { headers: { "Accept-Language": lang } });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "public_url_unreachable") throw err;
      if (!confirm(`${err.message}\n\n${t("invite.goAhead")}`)) {
        win.close();
        return;
      }
      res = await authedFetch("/api/admin/poster?anyway=true", { headers: { "Accept-Language": lang } });
    }
    const html = await res.text();
    win.document.open();
    win.document.write(html.replace("<head>", `<head><base href="${location.origin}/">`));
    win.document.close();
  } catch (err) {
    win.close();
    alert(err.message);
  }
}
