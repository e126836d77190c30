// The host's shopping and stock plan, in #shopping: hours, drinks per person per hour and
// a margin in; out, the drinks to be ready for and what to buy, grouped the way a shop is
// laid out, with what the bar has marked out of stock flagged. The list can be downloaded
// as CSV and printed on its own. It follows answers, menu changes and orders live.
// When the menu is big for the people coming, the plan proposes a smaller one that shares
// bottles (docs/SHOPPING.md): the panel shows it, can show that menu's list, and can
// pause the other drinks.
import { api, ApiError, auth } from "./api.js";
import { h, loadStyles } from "./bar-common.js";
import { formatDate, formatList, formatNumber, has, t } from "./i18n.js";
import { startLive } from "./page.js";

const $ = (id) => document.getElementById(id);

// The kinds' names: shopping.kind.spirits, .wine, .mixers, .juice, .fruit, .syrups,
// .fridge, .pantry, .other. Counted units: shopping.unit.wedge, .slice, .leaf, .sprig,
// .piece, .pinch, .whole (plural forms by count).
const kindName = (kind) => (has(`shopping.kind.${kind}`) ? t(`shopping.kind.${kind}`) : kind);
const UNITS = new Set(["wedge", "slice", "leaf", "sprig", "piece", "pinch", "whole"]);

// trimmed: the host asked to see the list of the proposed smaller menu.
let trimmed = false;
// paused: how many drinks the host paused from the proposal, shown with the summary
// until the page is reloaded (a live redraw keeps it).
let paused = 0;

// query turns the form into the plan's parameters; the margin is typed in percent.
function query() {
  const q = new URLSearchParams();
  const hours = $("shopping-hours").value.trim();
  const perHour = $("shopping-perHour").value.trim();
  const margin = $("shopping-margin").value.trim();
  if (hours) q.set("hours", hours);
  if (perHour) q.set("perHour", perHour);
  if (margin) q.set("margin", String(Number(margin) / 100));
  if (trimmed) q.set("trim", "true");
  return q.toString();
}

function number(x) {
  return formatNumber(x, { maximumFractionDigits: 1 });
}

// amountText says "1.44 L", "390 ml" or "21 wedges" (a garnish is counted whole).
function amountText({ amount, unit }) {
  if (unit === "ml") return amount >= 1000 ? `${number(amount / 1000)} L` : `${number(amount)} ml`;
  const count = Math.ceil(amount);
  return UNITS.has(unit) ? t(`shopping.unit.${unit}`, { count }) : `${number(count)} ${unit}`;
}

function summary(p) {
  const box = $("shopping-summary");
  if (p.headcount === 0) {
    box.textContent = t("shopping.nobody");
    return;
  }
  const parts = [
    h("strong", { id: "shopping-headcount" }, t("shopping.people", { count: p.headcount })), " ",
    t("shopping.coming", { answers: t("shopping.answers", { count: p.invitations }), tastes: p.withTastes }), " · ",
    t("shopping.perHead", { count: p.drinksPerHead }), " · ",
    h("strong", { id: "shopping-expected" }, number(p.expectedDrinks)), " ", t("shopping.expected"), " ",
    h("strong", { id: "shopping-servings" }, String(p.servings)), " ", t("shopping.toBuyFor", { margin: number(p.parameters.margin * 100) }),
  ];
  if (p.orderedSoFar > 0) parts.push(" ", t("shopping.follows", { count: p.orderedSoFar, share: Math.round(p.observedWeight * 100) }));
  box.replaceChildren(...parts);
  if (p.unservedHeads > 0) {
    box.append(" ", h("span", { class: "badge warn" }, t("shopping.unserved", { count: p.unservedHeads })));
  }
  if (paused > 0) {
    box.append(" ", h("span", { class: "badge ok", id: "shopping-paused" }, t("shopping.trim.paused", { count: paused })));
  }
}

// trimNotice shows the plan's proposal for a menu big for the people coming: why, what
// it saves, the drinks it keeps and pauses; a button shows that menu's list, another
// pauses the other drinks (the bar's switch, PUT /api/bar/drinks/{id}/stock).
function trimNotice(p) {
  const box = $("shopping-trim");
  const tr = p.trim;
  if (!tr) {
    trimmed = false;
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const toggle = h("button", { type: "button", id: "shopping-trim-toggle" },
    p.trimmed ? t("shopping.trim.showWhole") : t("shopping.trim.show", { count: tr.keep.length }));
  toggle.addEventListener("click", () => {
    trimmed = !p.trimmed;
    reload();
  });
  const apply = h("button", { type: "button", class: "primary", id: "shopping-trim-apply" }, t("shopping.trim.apply", { count: tr.pause.length }));
  apply.addEventListener("click", () => pauseDrinks(tr, apply));
  box.replaceChildren(
    h("h3", {}, t("shopping.trim.title", { count: p.headcount })),
    h("p", {}, t("shopping.trim.why", { drinks: tr.menuDrinks, servings: p.servings, count: tr.bottles })),
    h("p", { id: "shopping-trim-saves" }, h("strong", {}, t("shopping.trim.saves", { drinks: tr.keep.length, bottles: tr.trimmedBottles, count: tr.bottlesSaved }))),
    h("p", { id: "shopping-trim-keep" }, t("shopping.trim.keep"), " ", formatList(tr.keep.map((d) => d.name))),
    h("details", {}, h("summary", {}, t("shopping.trim.pauseList", { count: tr.pause.length })),
      h("p", { id: "shopping-trim-pause" }, formatList(tr.pause.map((d) => d.name)))),
    h("p", { class: "muted" }, t("shopping.trim.how")),
    h("div", { class: "row no-print" }, toggle, apply),
    h("p", { id: "shopping-trim-status", role: "status" }),
  );
  box.hidden = false;
}

// pauseDrinks switches the proposal's other drinks off, one request each; a refused
// request (the rate limit) waits the time the server asks and tries again once.
async function pauseDrinks(tr, button) {
  if (!window.confirm(t("shopping.trim.confirm", { count: tr.pause.length }))) return;
  const status = $("shopping-trim-status");
  button.disabled = true;
  let done = 0;
  try {
    for (const d of tr.pause) {
      status.textContent = t("shopping.trim.pausing", { done, count: tr.pause.length });
      const put = () => api("PUT", `/api/bar/drinks/${encodeURIComponent(d.id)}/stock`, { inStock: false });
      try {
        await put();
      } catch (err) {
        if (err.status !== 429) throw err;
        await new Promise((r) => setTimeout(r, 1000));
        await put();
      }
      done++;
    }
    trimmed = false;
    paused = done;
    status.textContent = t("shopping.trim.paused", { count: done });
    await reload();
  } catch (err) {
    status.textContent = t("shopping.trim.failed", { done, count: tr.pause.length, error: err.message });
    button.disabled = false;
  }
}

function drinksTable(p) {
  const rows = p.drinks.map((d) =>
    h("tr", { dataset: { drink: d.id } },
      h("td", {}, d.name, d.alcoholFree ? h("span", { class: "badge ok" }, t("shopping.alcoholFree")) : null,
        d.available ? null : h("span", { class: "badge bad" }, t("shopping.unavailable"))),
      h("td", { class: "num" }, number(d.expected)),
      h("td", { class: "num servings" }, String(d.servings)),
      h("td", { class: "num" }, String(d.ordered))));
  const skipped = p.skipped.length
    ? h("p", { class: "muted" }, t("shopping.switchedOff", { drinks: formatList(p.skipped.map((s) => s.name)) }))
    : null;
  return h("div", { class: "shopping-drinks" },
    h("h3", {}, t("shopping.drinksTitle")),
    h("div", { class: "table-wrap" },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("shopping.col.drink")), h("th", { scope: "col", class: "num" }, t("shopping.col.expected")),
          h("th", { scope: "col", class: "num" }, t("shopping.col.readyFor")), h("th", { scope: "col", class: "num" }, t("shopping.col.ordered")))),
        h("tbody", { id: "shopping-drinks" }, rows))),
    skipped);
}

// buyText says what to buy in the page's language: "3 limes", "2 flaskor (70 cl)"
// (shopping.pack.<packId>), else the amounts themselves.
function buyText(n) {
  if (n.packs > 0 && n.packId && has(`shopping.pack.${n.packId}`)) return t(`shopping.pack.${n.packId}`, { count: n.packs });
  if (n.packs === 0 && n.amounts.length) return n.amounts.map(amountText).join(" + ");
  return n.buy;
}

// noteText is the pack's note (shopping.note.<noteId>), else the server's English.
function noteText(n) {
  return n.noteId && has(`shopping.note.${n.noteId}`) ? t(`shopping.note.${n.noteId}`) : n.note;
}

// learntDate says the night the plan learnt from, in the page's language.
const learntDate = (date) => formatDate(new Date(`${date}T12:00:00`));

function needRow(n, learntFrom) {
  const note = noteText(n);
  return h("tr", { class: n.outOfStock ? "out" : null, dataset: { ingredient: n.key } },
    h("th", { scope: "row" }, n.name, n.outOfStock ? h("span", { class: "badge bad" }, t("shopping.outOfStock")) : null),
    h("td", { class: "buy" }, buyText(n), n.guess ? h("span", { class: "guess", title: note }, " ≈") : null,
      note ? h("span", { class: "hint" }, note) : null,
      n.factor && learntFrom ? h("span", { class: "hint learnt" }, t("shopping.learntFactor", { date: learntDate(learntFrom), factor: formatNumber(n.factor) })) : null),
    h("td", { class: "num" }, n.amounts.map(amountText).join(" + ")),
    h("td", { class: "muted" }, formatList(n.drinks)));
}

function shoppingList(p) {
  const groups = new Map();
  for (const n of p.ingredients) {
    if (!groups.has(n.kind)) groups.set(n.kind, []);
    groups.get(n.kind).push(n);
  }
  const out = h("div", { class: "shopping-list", id: "shopping-list" },
    h("h3", {}, p.trimmed ? t("shopping.toBuyTrimmed", { count: p.drinks.length }) : t("shopping.toBuy")));
  const missing = p.ingredients.filter((n) => n.outOfStock).length;
  if (missing > 0) out.append(h("p", { class: "notice" }, t("shopping.missing", { count: missing })));
  if (p.learntFrom) out.append(learntNotice(p.learntFrom));
  for (const [kind, needs] of groups) {
    out.append(
      h("h4", {}, kindName(kind)),
      h("div", { class: "table-wrap" },
        h("table", { class: "shopping-table", dataset: { kind } },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("shopping.col.ingredient")), h("th", { scope: "col" }, t("shopping.col.buy")),
            h("th", { scope: "col", class: "num" }, t("shopping.col.amount")), h("th", { scope: "col" }, t("shopping.col.for")))),
          h("tbody", {}, needs.map((n) => needRow(n, p.learntFrom))))));
  }
  return out;
}

// learntNotice says the list follows a night's usage (docs/SHOPPING.md), with the way
// to forget it.
function learntNotice(date) {
  const forget = h("button", { type: "button", id: "shopping-forget", class: "quiet" }, t("shopping.forgetLearnt"));
  forget.addEventListener("click", async () => {
    forget.disabled = true;
    try {
      await api("DELETE", "/api/admin/reports/shopping/learnt");
      await reload();
    } catch (err) {
      $("shopping-error").textContent = err.message;
      $("shopping-error").hidden = false;
      forget.disabled = false;
    }
  });
  return h("p", { class: "notice", id: "shopping-learnt" }, t("shopping.learntFrom", { date: learntDate(date) }), " ", forget);
}

let seq = 0;

async function reload() {
  const mine = ++seq;
  // The margin is typed in percent; the server's own limit speaks in fractions.
  const margin = Number($("shopping-margin").value || 0);
  if (!(margin >= 0 && margin <= 100)) {
    $("shopping-error").textContent = t("shopping.marginRange");
    $("shopping-error").hidden = false;
    return;
  }
  let p;
  try {
    p = await api("GET", `/api/admin/reports/shopping?${query()}`);
  } catch (err) {
    if (mine !== seq) return;
    $("shopping-error").textContent = err.message;
    $("shopping-error").hidden = false;
    return;
  }
  // An older answer arriving after a newer one (typing fast) is dropped.
  if (mine !== seq) return;
  $("shopping-error").hidden = true;
  summary(p);
  trimNotice(p);
  const box = $("shopping-plan");
  if (p.headcount === 0 || p.drinks.length === 0) {
    box.replaceChildren(p.headcount > 0 ? h("p", { class: "muted" }, t("shopping.noDrinks")) : "");
    return;
  }
  box.replaceChildren(h("div", { class: "shopping-grid" }, shoppingList(p), drinksTable(p)));
}

async function downloadCSV() {
  try {
    const res = await fetch(`/api/admin/reports/shopping.csv?${query()}`, {
      headers: { Authorization: `Bearer ${localStorage.getItem("barhub.token")}` },
    });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      throw new ApiError(body?.error?.message || t("shopping.httpError", { status: res.status }), { status: res.status });
    }
    const blob = await res.blob();
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "")?.[1] || "shopping.csv";
    const a = h("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (err) {
    $("shopping-error").textContent = err.message;
    $("shopping-error").hidden = false;
  }
}

// printPlan prints the shopping panel alone (see shopping.css).
function printPlan() {
  document.body.classList.add("print-shopping");
  window.addEventListener("afterprint", () => document.body.classList.remove("print-shopping"), { once: true });
  window.print();
}

function debounce(fn, ms) {
  let timer = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

function start() {
  loadStyles("/static/css/shopping.css");
  const soon = debounce(reload, 300);
  $("shopping-form").addEventListener("input", soon);
  $("shopping-form").addEventListener("submit", (e) => {
    e.preventDefault();
    reload();
  });
  $("shopping-csv").addEventListener("click", downloadCSV);
  $("shopping-print").addEventListener("click", printPlan);
  const live = startLive("admin", "menu");
  live.on("rsvp.changed", debounce(reload, 1000));
  live.on("menu.changed", debounce(reload, 1000));
  live.on("orders.summary", debounce(reload, 5000));
  live.onResync("admin", soon);
  reload();
}

if ($("shopping") && auth()?.role === "admin") start();
