// The host's shopping and stock plan, in #shopping: hours, drinks per person per hour and
// a margin in; out, the drinks to be ready for and what to buy, grouped the way a shop is
// laid out, with what the bar has marked out of stock flagged. The list can be downloaded
// as CSV and printed on its own. It follows answers, menu changes and orders live.
import { api, ApiError, auth } from "./api.js";
import { h, loadStyles } from "./bar-common.js";
import { startLive } from "./page.js";

const $ = (id) => document.getElementById(id);

const KINDS = {
  spirits: "Spirits & liqueurs",
  wine: "Wine, bubbles & vermouth",
  mixers: "Mixers",
  juice: "Juice",
  fruit: "Fruit, herbs & garnish",
  syrups: "Syrups & cordials",
  fridge: "Fridge",
  pantry: "Pantry",
  other: "Other",
};

const PLURALS = { leaf: "leaves", pinch: "pinches", whole: "whole" };

// query turns the form into the plan's parameters; the margin is typed in percent.
function query() {
  const q = new URLSearchParams();
  const hours = $("shopping-hours").value.trim();
  const perHour = $("shopping-perHour").value.trim();
  const margin = $("shopping-margin").value.trim();
  if (hours) q.set("hours", hours);
  if (perHour) q.set("perHour", perHour);
  if (margin) q.set("margin", String(Number(margin) / 100));
  return q.toString();
}

function number(x) {
  return x.toLocaleString(undefined, { maximumFractionDigits: 1 });
}

// amountText says "1.44 L", "390 ml" or "21 wedges".
function amountText({ amount, unit }) {
  if (unit === "ml") return amount >= 1000 ? `${number(amount / 1000)} L` : `${number(amount)} ml`;
  const word = amount === 1 ? unit : PLURALS[unit] || `${unit}s`;
  return `${number(amount)} ${word}`;
}

function summary(p) {
  const box = $("shopping-summary");
  if (p.headcount === 0) {
    box.textContent = "Nobody has said they are coming yet, so there is nothing to plan.";
    return;
  }
  const people = p.headcount === 1 ? "1 person" : `${p.headcount} people`;
  const answers = `${p.invitations} ${p.invitations === 1 ? "answer" : "answers"}, ${p.withTastes} with tastes`;
  const parts = [
    h("strong", { id: "shopping-headcount" }, people), ` coming (${answers}) · ${number(p.drinksPerHead)} drinks each · `,
    h("strong", { id: "shopping-expected" }, number(p.expectedDrinks)), " drinks expected, ",
    h("strong", { id: "shopping-servings" }, String(p.servings)), ` to buy for with the ${number(p.parameters.margin * 100)}% margin.`,
  ];
  if (p.orderedSoFar > 0) parts.push(` Follows ${p.orderedSoFar} drinks ordered so far (${Math.round(p.observedWeight * 100)}% of the plan).`);
  box.replaceChildren(...parts);
  if (p.unservedHeads > 0) {
    box.append(" ", h("span", { class: "badge warn" }, `${p.unservedHeads} with nothing on the menu they can have`));
  }
}

function drinksTable(p) {
  const rows = p.drinks.map((d) =>
    h("tr", { dataset: { drink: d.id } },
      h("td", {}, d.name, d.alcoholFree ? h("span", { class: "badge ok" }, "alcohol-free") : null,
        d.available ? null : h("span", { class: "badge bad" }, "unavailable")),
      h("td", { class: "num" }, number(d.expected)),
      h("td", { class: "num servings" }, String(d.servings)),
      h("td", { class: "num" }, String(d.ordered))));
  const skipped = p.skipped.length
    ? h("p", { class: "muted" }, `Left out: ${p.skipped.map((s) => `${s.name} (${s.reason})`).join(", ")}.`)
    : null;
  return h("div", { class: "shopping-drinks" },
    h("h3", {}, "Drinks to be ready for"),
    h("div", { class: "table-wrap" },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Drink"), h("th", { scope: "col", class: "num" }, "Expected"),
          h("th", { scope: "col", class: "num" }, "Ready for"), h("th", { scope: "col", class: "num" }, "Ordered"))),
        h("tbody", { id: "shopping-drinks" }, rows))),
    skipped);
}

function needRow(n) {
  return h("tr", { class: n.outOfStock ? "out" : null, dataset: { ingredient: n.key } },
    h("th", { scope: "row" }, n.name, n.outOfStock ? h("span", { class: "badge bad" }, "out of stock") : null),
    h("td", { class: "buy" }, n.buy, n.guess ? h("span", { class: "guess", title: n.note }, " ≈") : null,
      n.note ? h("span", { class: "hint" }, n.note) : null),
    h("td", { class: "num" }, n.amounts.map(amountText).join(" + ")),
    h("td", { class: "muted" }, n.drinks.join(", ")));
}

function shoppingList(p) {
  const groups = new Map();
  for (const n of p.ingredients) {
    if (!groups.has(n.kind)) groups.set(n.kind, []);
    groups.get(n.kind).push(n);
  }
  const out = h("div", { class: "shopping-list", id: "shopping-list" }, h("h3", {}, "To buy"));
  const missing = p.ingredients.filter((n) => n.outOfStock).length;
  if (missing > 0) out.append(h("p", { class: "notice" }, `${missing} ${missing === 1 ? "ingredient is" : "ingredients are"} marked out of stock behind the bar.`));
  for (const [kind, needs] of groups) {
    out.append(
      h("h4", {}, KINDS[kind] || kind),
      h("div", { class: "table-wrap" },
        h("table", { class: "shopping-table", dataset: { kind } },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Ingredient"), h("th", { scope: "col" }, "Buy"),
            h("th", { scope: "col", class: "num" }, "Amount"), h("th", { scope: "col" }, "For"))),
          h("tbody", {}, needs.map(needRow)))));
  }
  return out;
}

let seq = 0;

async function reload() {
  const mine = ++seq;
  // The margin is typed in percent; the server's own limit speaks in fractions.
  const margin = Number($("shopping-margin").value || 0);
  if (!(margin >= 0 && margin <= 100)) {
    $("shopping-error").textContent = "The margin is a percentage from 0 to 100.";
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
  const box = $("shopping-plan");
  if (p.headcount === 0 || p.drinks.length === 0) {
    box.replaceChildren(p.headcount > 0 ? h("p", { class: "muted" }, "The menu has no drinks yet.") : "");
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
      throw new ApiError(body?.error?.message || `Something went wrong (HTTP ${res.status}).`, { status: res.status });
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
