// The public menu at /menu (docs/MENU.md): what a stranger sees from the QR poster on
// the bar or a link in the group chat, without signing in — sections, search, pictures,
// allergens and "alcohol-free" — with "sign in to order" and, when the host lets people
// join (GET /api/event's registration "open" or "approval"), "join the party". While the
// host keeps the menu private it says so and shows nothing of it: the API refuses the
// menu's reads without a session then (docs/SECURITY.md).
import { h } from "./bar-common.js";
import { has, lang, t } from "./i18n.js";
import { closeTo } from "./menu.js";

const $ = (id) => document.getElementById(id);

const state = { sections: [], drinks: [], section: "", query: "", alcoholFree: false };

// The event whose menu this is, when the link names one (/menu?event=<id>): its
// calls and its link to the registration page keep it (docs/EVENTS.md).
const eventParam = new URLSearchParams(location.search).get("event");

start();

async function start() {
  let ev;
  try {
    ev = await getJSON("/api/event");
  } catch (err) {
    return fail(err);
  }
  $("pm-event").textContent = ev.eventName || "";
  if (ev.eventName) document.title = `${ev.eventName} · ${t("pubmenu.title")}`;
  // A party that takes sign-ups links to them; a field this server does not send is
  // a closed party.
  $("pm-join").hidden = !["open", "approval"].includes(ev.registration);
  if (eventParam) $("pm-join").href = `/join?event=${encodeURIComponent(eventParam)}`;
  if (!ev.publicMenu) {
    $("pm-loading").hidden = true;
    $("pm-private").hidden = false;
    return;
  }
  $("pm-actions").hidden = false;
  try {
    const key = await getJSON("/api/app-key");
    if (!key.enabled) throw new Error(t("guest.paused"));
    const headers = { "X-Api-Key": key.key };
    const [secs, list] = await Promise.all([getJSON("/api/sections", headers), getJSON("/api/drinks", headers)]);
    state.sections = secs.sections;
    state.drinks = list.drinks;
  } catch (err) {
    return fail(err);
  }
  $("pm-loading").hidden = true;
  $("pm-menu").hidden = false;
  $("pm-search").addEventListener("input", (e) => {
    state.query = e.target.value.trim().toLowerCase();
    render();
  });
  $("pm-af").addEventListener("change", (e) => {
    state.alcoholFree = e.target.checked;
    render();
  });
  renderSections();
  render();
}

// getJSON reads the API in the page's language, with no sign-in: this page is the
// stranger's.
async function getJSON(path, headers = {}) {
  if (eventParam) path += `${path.includes("?") ? "&" : "?"}event=${encodeURIComponent(eventParam)}`;
  let res;
  try {
    res = await fetch(path, { headers: { Accept: "application/json", "Accept-Language": lang, ...headers } });
  } catch {
    throw new Error(t("common.networkError"));
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.error?.message || t("common.httpError", { status: res.status }));
  return body;
}

function fail(err) {
  $("pm-loading").hidden = true;
  $("pm-error").textContent = err.message;
  $("pm-error").hidden = false;
}

// word translates a menu word the catalogue knows (a tag, an allergen) and leaves one
// the host made up as it is.
function word(kind, value) {
  return has(`${kind}.${value}`) ? t(`${kind}.${value}`) : value;
}

function renderSections() {
  const chip = (id, name) => h("button", {
    type: "button", class: "chip-button", "aria-pressed": String(state.section === id),
    onclick: () => {
      state.section = id;
      renderSections();
      render();
    },
  }, name);
  $("pm-sections").replaceChildren(chip("", t("guest.all")),
    ...state.sections.filter((s) => s.drinks > 0).map((s) => chip(s.id, s.i18n?.[lang]?.name || s.name)));
}

function words(d) {
  return [d.name, ...d.ingredients.map((i) => i.name), ...(d.i18n?.[lang]?.ingredients || []), ...d.tags]
    .join(" ").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function matches(d) {
  if (state.section && d.section !== state.section) return false;
  if (state.alcoholFree && !d.alcoholFree) return false;
  if (!state.query) return true;
  const ws = words(d);
  return state.query.split(/\s+/).every((q) => ws.some((w) => w.startsWith(q) || closeTo(q, w)));
}

function render() {
  const shown = state.drinks.filter(matches);
  $("pm-count").textContent = t("pubmenu.count", { count: shown.length });
  $("pm-list").replaceChildren(...shown.map(card));
  if (shown.length === 0) $("pm-list").append(h("li", { class: "empty muted" }, t("pubmenu.none")));
}

function card(d) {
  const tr = d.i18n?.[lang] || {};
  const ingredients = (tr.ingredients?.length === d.ingredients.length ? tr.ingredients : d.ingredients.map((i) => i.name)).join(", ");
  return h("li", { class: "pm-drink", "data-drink": d.id },
    d.imageUrl ? h("img", { class: "pm-photo", src: d.imageUrl, alt: d.name, loading: "lazy", width: 96, height: 96 }) : h("div", { class: "pm-photo none", "aria-hidden": "true" }),
    h("div", { class: "pm-body" },
      h("h3", {}, d.name, " ",
        d.alcoholFree && h("span", { class: "badge ok pm-af" }, t("guest.alcoholFree")),
        !d.available && h("span", { class: "badge bad" }, t("guest.soldOut"))),
      (tr.description || d.description) && h("p", { class: "pm-desc" }, tr.description || d.description),
      h("p", { class: "pm-ingredients muted" }, ingredients),
      d.allergens?.length > 0 && h("p", { class: "pm-allergens" },
        t("pubmenu.contains", { list: d.allergens.map((a) => word("allergen", a)).join(", ") }))));
}
