// The bartender's tablet: the live queue in three columns (queued, in the making,
// ready), big buttons to start, ready, serve, recall and cancel, tickets coloured by
// how long they have waited, and the stock switches. Everything updates live; nothing
// needs a reload.
import { api, ApiError } from "./api.js";
import { startLive, startPage } from "./page.js";
import { beep, clock, h, itemsText, toast, unlockAudio } from "./bar-common.js";
import { patchChildren } from "./patch.js";

const me = startPage("bartender", "admin");

const state = {
  orders: new Map(), // id → order
  typicalPrep: 120,
  offset: 0, // server clock minus ours, so ages are right on a tablet with a wrong clock
  stock: null,
  sound: true,
};

// Each column's buttons: [action, label, style].
const actions = {
  queued: [["start", "Start", "primary"], ["cancel", "Cancel…", "quiet"]],
  preparing: [["ready", "Ready", "primary"], ["cancel", "Cancel…", "quiet"]],
  ready: [["serve", "Served", "primary"], ["recall", "Recall", "quiet"]],
};

if (me) start();

function start() {
  document.addEventListener("click", unlockAudio, { capture: true });
  document.getElementById("sound-toggle").addEventListener("click", (e) => {
    state.sound = !state.sound;
    e.currentTarget.setAttribute("aria-pressed", String(state.sound));
    e.currentTarget.textContent = state.sound ? "Sound: on" : "Sound: off";
  });
  document.getElementById("stock-toggle").addEventListener("click", () => toggleStock());
  document.getElementById("stock-close").addEventListener("click", () => toggleStock(false));
  document.getElementById("stock-search").addEventListener("input", renderStock);
  for (const b of document.querySelectorAll("#cancel-reasons button")) {
    b.addEventListener("click", () => (document.getElementById("cancel-reason").value = b.dataset.reason));
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
  for (const [status, list] of Object.entries(cols)) {
    const box = document.getElementById(`tickets-${status}`);
    // A ticket is the same while its order's version is: its age is kept current by
    // tick(), so a new order arriving never swaps the ticket a bartender is tapping.
    patchChildren(box, list.length ? list.map(ticket) : [h("p", { class: "empty" }, status === "queued" ? "No orders waiting." : "Nothing here.")],
      (a, b) => a.dataset.version === b.dataset.version && a.dataset.status === b.dataset.status);
    document.getElementById(`count-${status}`).textContent = String(list.length);
  }
  document.getElementById("typical").textContent = `Typical drink: ${clock(state.typicalPrep * 1000)}`;
}

function ticket(o) {
  return h("article", { class: `ticket ${ageClass(o)}`, dataset: { id: o.id, status: o.status, version: o.version } },
    h("header", {},
      h("span", { class: "guest" }, o.guestName || "Guest"),
      h("span", { class: "age", "aria-label": "waiting" }, clock(since(o)))),
    h("ul", { class: "items" }, (o.items || []).map((it) =>
      h("li", {}, h("b", {}, `${it.qty}×`), " ",
        h("button", { type: "button", class: "recipe-open", dataset: { drink: it.drinkId, qty: it.qty }, "aria-label": `How to make ${it.qty} ${it.name}`,
          onclick: () => openRecipe(it.drinkId, it.qty) }, it.name),
        it.forName && h("span", { class: "for" }, ` for ${it.forName}`),
        it.notes && h("em", { class: "note" }, it.notes),
        it.confirmed?.length > 0 && h("span", { class: "allergy" }, ` ⚠ ${it.confirmed.join(", ")}: confirmed`),
        // Words of the person's dietary needs nobody has understood yet:
        // ask before making it.
        it.review && h("span", { class: "review-flag" }, " ⚑ needs the host's eyes: ask about allergies")))),
    o.allergensConfirmed?.length > 0 && h("p", { class: "allergy" }, `⚠ Not safe for the person it is for (${o.allergensConfirmed.join(", ")}): the guest confirmed`),
    h("div", { class: "ticket-actions" }, (actions[o.status] || []).map(([action, label, style]) =>
      h("button", { type: "button", class: `${style} act-${action}`, onclick: (e) => act(o, action, e.currentTarget) }, label))));
}

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

async function act(o, action, button) {
  let body = { version: o.version };
  if (action === "cancel") {
    const reason = await askReason(o);
    if (reason === null) return;
    body.reason = reason;
  }
  button.disabled = true;
  try {
    upsert(await api("POST", `/api/bar/orders/${o.id}/${action}`, body));
  } catch (err) {
    // Someone else was quicker, or the screen was behind: show the truth.
    toast(err instanceof ApiError && err.status === 409 ? `Already changed: ${err.message}` : err.message, "bad");
    loadQueue();
  } finally {
    button.disabled = false;
  }
}

function askReason(o) {
  const dlg = document.getElementById("cancel-dialog");
  const input = document.getElementById("cancel-reason");
  const errBox = document.getElementById("cancel-error");
  document.getElementById("cancel-items").textContent = `${itemsText(o)} for ${o.guestName}`;
  input.value = "";
  errBox.hidden = true;
  return new Promise((resolve) => {
    const form = document.getElementById("cancel-form");
    form.onsubmit = (e) => {
      if (e.submitter?.value !== "ok") return;
      if (!input.value.trim()) {
        e.preventDefault();
        errBox.textContent = "Say why: the guest sees it.";
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

const iceWords = { none: "no ice (served up)", cubes: "over ice cubes", crushed: "over crushed ice", large: "over one large cube" };

async function openRecipe(drinkId, qty) {
  const dlg = document.getElementById("recipe-dialog");
  const err = document.getElementById("recipe-error");
  err.hidden = true;
  try {
    const r = await api("GET", `/api/bar/drinks/${encodeURIComponent(drinkId)}/recipe?qty=${qty}`);
    document.getElementById("recipe-title").textContent = `${r.qty} × ${r.name}`;
    const serve = [r.glass, iceWords[r.ice], r.garnish && `garnish: ${r.garnish}`].filter(Boolean);
    document.getElementById("recipe-serve").textContent = serve.length ? serve.join(" · ") : "No glass or ice given for this drink.";
    document.getElementById("recipe-ingredients").replaceChildren(...r.ingredients.map((l) => h("li", {}, l.text)));
    const steps = r.method || [];
    document.getElementById("recipe-method").replaceChildren(...(steps.length ? steps.map((s) => h("li", {}, s)) : [h("li", {}, "No method yet: ask the host.")]));
    const batch = document.getElementById("recipe-batch");
    batch.hidden = r.qty < 2;
    batch.textContent = `Amounts for all ${r.qty} glasses: shake or stir in batches your shaker holds, split at the end.`;
  } catch (e) {
    document.getElementById("recipe-title").textContent = "Recipe";
    err.textContent = e.message;
    err.hidden = false;
  }
  if (!dlg.open) dlg.showModal();
}

// ---- Stock ------------------------------------------------------------------------------

function toggleStock(open) {
  const panel = document.getElementById("stock-panel");
  const show = open ?? panel.hidden;
  panel.hidden = !show;
  document.getElementById("stock-toggle").setAttribute("aria-expanded", String(show));
  document.getElementById("app").classList.toggle("with-stock", show);
  if (show) loadStock();
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
      "aria-label": `${label}: ${inStock ? "in stock" : "out of stock"}`, onclick: (e) => onToggle(e.currentTarget),
    }, inStock ? "In stock" : "Out"));
}

function renderStock() {
  if (!state.stock) return;
  const q = document.getElementById("stock-search").value.trim().toLowerCase();
  const ings = state.stock.ingredients.filter((i) => !q || i.name.toLowerCase().includes(q));
  // Out-of-stock first: those are the ones the bar is looking for.
  ings.sort((a, b) => Number(a.inStock) - Number(b.inStock) || a.name.localeCompare(b.name));
  document.getElementById("stock-ingredients").replaceChildren(...ings.map((i) =>
    stockSwitch(i.name, i.inStock, `${i.drinks} drink${i.drinks === 1 ? "" : "s"}`, (btn) => setIngredient(i, btn))));
  const drinks = state.stock.drinks.filter((d) => !q || d.name.toLowerCase().includes(q));
  document.getElementById("stock-drinks").replaceChildren(...drinks.map((d) =>
    stockSwitch(d.name, !d.outOfStock, d.missingIngredients.length ? `needs ${d.missingIngredients.join(", ")}` : "", (btn) => setDrink(d, btn))));
}

async function setIngredient(i, btn) {
  btn.disabled = true;
  try {
    const out = await api("PUT", `/api/bar/stock/${encodeURIComponent(i.key)}`, { inStock: !i.inStock });
    toast(i.inStock ? `${i.name} is out: ${out.unavailable.length} drinks off the menu` : `${i.name} is back`);
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
