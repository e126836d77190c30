// The pick-up board (/board): a TV or tablet by the bar. It signs in with the key in its
// link (#key=…), which it keeps so it can sign in again when its token expires, and
// shows the orders being made and ready to collect, live. A revoked link shows a
// sentence and nothing else.
import { connect, LiveAuthError } from "./live.js";
import { t } from "./i18n.js"; // and the language switch in the header

const KEY = "barhub.boardKey";
// Ready orders fade over FADE_MS and leave the board when served (or after HIDE_MS).
const FADE_MS = 5 * 60 * 1000;
const HIDE_MS = 20 * 60 * 1000;

const orders = new Map(); // id → board order
let token = "";
let live = null;

const $ = (id) => document.getElementById(id);

function fail(text) {
  $("board-error").textContent = text;
  $("board-error").hidden = false;
}

function takeKey() {
  const m = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (m) {
    localStorage.setItem(KEY, decodeURIComponent(m[1]));
    // The key is a password: keep it off the screen and out of the history.
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(KEY) || "";
}

class Revoked extends Error {}

async function signIn() {
  const key = takeKey();
  if (!key) throw new Revoked(t("board.noLink"));
  const res = await fetch("/api/board/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ key }),
  });
  if (res.status === 401 || res.status === 400) {
    localStorage.removeItem(KEY);
    throw new Revoked(t("board.revoked"));
  }
  if (!res.ok) throw new Error(`sign-in failed (${res.status})`);
  const body = await res.json();
  token = body.token;
  $("board-name").textContent = body.name || t("board.title");
}

// call sends an authorised request, signing in again once when the token has expired.
async function call(method, path) {
  for (let attempt = 0; ; attempt++) {
    if (!token) await signIn();
    const res = await fetch(path, { method, headers: { Accept: "application/json", Authorization: `Bearer ${token}` } });
    if (res.status === 401 && attempt === 0) {
      token = "";
      continue;
    }
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return res.json();
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function card(o, now) {
  const li = el("li", "order");
  li.dataset.id = o.id;
  const head = el("div", "who");
  if (o.ticket !== undefined && o.ticket !== null && o.ticket !== "") head.append(el("span", "ticket", `#${o.ticket}`));
  head.append(el("span", "name", o.name));
  li.append(head);
  li.append(el("div", "drinks", o.items.map((it) => (it.qty > 1 ? `${it.qty}× ${it.name}` : it.name)).join(", ")));
  if (o.status === "ready" && o.readyAt) {
    const age = now - Date.parse(o.readyAt);
    li.style.opacity = String(Math.max(0.35, 1 - (0.65 * age) / FADE_MS));
    if (age > FADE_MS) li.classList.add("old");
  }
  return li;
}

function render() {
  const now = Date.now();
  const making = [];
  const ready = [];
  for (const o of orders.values()) {
    if (o.status === "queued" || o.status === "preparing") making.push(o);
    else if (o.status === "ready" && !(o.readyAt && now - Date.parse(o.readyAt) > HIDE_MS)) ready.push(o);
  }
  making.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  ready.sort((a, b) => Date.parse(b.readyAt || b.at) - Date.parse(a.readyAt || a.at));
  $("making").replaceChildren(...making.map((o) => card(o, now)));
  $("ready").replaceChildren(...ready.map((o, i) => {
    const c = card(o, now);
    if (i === 0) c.classList.add("newest");
    return c;
  }));
}

function apply(o) {
  if (o.status === "served" || o.status === "cancelled") orders.delete(o.id);
  else orders.set(o.id, o);
  render();
}

async function load() {
  const body = await call("GET", "/api/board");
  orders.clear();
  for (const o of body.orders) orders.set(o.id, o);
  render();
}

function startLive() {
  live = connect({
    storage: null,
    getTicket: async () => {
      try {
        return (await call("POST", "/api/board/ws/ticket")).ticket;
      } catch (err) {
        throw err instanceof Revoked ? new LiveAuthError(err.message) : err;
      }
    },
  });
  live.on("board.order", (o) => apply(o));
  live.onResync("board", () => load().catch(() => {}));
  const badge = $("live-status");
  live.onStatus((status) => {
    badge.dataset.status = status;
    badge.querySelector(".text").textContent = { open: t("live.open"), reconnecting: t("live.reconnecting"), connecting: t("live.connecting") }[status] || t("live.closed");
    if (status === "unauthorized") {
      // Revoked, or the token ran out: one more sign-in tells which.
      live.close();
      token = "";
      load().then(startLive).catch(stop);
    }
  });
  live.subscribe("board");
}

function stop(err) {
  if (live) live.close();
  orders.clear();
  render();
  fail(err instanceof Revoked ? err.message : t("board.unreachable"));
  if (!(err instanceof Revoked)) setTimeout(() => main(), 5000);
}

async function main() {
  $("board-error").hidden = true;
  try {
    await load();
    startLive();
  } catch (err) {
    stop(err);
  }
}

setInterval(render, 15000); // the fading goes on without events
main();
