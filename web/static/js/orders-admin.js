// The host's Orders screen (/admin/orders, docs/REPORTS.md): every order of the night
// with its times (placed, started, ready, served) and who made it, filtered by guest,
// drink, bartender and status, live on the bar's and the host's topics as the desk is;
// below it the night's report (per hour, drink and guest, preparation times, what was
// used against the shopping plan), with a shared view that names nobody, a print view
// and CSV.
import { api, ApiError } from "./api.js";
import { t, translate, formatDate, formatTime, formatNumber } from "./i18n.js";
import { h } from "./bar-common.js";
import { startLive, startPage } from "./page.js";

const $ = (id) => document.getElementById(id);
const ORDER_EVENTS = ["order.placed", "order.updated", "order.preparing", "order.ready", "order.served", "order.cancelled"];

// known fills the filters' choices from every order seen, so a filter never hides its
// own choices.
const known = { guests: new Map(), drinks: new Map(), bartenders: new Map() };

function filters() {
  const q = new URLSearchParams({ limit: "500" });
  for (const [name, id] of [["guestId", "f-guest"], ["drinkId", "f-drink"], ["bartenderId", "f-bartender"], ["status", "f-status"]]) {
    if ($(id).value) q.set(name, $(id).value);
  }
  return q;
}

function time(v) {
  return v ? formatTime(new Date(v), { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
}

function remember(orders) {
  let grew = false;
  const add = (map, id, name) => {
    if (!id || map.has(id)) return;
    map.set(id, name || id);
    grew = true;
  };
  for (const o of orders) {
    add(known.guests, o.guestId, o.guestName);
    for (const it of o.items) add(known.drinks, it.drinkId, it.name);
    add(known.bartenders, o.times?.madeById, o.times?.madeBy);
  }
  if (!grew) return;
  for (const [id, map] of [["f-guest", known.guests], ["f-drink", known.drinks], ["f-bartender", known.bartenders]]) {
    const sel = $(id);
    const keep = sel.value;
    const opts = [...map].sort((a, b) => a[1].localeCompare(b[1])).map(([v, name]) => h("option", { value: v }, name));
    sel.replaceChildren(h("option", { value: "" }, t("orders.filter.all")), ...opts);
    sel.value = keep;
  }
}

function row(o) {
  const tm = o.times || {};
  const drinks = o.items.map((it) => (it.qty > 1 ? `${it.qty}× ${it.name}` : it.name)).join(", ");
  const cancel = tm.cancelled ? [time(tm.cancelled), tm.cancelledBy ? ` · ${tm.cancelledBy}` : "", tm.reason ? ` — ${tm.reason}` : ""].join("") : "";
  return h("tr", { dataset: { id: o.id, status: o.status } },
    h("td", {}, o.ticket ? `#${o.ticket}` : ""),
    h("td", {}, o.guestName),
    h("td", { class: "drinks" }, drinks),
    h("td", { class: "status" }, t(`status.${o.status}`)),
    h("td", { class: "t-placed" }, time(tm.placed)),
    h("td", { class: "t-started" }, time(tm.started)),
    h("td", { class: "t-ready" }, time(tm.ready)),
    h("td", { class: "t-served" }, time(tm.served)),
    h("td", { class: "made-by" }, tm.madeBy || ""),
    h("td", { class: "cancel" }, cancel),
  );
}

let listSeq = 0;

async function loadOrders() {
  const mine = ++listSeq;
  try {
    const r = await api("GET", `/api/admin/orders?${filters()}`);
    if (mine !== listSeq) return;
    remember(r.orders);
    $("orders-error").hidden = true;
    $("orders-count").textContent = t("orders.count", { count: r.total, shown: r.orders.length });
    $("orders-body").replaceChildren(...r.orders.map(row));
  } catch (err) {
    $("orders-error").textContent = err.message;
    $("orders-error").hidden = false;
  }
}

function minutes(seconds, timed) {
  if (!timed) return "–";
  if (seconds < 60) return t("report.seconds", { n: formatNumber(Math.round(seconds)) });
  return t("report.minutes", { n: formatNumber(seconds / 60, { maximumFractionDigits: 1 }) });
}

function table(caption, heads, rows) {
  return h("table", {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", {}, x)))),
    h("tbody", {}, rows),
  );
}

// bar is a row's bar; its width is set through the DOM, which the page's style policy
// allows (a style attribute it does not).
function bar(n, most) {
  const el = h("span", { class: "report-bar", "aria-hidden": "true" });
  el.style.width = `${Math.round((n / Math.max(most, 1)) * 120)}px`;
  return el;
}

function renderReport(r) {
  $("report-summary").textContent = t("report.summary", { count: r.served, orders: r.orders, cancelled: r.cancelled });
  const mostHour = Math.max(0, ...r.perHour.map((x) => x.glasses));
  const hours = table(t("report.perHour"), [t("report.col.hour"), t("report.col.glasses"), ""],
    r.perHour.map((x) => h("tr", {}, h("td", {}, formatTime(new Date(x.hour), { hour: "2-digit", minute: "2-digit", timeZone: r.timezone })), h("td", {}, x.glasses), h("td", {}, bar(x.glasses, mostHour)))));
  const drinks = table(t("report.perDrink"), [t("report.col.drink"), t("report.col.glasses"), t("report.col.p50"), t("report.col.p90")],
    r.perDrink.map((d) => h("tr", {}, h("td", {}, d.name), h("td", {}, d.glasses), h("td", {}, minutes(d.prepP50, d.timed)), h("td", {}, minutes(d.prepP90, d.timed)))));
  const guests = table(t("report.perGuest"), [t("report.col.guest"), t("report.col.glasses")],
    r.perGuest.map((g, i) => h("tr", {}, h("td", {}, r.anonymous ? t("report.guestNumber", { n: i + 1 }) : g.name), h("td", {}, g.glasses))));
  const usage = table(t("report.usage"), [t("report.col.ingredient"), t("report.col.used"), t("report.col.planned"), t("report.col.ratio")],
    r.usage.map((u) => {
      const amount = u.amounts.map((a) => `${formatNumber(a.amount)} ${a.unit}`).join(" + ");
      const used = u.packs ? t("report.packs", { n: formatNumber(u.packs), pack: u.pack }) + (amount ? ` (${amount})` : "") : amount || "0";
      const ratio = u.ratio ? `${formatNumber(Math.round(u.ratio * 100))} %` : "–";
      return h("tr", { dataset: { key: u.key } }, h("td", {}, u.name), h("td", {}, used), h("td", {}, u.planned ? t("report.packs", { n: u.planned, pack: u.pack }) : "–"),
        h("td", { class: u.ratio > 1 ? "ratio-high" : u.ratio && u.ratio < 0.5 ? "ratio-low" : "" }, ratio));
    }));
  const note = h("p", { class: "muted" }, t("report.usageNote"));
  $("report-body").replaceChildren(hours, drinks, guests, h("div", {}, usage, note, learnBox()));
}

// learnBox is the host's "Use this night for the next plan" (docs/SHOPPING.md): each
// ingredient's used-over-planned factor is kept and the next shopping plan buys by it.
function learnBox() {
  const status = h("p", { class: "muted", id: "report-learnt", role: "status" });
  const button = h("button", { type: "button", id: "report-learn", class: "quiet" }, t("report.learn"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const l = await api("POST", "/api/admin/orders/report/learn");
      status.textContent = t("report.learnt", { date: formatDate(new Date(`${l.date}T12:00:00`)), count: Object.keys(l.factors).length });
      status.classList.remove("error");
    } catch (err) {
      status.textContent = err.message;
      status.classList.add("error");
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "report-learn" }, h("p", { class: "muted" }, t("report.learnHint")), button, status);
}

let reportSeq = 0;

async function loadReport() {
  const mine = ++reportSeq;
  try {
    const r = await api("GET", `/api/admin/orders/report?anonymous=${$("report-anonymous").checked}`);
    if (mine !== reportSeq) return;
    $("report-error").hidden = true;
    renderReport(r);
  } catch (err) {
    $("report-error").textContent = err.message;
    $("report-error").hidden = false;
  }
}

async function download(path, errorBox) {
  try {
    const res = await fetch(path, { headers: { Authorization: `Bearer ${localStorage.getItem("barhub.token")}` } });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      throw new ApiError(body?.error?.message || t("orders.httpError", { status: res.status }), { status: res.status });
    }
    const blob = await res.blob();
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "")?.[1] || "orders.csv";
    const a = h("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (err) {
    $(errorBox).textContent = err.message;
    $(errorBox).hidden = false;
  }
}

function debounce(fn, ms) {
  let timer = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

function main() {
  translate();
  $("orders-filters").addEventListener("change", loadOrders);
  $("orders-filters").addEventListener("submit", (e) => e.preventDefault());
  $("orders-csv").addEventListener("click", () => {
    const q = filters();
    q.delete("limit");
    download(`/api/admin/orders.csv?${q}`, "orders-error");
  });
  $("report-anonymous").addEventListener("change", loadReport);
  $("report-csv").addEventListener("click", () => download(`/api/admin/orders/report.csv?anonymous=${$("report-anonymous").checked}`, "report-error"));
  $("report-print").addEventListener("click", () => window.print());
  // The desk's topics: the bar's carries every move of an order, the host's the
  // summaries; a resync on either reads everything again.
  const live = startLive("bar", "admin");
  const soonOrders = debounce(loadOrders, 300);
  const soonReport = debounce(loadReport, 3000);
  for (const ev of ORDER_EVENTS) {
    live.on(ev, () => {
      soonOrders();
      soonReport();
    });
  }
  live.onResync("bar", () => {
    loadOrders();
    loadReport();
  });
  loadOrders();
  loadReport();
}

if (startPage("admin")) main();
