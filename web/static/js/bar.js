// The bartender's tablet, a kitchen display: numbered tickets flowing left to right
// (queued, in the making, ready), an all-day strip of what is waiting per drink, one big
// bump button per ticket with a few seconds to undo it, keys for a bump bar or keyboard
// (1–9 pick a ticket, Enter bumps it, R recalls), tickets coloured by how long they have
// waited, each drink's recipe one tap away, and the stock switches over the queue.
// Everything updates live; nothing needs a reload.
import { api, ApiError } from "./api.js";
import { startLive, startPage } from "./page.js";
import { beep, clock, h, itemsText, toast, unlockAudio } from "./bar-common.js";
import { formatList, t } from "./i18n.js";
import { patchChildren } from "./patch.js";

const me = startPage("bartender", "admin");

const state = {
  orders: new Map(), // id → order
  typicalPrep: 120,
  offset: 0, // server clock minus ours, so ages are right on a tablet with a wrong clock
  stock: null,
  sound: true,
  selected: null, // id of the ticket picked with 1–9
  keyOrder: [], // ids in the order the rail shows them: key 1 is the first
  pending: new Map(), // id → {action, timer}: bumped, not sent yet
  lastBump: null, // {id, action, ticket}: what R or Undo takes back
};

// A bump that moves a ticket on (start, served) waits this long before it is sent, so a
// wrong tap costs nothing; "ready" goes at once, since the guest's phone is waiting for
// it, and its undo is a recall.
const UNDO_MS = 4000;

// Each column's buttons: [action, label, style].
const actions = {
  queued: [["start", t("bar.start"), "primary"], ["cancel", t("bar.cancel"), "quiet"]],
  preparing: [["ready", t("bar.ready"), "primary"], ["cancel", t("bar.cancel"), "quiet"]],
  ready: [["serve", t("bar.served"), "primary"], ["recall", t("bar.recall"), "quiet"]],
};

if (me) start();

function start() {
  document.addEventListener("click", unlockAudio, { capture: true });
  document.getElementById("sound-toggle").addEventListener("click", (e) => {
    state.sound = !state.sound;
    e.currentTarget.setAttribute("aria-pressed", String(state.sound));
    e.currentTarget.textContent = state.sound ? t("bar.soundOn") : t("bar.soundOff");
  });
  document.getElementById("stock-toggle").addEventListener("click", () => toggleStock());
  document.getElementById("stock-close").addEventListener("click", () => toggleStock(false));
  document.getElementById("stock-search").addEventListener("input", renderStock);
  document.getElementById("bump-undo-button").addEventListener("click", () => undoLastBump());
  document.addEventListener("keydown", onKey);
  // The reasons' texts: bar.reasonRanOutText, bar.reasonClosingText, bar.reasonDuplicateText.
  for (const b of document.querySelectorAll("#cancel-reasons button")) {
    b.addEventListener("click", () => (document.getElementById("cancel-reason").value = t(b.dataset.reasonKey)));
  }

  const live = startLive("bar", "menu");
  for (const ev of ["order.placed", "order.updated", "order.preparing", "order.ready", "order.served", "order.cancelled"]) {
    live.on(ev, (data) => {
      const isNew = ev === "order.placed" && !state.orders.has(data.id);
      upsert(data);
      if (isNew && state.sound) beep([[740, 0, 0.12], [988, 0.14, 0.2]]);
    });
  }
  live.on("menu.changed", () => {
    if (!document.getElementById("stock-panel").hidden) loadStock();
  });
  live.onResync("*", () => loadQueue());

  loadQueue();
  // A full refresh now and then catches anything a sleeping tablet missed.
  setInterval(loadQueue, 30000);
  setInterval(tick, 1000);
}

function showError(err) {
  const box = document.getElementById("bar-error");
  box.hidden = !err;
  if (err) box.textContent = err.message;
}

async function loadQueue() {
  try {
    const q = await api("GET", "/api/bar/queue");
    state.orders = new Map(q.orders.map((o) => [o.id, o]));
    state.typicalPrep = q.typicalPrepSeconds || 120;
    state.offset = new Date(q.now).getTime() - Date.now();
    showError(null);
    render();
  } catch (err) {
    showError(err);
  }
}

function upsert(o) {
  const prev = state.orders.get(o.id);
  if (prev && prev.version > o.version) return; // an older event arriving late
  const p = state.pending.get(o.id);
  if (p && prev && prev.status !== o.status) {
    // Moved on elsewhere (another bartender, the guest cancelled): this bump is moot.
    clearTimeout(p.timer);
    state.pending.delete(o.id);
  }
  if (o.status === "served" || o.status === "cancelled") state.orders.delete(o.id);
  else state.orders.set(o.id, o);
  render();
}

function since(o) {
  // Queued and in-the-making tickets age from the order; ready ones from when they
  // were readied, since that is how long a drink has stood on the counter.
  const from = o.status === "ready" && o.readyAt ? o.readyAt : o.createdAt;
  return Date.now() + state.offset - new Date(from).getTime();
}

function ageClass(o) {
  const s = since(o) / 1000;
  const budget = o.status === "ready" ? 120 : state.typicalPrep;
  if (s < budget) return "age-fresh";
  if (s < 2 * budget) return "age-warm";
  return "age-late";
}

function render() {
  const cols = { queued: [], preparing: [], ready: [] };
  const sorted = [...state.orders.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const o of sorted) cols[o.status]?.push(o);
  state.keyOrder = [...cols.queued, ...cols.preparing, ...cols.ready].map((o) => o.id);
  if (state.selected && !state.orders.has(state.selected)) state.selected = null;
  for (const [status, list] of Object.entries(cols)) {
    const box = document.getElementById(`tickets-${status}`);
    // A ticket is the same while its order's version, its key and its pending bump are:
    // its age is kept current by tick(), so a new order arriving never swaps the ticket a
    // bartender is tapping.
    patchChildren(box, list.length ? list.map(ticket) : [h("p", { class: "empty" }, status === "queued" ? t("bar.noOrders") : t("bar.nothingHere"))],
      (a, b) => a.dataset.version === b.dataset.version && a.dataset.status === b.dataset.status &&
        a.dataset.key === b.dataset.key && a.dataset.pending === b.dataset.pending);
    document.getElementById(`count-${status}`).textContent = String(list.length);
  }
  for (const el of document.querySelectorAll(".ticket")) {
    const on = el.dataset.id === state.selected;
    el.classList.toggle("is-selected", on);
    el.setAttribute("aria-current", on ? "true" : "false");
  }
  sizeColumns(cols);
  renderAllDay([...cols.queued, ...cols.preparing]);
  document.getElementById("typical").textContent = t("bar.typical", { time: clock(state.typicalPrep * 1000) });
}

// sizeColumns shares the screen's width between the three columns (bar.css reads
// --w-queued, --w-preparing and --w-ready): the busiest column gets twice the room of
// another, so two or three tickets stand side by side in it, and an empty column only what
// its heading needs. The widths change in steps, not with every order, so tickets do not
// slide about under the bartender's finger.
function sizeColumns(cols) {
  const counts = Object.values(cols).map((list) => list.length);
  const most = Math.max(...counts);
  const busiest = counts.indexOf(most);
  const queue = document.getElementById("queue");
  Object.keys(cols).forEach((status, i) => {
    const n = counts[i];
    const w = n === 0 ? 0.5 : i === busiest && n > 3 ? 2 : 1;
    queue.style.setProperty(`--w-${status}`, `${w}fr`);
  });
}

// renderAllDay counts the glasses still to make per drink, most first: the bartender
// makes five Mojitos at once instead of one ticket at a time.
function renderAllDay(open) {
  const byDrink = new Map();
  for (const o of open) {
    for (const it of o.items || []) byDrink.set(it.name, (byDrink.get(it.name) || 0) + it.qty);
  }
  const rows = [...byDrink].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  document.getElementById("all-day").replaceChildren(...(rows.length
    ? rows.map(([name, n]) => h("li", { dataset: { drink: name } }, h("b", {}, String(n)), " ", name))
    : [h("li", { class: "muted" }, t("bar.nothingWaiting"))]));
}

function ticket(o) {
  const key = state.keyOrder.indexOf(o.id) + 1;
  const pending = state.pending.get(o.id);
  const [bumpAction, bumpLabel] = actions[o.status]?.[0] || [];
  return h("article", {
    class: `ticket ${ageClass(o)}${pending ? " is-pending" : ""}`,
    dataset: { id: o.id, status: o.status, version: o.version, key: key <= 9 ? key : "", pending: pending?.action || "" },
    "aria-label": t("bar.ticketLabel", { ticket: o.ticket || "", name: o.guestName || t("bar.guest") }),
  },
    h("header", {},
      o.ticket ? h("span", { class: "num" }, `#${o.ticket}`) : null,
      h("span", { class: "guest" }, o.guestName || t("bar.guest")),
      key <= 9 && h("button", { type: "button", class: "key", "aria-label": t("bar.pickKey", { key }), onclick: () => select(o.id) }, String(key)),
      h("span", { class: "age", "aria-label": t("bar.waiting") }, clock(since(o)))),
    pending && h("p", { class: "pending", role: "status" }, t(pendingWords[pending.action])),
    h("ul", { class: "items" }, (o.items || []).map((it) =>
      h("li", {}, h("b", {}, `${it.qty}×`), " ",
        h("button", { type: "button", class: "recipe-open", dataset: { drink: it.drinkId, qty: it.qty }, "aria-label": t("bar.howToMake", { count: it.qty, name: it.name }),
          onclick: () => openRecipe(it.drinkId, it.qty) }, it.name),
        it.forName && h("span", { class: "for" }, ` ${t("order.forName", { name: it.forName })}`),
        it.notes && h("em", { class: "note" }, it.notes),
        it.confirmed?.length > 0 && h("span", { class: "allergy" }, ` ⚠ ${t("bar.allergyConfirmed", { allergens: formatList(it.confirmed) })}`),
        // Words of the person's dietary needs nobody has understood yet:
        // ask before making it.
        it.review && !it.check?.length && h("span", { class: "review-flag" }, ` ⚑ ${t("bar.review")}`),
        // Words barhub could not read, on a drink with one of the fourteen
        // allergens or alcohol: the guest confirmed; ask them before making it.
        it.check?.length > 0 && h("span", { class: "review-flag check-flag" }, ` ⚑ ${t("bar.check", { words: it.check.map((w) => `“${w}”`).join(", ") })}`)))),
    o.allergensConfirmed?.length > 0 && h("p", { class: "allergy" }, `⚠ ${t("bar.notSafe", { allergens: formatList(o.allergensConfirmed) })}`),
    h("div", { class: "ticket-actions" },
      bumpAction && h("button", { type: "button", class: `primary act-${bumpAction}`, disabled: !!pending, onclick: () => bump(o.id) }, bumpLabel),
      (actions[o.status] || []).slice(1).map(([action, label, style]) =>
        h("button", { type: "button", class: `${style} act-${action}`, disabled: !!pending, onclick: (e) => act(state.orders.get(o.id) || o, action, e.currentTarget) }, label))));
}

const pendingWords = { start: "bar.pendingStart", serve: "bar.pendingServe" };

function tick() {
  for (const el of document.querySelectorAll(".ticket")) {
    const o = state.orders.get(el.dataset.id);
    if (!o) continue;
    el.querySelector(".age").textContent = clock(since(o));
    const cls = ageClass(o);
    if (!el.classList.contains(cls)) {
      el.classList.remove("age-fresh", "age-warm", "age-late");
      el.classList.add(cls);
    }
  }
}

// ---- Bumping ----------------------------------------------------------------------------

function select(id) {
  state.selected = state.selected === id ? null : id;
  render();
}

// bump moves a ticket on: queued → in the making → ready → served.
function bump(id) {
  const o = state.orders.get(id);
  if (!o || state.pending.has(id)) return;
  const action = actions[o.status]?.[0]?.[0];
  if (!action) return;
  if (action === "ready") {
    act(o, "ready").then((done) => done && offerUndo({ id, action, ticket: o.ticket }));
    return;
  }
  const timer = setTimeout(() => commit(id), UNDO_MS);
  state.pending.set(id, { action, timer });
  offerUndo({ id, action, ticket: o.ticket });
  render();
}

async function commit(id) {
  const p = state.pending.get(id);
  if (!p) return;
  state.pending.delete(id);
  const o = state.orders.get(id);
  if (state.lastBump?.id === id && state.lastBump.action === p.action) hideUndo();
  render();
  if (o) await act(o, p.action);
}

function offerUndo(b) {
  state.lastBump = b;
  const what = b.action === "ready" ? "bar.bumpedReady" : b.action === "serve" ? "bar.bumpedServed" : "bar.bumpedStarted";
  document.getElementById("bump-undo-text").textContent = t(what, { ticket: b.ticket ? `#${b.ticket}` : t("bar.ticket") });
  const bar = document.getElementById("bump-undo");
  bar.hidden = false;
  clearTimeout(bar._timer);
  bar._timer = setTimeout(hideUndo, UNDO_MS + 2000);
}

function hideUndo() {
  document.getElementById("bump-undo").hidden = true;
  state.lastBump = null;
}

// undoLastBump takes back the last bump: one not sent yet is simply dropped; a ticket
// already marked ready goes back to in the making (a recall, which the guest's phone
// follows).
async function undoLastBump() {
  const b = state.lastBump;
  if (!b) return false;
  hideUndo();
  const p = state.pending.get(b.id);
  if (p) {
    clearTimeout(p.timer);
    state.pending.delete(b.id);
    render();
    toast(t("bar.undone", { ticket: b.ticket ? `#${b.ticket}` : t("bar.ticket") }));
    return true;
  }
  const o = state.orders.get(b.id);
  if (b.action === "ready" && o?.status === "ready") return act(o, "recall");
  return false;
}

// recall is R: undo the last bump if there is one, else send the picked ready ticket
// back to in the making.
async function recall() {
  if (await undoLastBump()) return;
  const o = state.orders.get(state.selected);
  if (o?.status === "ready") act(o, "recall");
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (document.querySelector("dialog[open]")) return;
  const target = e.target;
  if (target instanceof HTMLElement && (target.closest("input, textarea, select, [contenteditable]") || (e.key === "Enter" && target.closest("button, a")))) return;
  if (!document.getElementById("stock-panel").hidden) {
    if (e.key === "Escape") toggleStock(false);
    return;
  }
  if (/^[1-9]$/.test(e.key)) {
    const id = state.keyOrder[Number(e.key) - 1];
    if (id) {
      state.selected = id;
      render();
      document.querySelector(`.ticket[data-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    e.preventDefault();
  } else if (e.key === "Enter") {
    if (state.selected) bump(state.selected);
    e.preventDefault();
  } else if (e.key === "r" || e.key === "R") {
    recall();
    e.preventDefault();
  } else if (e.key === "Escape") {
    state.selected = null;
    render();
  }
}

async function act(o, action, button) {
  let body = { version: o.version };
  if (action === "cancel") {
    const reason = await askReason(o);
    if (reason === null) return false;
    body.reason = reason;
  }
  if (button) button.disabled = true;
  try {
    upsert(await api("POST", `/api/bar/orders/${o.id}/${action}`, body));
    return true;
  } catch (err) {
    // Someone else was quicker, or the screen was behind: show the truth.
    toast(err instanceof ApiError && err.status === 409 ? t("bar.alreadyChanged", { message: err.message }) : err.message, "bad");
    loadQueue();
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

function askReason(o) {
  const dlg = document.getElementById("cancel-dialog");
  const input = document.getElementById("cancel-reason");
  const errBox = document.getElementById("cancel-error");
  document.getElementById("cancel-items").textContent = `${o.ticket ? `#${o.ticket}: ` : ""}${itemsText(o)} ${t("order.forName", { name: o.guestName })}`;
  input.value = "";
  errBox.hidden = true;
  return new Promise((resolve) => {
    const form = document.getElementById("cancel-form");
    form.onsubmit = (e) => {
      if (e.submitter?.value !== "ok") return;
      if (!input.value.trim()) {
        e.preventDefault();
        errBox.textContent = t("bar.sayWhy");
        errBox.hidden = false;
      }
    };
    dlg.onclose = () => resolve(dlg.returnValue === "ok" ? input.value.trim() : null);
    dlg.returnValue = "";
    dlg.showModal();
    input.focus();
  });
}

// ---- Recipes -----------------------------------------------------------------------------
// One tap on a drink's name opens how to make it, every amount already multiplied by the
// ticket's glasses, so a helper who has never made a Paper Plane can.

const iceWords = { none: t("bar.iceNone"), cubes: t("bar.iceCubes"), crushed: t("bar.iceCrushed"), large: t("bar.iceLarge") };

async function openRecipe(drinkId, qty) {
  const dlg = document.getElementById("recipe-dialog");
  const err = document.getElementById("recipe-error");
  err.hidden = true;
  try {
    const r = await api("GET", `/api/bar/drinks/${encodeURIComponent(drinkId)}/recipe?qty=${qty}`);
    document.getElementById("recipe-title").textContent = `${r.qty} × ${r.name}`;
    const serve = [r.glass, iceWords[r.ice], r.garnish && t("bar.garnish", { garnish: r.garnish })].filter(Boolean);
    document.getElementById("recipe-serve").textContent = serve.length ? serve.join(" · ") : t("bar.noServe");
    document.getElementById("recipe-ingredients").replaceChildren(...r.ingredients.map((l) => h("li", {}, l.text)));
    const steps = r.method || [];
    document.getElementById("recipe-method").replaceChildren(...(steps.length ? steps.map((s) => h("li", {}, s)) : [h("li", {}, t("bar.noMethod"))]));
    const batch = document.getElementById("recipe-batch");
    batch.hidden = r.qty < 2;
    batch.textContent = t("bar.batch", { count: r.qty });
  } catch (e) {
    document.getElementById("recipe-title").textContent = t("bar.recipe");
    err.textContent = e.message;
    err.hidden = false;
  }
  if (!dlg.open) {
    // A dialog hands the focus back on closing to what had it on opening: the drink's
    // name, where the next Enter of a keyboard or bump bar would open the recipe again
    // instead of bumping the ticket. Nothing keeps it, so the keys go to the queue.
    document.activeElement?.blur?.();
    dlg.showModal();
  }
}

// ---- Stock ------------------------------------------------------------------------------

function toggleStock(open) {
  const panel = document.getElementById("stock-panel");
  const show = open ?? panel.hidden;
  panel.hidden = !show;
  document.getElementById("stock-toggle").setAttribute("aria-expanded", String(show));
  if (show) {
    loadStock();
    document.getElementById("stock-search").focus();
  } else {
    document.getElementById("stock-toggle").focus();
  }
}

async function loadStock() {
  try {
    state.stock = await api("GET", "/api/bar/stock");
    renderStock();
  } catch (err) {
    showError(err);
  }
}

function stockSwitch(label, inStock, detail, onToggle) {
  return h("li", { class: "stock-item" + (inStock ? "" : " is-out") },
    h("span", { class: "stock-name" }, label, detail && h("small", { class: "muted" }, ` ${detail}`)),
    h("button", {
      type: "button", class: inStock ? "stock-switch" : "stock-switch out", "aria-pressed": String(!inStock),
      "aria-label": t(inStock ? "bar.isInStock" : "bar.isOutOfStock", { name: label }), onclick: (e) => onToggle(e.currentTarget),
    }, inStock ? t("bar.inStock") : t("bar.out")));
}

function renderStock() {
  if (!state.stock) return;
  const q = document.getElementById("stock-search").value.trim().toLowerCase();
  const ings = state.stock.ingredients.filter((i) => !q || i.name.toLowerCase().includes(q));
  // Out-of-stock first: those are the ones the bar is looking for.
  ings.sort((a, b) => Number(a.inStock) - Number(b.inStock) || a.name.localeCompare(b.name));
  document.getElementById("stock-ingredients").replaceChildren(...ings.map((i) =>
    stockSwitch(i.name, i.inStock, t("bar.drinkCount", { count: i.drinks }), (btn) => setIngredient(i, btn))));
  const drinks = state.stock.drinks.filter((d) => !q || d.name.toLowerCase().includes(q));
  document.getElementById("stock-drinks").replaceChildren(...drinks.map((d) =>
    stockSwitch(d.name, !d.outOfStock, d.missingIngredients.length ? t("bar.needs", { ingredients: formatList(d.missingIngredients) }) : "", (btn) => setDrink(d, btn))));
}

async function setIngredient(i, btn) {
  btn.disabled = true;
  try {
    const out = await api("PUT", `/api/bar/stock/${encodeURIComponent(i.key)}`, { inStock: !i.inStock });
    toast(i.inStock ? t("bar.ingredientOut", { name: i.name, count: out.unavailable.length }) : t("bar.ingredientBack", { name: i.name }));
    await loadStock();
  } catch (err) {
    toast(err.message, "bad");
    btn.disabled = false;
  }
}

async function setDrink(d, btn) {
  btn.disabled = true;
  try {
    await api("PUT", `/api/bar/drinks/${encodeURIComponent(d.id)}/stock`, { inStock: d.outOfStock });
    await loadStock();
  } catch (err) {
    toast(err.message, "bad");
    btn.disabled = false;
  }
}
