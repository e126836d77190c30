// The guest's drink menu and orders, in <section id="menu-area"> of the home page:
// sections, search by name or ingredient, a compact row per drink with its allergen flag
// and the details (photo, ingredients, glass) a tap away,
// ordering with notes, and "my orders" with live status, place in the queue and a clear
// "ready!" moment (sound and vibration where the phone allows).
import { ApiError, auth } from "./api.js";
import { startLive } from "./page.js";
import { formatList, formatNumber, has, lang, t } from "./i18n.js";
import {
  appApi, appIsOn, beep, h, itemsText, loadAppKey, loadStyles, minutes, newKey, onAppSwitch,
  statusWords, toast, unlockAudio,
} from "./bar-common.js";

const area = document.getElementById("menu-area");
const me = auth();

const state = {
  sections: [],
  drinks: [],
  warnings: {},
  // people: whom the guest can order for (self, the people they bring,
  // the others in their group), from GET /api/rsvp.
  people: [],
  // child: the guest is marked a child, so drinks with alcohol are not theirs to order.
  child: false,
  // marks: the menu's marks per person ordered for (GET /api/drinks?for=), fetched
  // when first chosen, dropped when the menu or the people are read again.
  marks: new Map(),
  orders: [],
  section: "",
  query: "",
  alcoholFree: false,
  loaded: false,
};

// The drinks whose details are open, so a live reload of the menu keeps them open.
const openDetails = new Set();

// Orders whose "ready" moment was shown already, so a resync does not repeat it.
const celebrated = new Set();

if (area && me?.guest?.id) start();

function start() {
  loadStyles("/static/css/bar.css");
  area.classList.add("menu-area");
  // On the guest app the orders have a view of their own (#orders-area, under "My orders").
  const ordersArea = document.getElementById("orders-area") || area;
  ordersArea.classList.add("menu-area");
  ordersArea.append(
    h("div", { id: "my-orders", class: "card my-orders", hidden: true, "aria-live": "polite" },
      h("h2", {}, t("guest.myOrders")),
      h("ul", { id: "order-list", class: "order-list" })));
  area.append(
    h("div", { class: "card menu-card" },
      h("h2", { id: "menu-title" }, t("guest.drinks")),
      h("p", { id: "menu-paused", class: "notice", hidden: true },
        t("guest.paused")),
      h("div", { class: "menu-tools" },
        h("label", { class: "visually-hidden", for: "menu-search" }, t("guest.searchLabel")),
        h("input", { id: "menu-search", type: "search", placeholder: t("guest.searchPlaceholder"), autocomplete: "off", enterkeyhint: "search" }),
        h("div", { id: "menu-sections", class: "menu-sections", role: "group", "aria-label": t("guest.sections") }),
        h("label", { class: "check-row" }, h("input", { id: "menu-af", type: "checkbox" }), " ", t("guest.alcoholFreeOnly"))),
      h("p", { id: "menu-error", class: "error", role: "alert", hidden: true }),
      h("div", { id: "menu-list", class: "drink-grid" }, h("p", { class: "empty" }, t("guest.loadingMenu")))));
  // The dialog and the "ready" moment show over whichever view is on screen.
  document.body.append(orderDialog(), readyOverlay());
  // The phone's back button closes the order sheet, as it does any sheet, and leaves the
  // view beneath as it was: the sheet has an entry of its own in the history.
  const sheet = document.getElementById("order-dialog");
  window.addEventListener("popstate", () => {
    if (sheet.open) sheet.close();
  });
  sheet.addEventListener("close", () => {
    if (history.state?.orderSheet) history.back();
  });
  // A dock above the navigation keeps the open order in sight from the other views and
  // leads to it.
  document.body.append(h("button", { id: "order-dock", class: "order-dock", type: "button", hidden: true,
    onclick: () => {
      document.dispatchEvent(new CustomEvent("barhub:show", { detail: "orders" }));
      document.getElementById("my-orders").scrollIntoView({ behavior: "smooth", block: "start" });
    } }));
  document.addEventListener("barhub:view", () => renderOrders());
  document.addEventListener("barhub:people-changed", () => loadPeople());
  // "Order" on a recommended drink (reco.js): the same dialog and allergy checks as from
  // the menu, over the recommendation.
  document.addEventListener("barhub:order-drink", (e) => {
    const d = state.drinks.find((x) => x.id === e.detail);
    if (d?.available && appIsOn()) openOrder(d);
    else toast(d ? t("guest.soldOut") : t("guest.notOnMenu"), "bad");
  });
  document.getElementById("menu-search").addEventListener("input", (e) => {
    state.query = e.target.value.trim().toLowerCase();
    renderDrinks();
  });
  document.getElementById("menu-af").addEventListener("change", (e) => {
    state.alcoholFree = e.target.checked;
    renderDrinks();
  });
  area.addEventListener("click", unlockAudio, { capture: true });
  onAppSwitch((on) => {
    document.getElementById("menu-paused").hidden = on;
    renderDrinks();
  });

  const live = startLive("menu", "guest:" + me.guest.id);
  for (const ev of ["order.placed", "order.updated", "order.preparing", "order.served", "order.cancelled"]) {
    live.on(ev, (data) => upsertOrder(data));
  }
  live.on("order.ready", (data) => {
    upsertOrder(data);
    celebrate(data);
  });
  // A drink's new image prompt changes nothing a guest sees; a seeded menu
  // brings one per drink, and reloading for each would be a burst.
  live.on("menu.changed", (data) => {
    if (data?.reason !== "image_prompt") loadMenu();
  });
  // The guest's needs changed (their answer, the host's review): the
  // marks, and the caution over words barhub could not read, follow.
  live.on("needs.changed", () => loadMenu());
  live.on("app.status", () => loadAppKey().then(() => loadMenu()).catch(() => {}));
  live.onResync("*", () => {
    loadMenu();
    loadOrders();
  });

  loadAppKey()
    .catch(() => {})
    .finally(() => {
      document.getElementById("menu-paused").hidden = appIsOn();
      loadMenu();
      loadOrders();
    });
  // Places in the queue move as other people's drinks are made.
  setInterval(() => {
    if (state.orders.some((o) => o.status === "queued" || o.status === "preparing")) loadOrders();
  }, 30000);
}

function showError(err) {
  const box = document.getElementById("menu-error");
  if (!err || (err instanceof ApiError && err.code === "app_switched_off")) {
    box.hidden = true;
    return;
  }
  box.textContent = err.message;
  box.hidden = false;
}

async function loadMenu() {
  try {
    const [secs, list] = await Promise.all([appApi("GET", "/api/sections"), appApi("GET", "/api/drinks")]);
    state.sections = secs.sections;
    state.drinks = list.drinks;
    state.warnings = list.allergenWarnings || {};
    state.unread = list.unread || [];
    loadPeople();
    state.loaded = true;
    showError(null);
  } catch (err) {
    showError(err);
  }
  renderSections();
  renderDrinks();
}

// loadPeople lists whom a drink can be for: "me", each person the guest
// brings (+1, +2…) and each other member of their group.
async function loadPeople() {
  try {
    const v = await appApi("GET", "/api/rsvp");
    const g = v.guest;
    // A guest marked a child (by the host or whoever answered for the group) is served
    // alcohol-free drinks only, as the people they bring who are children.
    const wasChild = state.child;
    state.child = g.ageGroup === "child";
    const people = [{ ref: "", name: t("guest.me"), child: state.child }];
    const bring = Math.max(g.expectedGuests + (g.extraGuests || 0), g.expectedGuests) - 1;
    // Refs as the server writes them on order items ("id/1"), so a
    // queued order being changed keeps whom it is for.
    for (let i = 1; i <= bring; i++) {
      const c = g.companions?.[i - 1];
      people.push({ ref: `${g.id}/${i}`, name: c?.name || t("guest.myPlus", { n: i }), child: c?.ageGroup === "child" });
    }
    for (const m of v.group || []) if (m.id !== g.id) people.push({ ref: m.id, name: [m.firstName, m.lastName].join(" ").trim(), child: m.ageGroup === "child" });
    state.people = people;
    state.marks.clear();
    // The cards offer Order by it: drawn again only when it changed.
    if (state.child !== wasChild) renderDrinks();
  } catch {
    state.people = [];
  }
}

// word translates a menu word the catalogue knows (a tag, an allergen) and
// leaves one the host made up as it is.
function word(kind, value) {
  return has(`${kind}.${value}`) ? t(`${kind}.${value}`) : value;
}

// causeText says why a drink is not for someone, from diet.Check's causes:
// allergens, "alcohol", a diet, or words of needs the host has not seen.
const DIETS = ["vegan", "vegetarian", "halal", "kosher"];
function causeText(causes) {
  return causes.map((c) => (c === "check" ? t("guest.cause.check", { words: "“" + (state.unread || []).join("”, “") + "”" }) : c === "alcohol" ? t("guest.cause.alcohol") : DIETS.includes(c) ? t("guest.cause.notDiet", { diet: t(`diet.${c}`) }) : t("guest.cause.contains", { what: word("allergen", c) }))).join(", ");
}

async function loadOrders() {
  try {
    const out = await appApi("GET", "/api/orders");
    state.orders = out.orders;
    // Ready before the page opened: no fanfare, it is already on screen.
    for (const o of state.orders) if (o.status === "ready") celebrated.add(o.id);
    renderOrders();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "app_switched_off")) console.warn("load orders", err);
  }
}

// ---- Menu ------------------------------------------------------------------------------

function renderSections() {
  const box = document.getElementById("menu-sections");
  const chip = (id, name) =>
    h("button", {
      type: "button", class: "chip-button", "aria-pressed": String(state.section === id),
      onclick: () => {
        state.section = id;
        renderSections();
        renderDrinks();
      },
    }, name);
  box.replaceChildren(chip("", t("guest.all")), ...state.sections.filter((s) => s.drinks > 0).map((s) => chip(s.id, s.i18n?.[lang]?.name || s.name)));
}

// closeTo reports whether word is within one typo of q (two for long queries): a
// letter missing, extra, wrong or two swapped ("mojto", "mohito", "mojtio" → mojito).
// Short queries must match exactly; a typo in three letters is another word.
export function closeTo(q, word) {
  if (q.length < 4) return false;
  const limit = q.length >= 8 ? 2 : 1;
  // Compare with the word's start of about the query's length, so "margar" finds
  // "margarita" and "margarta" does too.
  for (const w of new Set([word, word.slice(0, q.length), word.slice(0, q.length + 1), word.slice(0, q.length - 1)])) {
    if (Math.abs(w.length - q.length) <= limit && distance(q, w, limit) <= limit) return true;
  }
  return false;
}

// distance is the optimal string alignment distance, stopping early past limit.
function distance(a, b, limit) {
  const prev2 = new Array(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > limit) return best;
    prev2.splice(0, prev2.length, ...prev);
    prev = cur;
  }
  return prev[b.length];
}

function words(d) {
  return [d.name, ...d.ingredients.map((i) => i.name), ...d.tags].join(" ").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function matches(d) {
  if (state.section && d.section !== state.section) return false;
  if (state.alcoholFree && !d.alcoholFree) return false;
  const q = state.query;
  if (!q) return true;
  return (
    d.name.toLowerCase().includes(q) ||
    d.description.toLowerCase().includes(q) ||
    (d.i18n?.[lang]?.description || "").toLowerCase().includes(q) ||
    d.ingredients.some((i) => i.name.toLowerCase().includes(q)) ||
    (d.i18n?.[lang]?.ingredients || []).some((name) => name.toLowerCase().includes(q)) ||
    d.tags.some((t) => t.includes(q)) ||
    words(d).some((w) => closeTo(q, w))
  );
}

function renderDrinks() {
  const list = document.getElementById("menu-list");
  if (!state.loaded) return;
  const shown = state.drinks.filter(matches);
  if (state.drinks.length === 0) {
    list.replaceChildren(h("p", { class: "empty" }, t("guest.menuEmpty")));
    return;
  }
  if (shown.length === 0) {
    list.replaceChildren(h("p", { class: "empty" }, t("guest.noMatch", { query: state.query })));
    return;
  }
  list.replaceChildren(...shown.map(drinkCard));
}

// drinkCard is one compact row: the name, strength and a line of description, what the
// guest's needs say about the drink and the Order button, so a phone shows many drinks
// per screen. A tap on the row opens the rest: the whole description, ingredients,
// glass, garnish, allergens, tags and the photo.
function drinkCard(d) {
  const warn = state.warnings[d.id];
  const strength = d.alcoholFree
    ? h("span", { class: "badge ok" }, t("guest.alcoholFree"))
    : h("span", { class: "strength" }, t("guest.strength", { abv: formatNumber(d.abv / 100, { style: "percent", maximumFractionDigits: 1 }), std: d.standardDrinks }));
  let action;
  if (!d.available) {
    const missing = d.missingIngredients.length ? t("guest.outOf", { what: formatList(d.missingIngredients) }) : t("guest.soldOut");
    action = h("p", { class: "badge bad unavailable" }, missing);
  } else if (state.child && !d.alcoholFree) {
    action = h("p", { class: "badge bad unavailable" }, t("guest.notForChild"));
  } else {
    action = h("button", {
      type: "button", class: "primary order-button", disabled: !appIsOn(),
      "aria-label": t("guest.orderDrink", { drink: d.name }), onclick: () => openOrder(d),
    }, t("guest.order"));
  }
  const detailsId = `drink-details-${d.id}`;
  const toggle = h("button", { type: "button", class: "drink-toggle", "aria-expanded": "false", "aria-controls": detailsId }, d.name);
  const details = h("div", { id: detailsId, class: "drink-details", hidden: true },
    h("p", { class: "ingredients" }, (d.i18n?.[lang]?.ingredients || d.ingredients.map((i) => i.name)).join(" · ")),
    serving(d),
    d.allergens.length > 0 && h("p", { class: "allergens" }, t("guest.allergens", { list: d.allergens.map((a) => word("allergen", a)).join(", ") })),
    d.tags.length > 0 && h("div", { class: "tags" }, d.tags.map((tag) => h("span", { class: "badge" }, word("tag", tag)))));
  const card = h("article", { class: "drink" + (d.available ? "" : " is-out") + (warn ? " not-for-you" : ""), dataset: { id: d.id } },
    // Every drink has a picture: the host's photo, a generated one or barhub's drawing.
    d.imageUrl && h("img", { class: "drink-pic" + (d.imageSource === "drawn" ? " drawn" : ""), src: d.imageUrl, alt: "", loading: "lazy", decoding: "async", width: 40, height: 50 }),
    // The whole summary is the tap target; the button in the heading is what keyboards
    // and screen readers reach, and its click comes here too.
    h("div", { class: "drink-main", onclick: () => toggleDetails(card, d) },
      h("div", { class: "drink-head" }, h("h3", {}, toggle), strength),
      d.description && h("p", { class: "desc" }, d.i18n?.[lang]?.description || d.description)),
    h("div", { class: "drink-action" }, action),
    warn && h("p", { class: "allergen-flag", role: "note" }, flagText(warn)),
    details);
  if (openDetails.has(d.id)) toggleDetails(card, d);
  return card;
}

// flagText says why a drink is flagged for the guest. A child's "has alcohol" comes from
// the mark the host or the group's answer set, not from anything the child told us, so it
// is said as a child's; "you told us" is kept for the needs they gave themselves.
function flagText(warn) {
  const childAlcohol = state.child && warn.includes("alcohol");
  const told = childAlcohol ? warn.filter((c) => c !== "alcohol") : warn;
  const parts = [];
  if (childAlcohol) parts.push(t("guest.notForChildFlag"));
  if (told.join() === "check") parts.push(t("guest.unreadFlag", { words: "“" + state.unread.join("”, “") + "”" }));
  else if (told.length > 0) parts.push(t("guest.notForYou", { causes: causeText(told) }));
  return parts.join(". ");
}

function toggleDetails(card, d) {
  const details = card.querySelector(".drink-details");
  const show = details.hidden;
  details.hidden = !show;
  card.classList.toggle("is-open", show);
  card.querySelector(".drink-toggle").setAttribute("aria-expanded", String(show));
  if (show) openDetails.add(d.id);
  else openDetails.delete(d.id);
  // The large picture loads only when someone looks; the rows show small ones, lazily.
  if (show && d.imageUrl && !details.querySelector(".photo")) {
    details.prepend(h("div", { class: "photo" + (d.imageSource === "drawn" ? " drawn" : "") }, h("img", { src: d.imageUrl, alt: "", loading: "lazy", width: 480, height: 360 })));
  }
}

// serving says how the drink comes: "Coupe · garnish: orange twist".
function serving(d) {
  const glass = d.i18n?.[lang]?.glass || d.glass;
  const garnish = d.i18n?.[lang]?.garnish || d.garnish;
  const parts = [glass, garnish && t("guest.garnish", { garnish: garnish.toLowerCase() })].filter(Boolean);
  return parts.length > 0 && h("p", { class: "serving" }, parts.join(" · "));
}

// ---- Ordering ----------------------------------------------------------------------------

function orderDialog() {
  return h("dialog", { id: "order-dialog", class: "sheet order-sheet", "aria-labelledby": "order-title" },
    h("form", { id: "order-form", method: "dialog", novalidate: true },
      h("h2", { id: "order-title" }, t("guest.order")),
      h("p", { id: "order-desc", class: "muted" }),
      h("div", { class: "field" },
        h("span", { class: "label", id: "qty-label" }, t("guest.howMany")),
        h("div", { class: "stepper", role: "group", "aria-labelledby": "qty-label" },
          h("button", { type: "button", id: "qty-down", "aria-label": t("common.oneFewer") }, "−"),
          h("output", { id: "qty", "aria-live": "polite" }, "1"),
          h("button", { type: "button", id: "qty-up", "aria-label": t("common.oneMore") }, "+"))),
      h("div", { class: "field", id: "order-for-row", hidden: true },
        h("label", { for: "order-for" }, t("guest.orderFor")),
        h("select", { id: "order-for" })),
      h("div", { class: "field" },
        h("label", { for: "order-notes" }, t("guest.notes")),
        h("textarea", { id: "order-notes", maxlength: 200, rows: 2, placeholder: t("guest.notesPlaceholder") })),
      h("label", { id: "allergen-confirm-row", class: "check-row allergen-confirm", hidden: true },
        h("input", { id: "allergen-confirm", type: "checkbox" }), h("span", { id: "allergen-confirm-text" })),
      h("p", { id: "order-error", class: "error", role: "alert", hidden: true }),
      h("div", { class: "actions" },
        h("button", { id: "order-submit", class: "primary block", type: "submit", value: "ok" }, t("guest.placeOrder")),
        h("button", { class: "block", type: "button", id: "order-back" }, t("common.back")))));
}

let draft = null; // {drink, key, orderId?, version?}

function setQty(n) {
  const q = Math.min(5, Math.max(1, n));
  document.getElementById("qty").textContent = String(q);
  draft.qty = q;
  draft.key = newKey(); // another body needs another key
}

function openOrder(d, existing) {
  const dlg = document.getElementById("order-dialog");
  const warn = state.warnings[d.id];
  draft = { drink: d, key: newKey(), qty: 1, orderId: existing?.id, version: existing?.version };
  document.getElementById("order-title").textContent = existing ? t("guest.changeDrink", { drink: d.name }) : d.name;
  document.getElementById("order-desc").textContent = d.i18n?.[lang]?.description || d.description || "";
  document.getElementById("qty").textContent = "1";
  // A note typed and not yet sent survives a reload, per drink, for this tab.
  const noteKey = `barhub.orderNote.${d.id}`;
  document.getElementById("order-notes").value = existing?.items?.[0]?.notes || sessionStorage.getItem(noteKey) || "";
  if (existing) setQty(existing.items[0].qty);
  const forSel = document.getElementById("order-for");
  // A child is offered alcohol-free drinks only: a drink with alcohol is not theirs to choose.
  const people = state.people.filter((p) => !p.child || d.alcoholFree);
  forSel.replaceChildren(...people.map((p) => h("option", { value: p.ref }, p.name)));
  forSel.value = existing?.items?.[0]?.for ? existing.items[0].for : "";
  document.getElementById("order-for-row").hidden = people.length <= 1 || !!existing;
  // The marks on the menu are the guest's own; for someone else the bar's
  // answer asks (allergen_confirmation_required).
  const showConfirm = (causes, whose) => {
    const row = document.getElementById("allergen-confirm-row");
    row.hidden = !causes;
    document.getElementById("allergen-confirm").checked = false;
    document.getElementById("allergen-confirm-text").textContent = causes
      ? t("guest.confirmAnyway", { causes: causeText(causes) + (whose ? ` (${whose})` : "") })
      : "";
  };
  draft.showConfirm = showConfirm;
  showConfirm(forSel.value ? null : warn);
  forSel.onchange = async () => {
    draft.key = newKey();
    document.getElementById("order-error").hidden = true;
    const ref = forSel.value;
    showConfirm(ref ? null : state.warnings[d.id]);
    if (!ref) return;
    // Someone else's needs: the menu's marks for them, asked for the moment they are
    // chosen, so the warning shows before Order rather than as its refusal.
    const marks = await marksFor(ref);
    if (forSel.value === ref && draft?.drink === d) showConfirm(marks[d.id], forSel.selectedOptions[0]?.textContent || "");
  };
  document.getElementById("order-error").hidden = true;
  document.getElementById("order-submit").textContent = existing ? t("guest.saveChanges") : t("guest.placeOrder");
  document.getElementById("qty-down").onclick = () => setQty(draft.qty - 1);
  document.getElementById("qty-up").onclick = () => setQty(draft.qty + 1);
  document.getElementById("order-notes").oninput = (e) => {
    draft.key = newKey();
    if (!existing) sessionStorage.setItem(noteKey, e.target.value);
  };
  document.getElementById("allergen-confirm").onchange = () => (draft.key = newKey());
  document.getElementById("order-back").onclick = () => dlg.close();
  document.getElementById("order-form").onsubmit = (e) => {
    e.preventDefault();
    submitOrder();
  };
  dlg.showModal();
  if (!history.state?.orderSheet) history.pushState({ orderSheet: true }, "", location.href);
}

// marksFor is the menu's marks for someone the guest orders for; none when they cannot
// be read (the order's answer still asks).
function marksFor(ref) {
  if (!state.marks.has(ref)) {
    state.marks.set(ref, appApi("GET", `/api/drinks?for=${encodeURIComponent(ref)}`).then((l) => l.allergenWarnings || {}, () => {
      state.marks.delete(ref);
      return {};
    }));
  }
  return state.marks.get(ref);
}

async function submitOrder() {
  const btn = document.getElementById("order-submit");
  const errBox = document.getElementById("order-error");
  const row = document.getElementById("allergen-confirm-row");
  const confirm = document.getElementById("allergen-confirm").checked;
  if (!row.hidden && !confirm) {
    errBox.textContent = t("guest.confirmNeeded");
    errBox.hidden = false;
    return;
  }
  const item = { drinkId: draft.drink.id, qty: draft.qty, notes: document.getElementById("order-notes").value };
  const forWhom = document.getElementById("order-for").value;
  if (forWhom) item.for = forWhom;
  const body = { items: [item], confirmAllergens: confirm };
  btn.disabled = true;
  errBox.hidden = true;
  try {
    let order;
    if (draft.orderId) {
      order = await appApi("PATCH", `/api/orders/${draft.orderId}`, { ...body, version: draft.version });
    } else {
      // The same key goes with every retry of this order, so a flaky network can never
      // place it twice.
      order = await appApi("POST", "/api/orders", body, { headers: { "Idempotency-Key": draft.key } });
    }
    upsertOrder(order);
    sessionStorage.removeItem(`barhub.orderNote.${draft.drink.id}`);
    document.dispatchEvent(new CustomEvent("barhub:ordered", { detail: order }));
    document.getElementById("order-dialog").close();
    toast(order.position ? t("guest.orderedPosition", { position: order.position }) : t("guest.ordered"), "ok");
  } catch (err) {
    if (err instanceof ApiError && err.code === "allergen_confirmation_required") {
      const flagged = err.details?.drinks?.[0];
      draft.showConfirm(flagged?.causes || [t("guest.somethingFromNeeds")], flagged?.forName || "");
    }
    errBox.textContent = err.status ? err.message : t("guest.orderOffline");
    errBox.hidden = false;
  } finally {
    btn.disabled = false;
  }
}

// ---- My orders -----------------------------------------------------------------------------

function upsertOrder(o) {
  if (!o?.id || o.guestId !== me.guest.id) return;
  // Recalled to the bar: when it is ready again, say so again.
  if (o.status === "preparing") celebrated.delete(o.id);
  const i = state.orders.findIndex((x) => x.id === o.id);
  if (i >= 0) {
    // Events carry no queue place; keep the last known until the next refresh.
    const prev = state.orders[i];
    if ((prev.version || 0) > (o.version || 0)) return;
    state.orders[i] = { ...prev, ...o, position: o.position ?? (o.status === prev.status ? prev.position : undefined) };
  } else {
    state.orders.unshift(o);
  }
  renderOrders();
  if (o.status === "queued" || o.status === "preparing") scheduleRefresh();
}

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(loadOrders, 400);
}

function orderState(o) {
  switch (o.status) {
    case "queued":
      return o.position ? t("guest.state.position", { position: o.position, wait: minutes(o.estimateSeconds) }) : t("status.queued");
    case "preparing":
      return o.estimateSeconds !== undefined ? t("guest.state.preparing", { wait: minutes(o.estimateSeconds) }) : t("status.preparing");
    case "ready":
      return t("guest.state.ready");
    case "served":
      return t("guest.state.served");
    case "cancelled": {
      const last = (o.history || [])[o.history.length - 1];
      return last?.reason ? t("guest.state.cancelledBecause", { reason: last.reason }) : t("status.cancelled");
    }
  }
  return o.status;
}

function renderDock(open) {
  const dock = document.getElementById("order-dock");
  const count = document.getElementById("orders-count");
  if (count) {
    count.textContent = open.length ? formatNumber(open.length) : "";
    count.hidden = open.length === 0;
  }
  // On "My orders" the orders themselves are on screen.
  const onOrders = document.body.dataset.view === "orders";
  const pick = onOrders ? null : open.find((o) => o.status === "ready") || open.find((o) => o.status === "preparing") || open[0];
  dock.hidden = !pick;
  document.body.classList.toggle("has-dock", !!pick);
  if (!pick) return;
  dock.className = `order-dock status-${pick.status}`;
  const more = open.length > 1 ? " " + t("guest.more", { count: open.length - 1 }) : "";
  dock.textContent = `${itemsText(pick)}: ${orderState(pick)}${more}`;
}

function renderOrders() {
  const box = document.getElementById("my-orders");
  const list = document.getElementById("order-list");
  const open = state.orders.filter((o) => !["served", "cancelled"].includes(o.status));
  const recent = state.orders.filter((o) => ["served", "cancelled"].includes(o.status)).slice(0, 3);
  const shown = [...open, ...recent];
  box.hidden = shown.length === 0;
  const empty = document.getElementById("orders-empty");
  if (empty) empty.hidden = shown.length > 0;
  renderDock(open);
  list.replaceChildren(...shown.map((o) =>
    h("li", { class: `order status-${o.status}`, dataset: { id: o.id, status: o.status } },
      h("div", { class: "order-items" }, itemsText(o)),
      (o.items || []).some((it) => it.notes) && h("div", { class: "order-notes muted" }, o.items.map((it) => it.notes).filter(Boolean).join("; ")),
      h("div", { class: "order-state" },
        h("span", { class: "pill" }, statusWords[o.status] || o.status), " ",
        h("span", { class: "order-detail" }, orderState(o))),
      o.status === "queued" && h("div", { class: "row order-actions" },
        o.items?.length === 1 && h("button", { type: "button", class: "quiet", onclick: () => editOrder(o) }, t("guest.change")),
        h("button", { type: "button", class: "quiet", onclick: () => cancelOrder(o) }, t("common.cancel"))))));
}

function editOrder(o) {
  const d = state.drinks.find((x) => x.id === o.items[0].drinkId);
  if (d) openOrder(d, o);
}

async function cancelOrder(o) {
  if (!window.confirm(t("guest.cancelConfirm", { items: itemsText(o) }))) return;
  try {
    upsertOrder(await appApi("POST", `/api/orders/${o.id}/cancel`, {}));
    toast(t("guest.cancelled"));
  } catch (err) {
    toast(err.message, "bad");
    loadOrders();
  }
}

// ---- Ready! ----------------------------------------------------------------------------------

function readyOverlay() {
  return h("div", { id: "ready-overlay", class: "ready-overlay", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "ready-title", hidden: true },
    h("div", { class: "ready-box" },
      h("img", { class: "ready-glass", src: "/static/img/icon.svg", alt: "", width: 96, height: 96 }),
      h("h2", { id: "ready-title" }, t("guest.ready.title")),
      h("p", { id: "ready-items", class: "ready-items" }),
      h("p", {}, t("guest.ready.pickUp")),
      h("button", { type: "button", class: "primary block", id: "ready-ok", onclick: () => (document.getElementById("ready-overlay").hidden = true) }, t("guest.ready.ok"))));
}

function celebrate(o) {
  if (!o || o.guestId !== me.guest.id || celebrated.has(o.id)) return;
  celebrated.add(o.id);
  document.getElementById("ready-items").textContent = itemsText(o);
  const overlay = document.getElementById("ready-overlay");
  overlay.hidden = false;
  overlay.dataset.orderId = o.id;
  document.getElementById("ready-ok").focus();
  beep([[660, 0, 0.15], [880, 0.17, 0.15], [1320, 0.34, 0.4]]);
  navigator.vibrate?.([200, 100, 200, 100, 400]);
  const title = document.title;
  document.title = "🍸 " + t("guest.ready.title");
  setTimeout(() => (document.title = title), 15000);
}
