// A small inline-SVG chart of answers over time: bars for the answers
// given each day (coming above the line, declined below) and a line for
// the people coming so far. No library, no canvas: it prints and scales.

import { t, formatDate } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const W = 640;
const H = 220;
const PAD = { top: 16, right: 44, bottom: 28, left: 36 };

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// niceMax rounds up to 1, 2 or 5 × a power of ten, for axis labels.
function niceMax(v) {
  if (v <= 5) return 5;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function shortDate(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return formatDate(new Date(y, m - 1, d), { day: "numeric", month: "short" });
}

// renderChart draws days ([{date, coming, declined, totalHeads, …}]) into
// container, replacing what was there.
export function renderChart(container, days) {
  container.replaceChildren();
  if (!days || days.length === 0) {
    const p = document.createElement("p");
    p.className = "muted empty";
    p.textContent = t("chart.none");
    container.append(p);
    return;
  }
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg", preserveAspectRatio: "xMidYMid meet" });
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const maxBar = niceMax(Math.max(...days.map((d) => Math.max(d.coming, d.declined)), 1));
  const maxHeads = niceMax(Math.max(...days.map((d) => d.totalHeads), 1));
  const zero = PAD.top + plotH / 2;
  const step = plotW / days.length;
  const barW = Math.max(2, Math.min(28, step * 0.6));
  const x = (i) => PAD.left + step * (i + 0.5);
  const yBar = (v) => (v / maxBar) * (plotH / 2);
  const yLine = (v) => PAD.top + plotH - (v / maxHeads) * plotH;

  // Grid and axes.
  svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: zero, y2: zero, class: "axis" }));
  for (const f of [0, 0.5, 1]) {
    const y = PAD.top + plotH * (1 - f);
    svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y, class: "grid" }));
    const v = maxHeads * f;
    if (Number.isInteger(v)) svg.append(el("text", { x: W - PAD.right + 6, y: y + 4, class: "tick heads" }, String(v)));
  }
  svg.append(el("text", { x: PAD.left - 6, y: PAD.top + 10, class: "tick end" }, `+${maxBar}`));
  svg.append(el("text", { x: PAD.left - 6, y: H - PAD.bottom, class: "tick end" }, `−${maxBar}`));

  days.forEach((d, i) => {
    const cx = x(i);
    if (d.coming > 0) {
      const h = yBar(d.coming);
      const r = el("rect", { x: cx - barW / 2, y: zero - h, width: barW, height: h, class: "bar coming", rx: 2 });
      r.append(el("title", {}, `${shortDate(d.date)}: ${t("chart.comingDay", { count: d.coming, heads: d.comingHeads })}`));
      svg.append(r);
    }
    if (d.declined > 0) {
      const h = yBar(d.declined);
      const r = el("rect", { x: cx - barW / 2, y: zero, width: barW, height: h, class: "bar declined", rx: 2 });
      r.append(el("title", {}, `${shortDate(d.date)}: ${t("chart.declinedDay", { count: d.declined })}`));
      svg.append(r);
    }
  });

  const points = days.map((d, i) => `${x(i).toFixed(1)},${yLine(d.totalHeads).toFixed(1)}`);
  svg.append(el("polyline", { points: points.join(" "), class: "line" }));
  days.forEach((d, i) => {
    const c = el("circle", { cx: x(i), cy: yLine(d.totalHeads), r: 3.5, class: "dot" });
    c.append(el("title", {}, `${shortDate(d.date)}: ${t("chart.soFar", { count: d.totalHeads })}`));
    svg.append(c);
  });

  // Date labels: the first, the last and a few between.
  const every = Math.max(1, Math.ceil(days.length / 6));
  days.forEach((d, i) => {
    if (i % every === 0 || i === days.length - 1) {
      svg.append(el("text", { x: x(i), y: H - 8, class: "tick mid" }, shortDate(d.date)));
    }
  });

  const legend = document.createElement("p");
  legend.className = "chart-legend";
  for (const [cls, label] of [["coming", t("chart.legend.coming")], ["declined", t("chart.legend.declined")], ["line", t("chart.legend.line")]]) {
    const item = document.createElement("span");
    const key = document.createElement("i");
    key.className = `key ${cls}`;
    item.append(key, label);
    legend.append(item);
  }
  container.append(svg, legend);
}
