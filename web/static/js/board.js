// The pick-up board (/board): a TV or tablet by the bar. It signs in with the key in its
// link (#key=…), which it keeps so it can sign in again when its token expires, and
// shows the orders waiting, being made and ready to collect, live, on one screen that
// never scrolls: what does not fit is counted ("+3 more"). A revoked link shows a
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
  // Each drink's picture (the menu's: a photo, or barhub's drawing), once per drink.
  const urls = [...new Set(o.items.map((it) => it.imageUrl).filter(Boolean))];
  if (urls.length > 0) {
    const pics = el("div", "pics");
    for (const url of urls) {
      const img = el("img", "pic");
      img.src = url;
      img.alt = "";
      img.loading = "lazy";
      img.decoding = "async";
      pics.append(img);
    }
    li.append(pics);
  }
  if (o.status === "ready" && o.readyAt) {
    const age = now - Date.parse(o.readyAt);
    // How far it has faded, 0 to 1: board.css turns its words grey and fades its pictures.
    li.style.setProperty("--fade", String(Math.min(1, Math.max(0, age / FADE_MS))));
    if (age > FADE_MS) li.classList.add("old");
  }
  return li;
}

// Queued orders wait in turn; nobody has started on them, so they are not "being made".
// The drinks being made show the newest started first, ready ones the newest ready first:
// what just changed is at the top, where a guest looks.
function render() {
  const now = Date.now();
  const waiting = [];
  const making = [];
  const ready = [];
  for (const o of orders.values()) {
    if (o.status === "queued") waiting.push(o);
    else if (o.status === "preparing") making.push(o);
    else if (o.status === "ready" && !(o.readyAt && now - Date.parse(o.readyAt) > HIDE_MS)) ready.push(o);
  }
  const time = (s) => (s ? Date.parse(s) : 0);
  waiting.sort((a, b) => (a.ticket || 0) - (b.ticket || 0) || time(a.at) - time(b.at));
  making.sort((a, b) => time(b.startedAt || b.at) - time(a.startedAt || a.at));
  ready.sort((a, b) => time(b.readyAt || b.at) - time(a.readyAt || a.at));
  $("waiting").replaceChildren(...waiting.map((o) => card(o, now)));
  $("making").replaceChildren(...making.map((o) => card(o, now)));
  $("ready").replaceChildren(...ready.map((o, i) => {
    const c = card(o, now);
    if (i === 0) c.classList.add("newest");
    return c;
  }));
  for (const id of ["waiting", "making", "ready"]) fit(id);
}

// fit hides the cards that would fall below the screen's edge and says how many there
// are instead. On a narrow screen, where the page scrolls, every card fits.
function fit(id) {
  const list = $(id);
  const more = $(`${id}-more`);
  more.hidden = true;
  const cards = [...list.children];
  for (const c of cards) c.hidden = false;
  if (list.scrollHeight <= list.clientHeight) return;
  more.hidden = false;
  let hidden = 0;
  for (let i = cards.length - 1; i > 0 && list.scrollHeight > list.clientHeight; i--) {
    cards[i].hidden = true;
    hidden++;
    more.textContent = t("board.more", { count: hidden });
  }
  more.hidden = hidden === 0;
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
        return await call("POST", "/api/board/ws/ticket");
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
addEventListener("resize", render);
main();
