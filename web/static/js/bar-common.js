// Helpers shared by the drink menu (menu.js), the bar's queue (bar.js) and the host's
// drink editor (drinks-admin.js): DOM building without innerHTML, the public app's key,
// sounds, and the words for an order's state.
import { api, ApiError } from "./api.js";
import { t } from "./i18n.js";

// h builds an element: h("p", {class: "x", onclick: fn}, "text", child, ...). Text is
// always set as text, never parsed as HTML, so names from the database are safe.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// loadStyles adds a stylesheet once.
export function loadStyles(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href }));
}

// newKey makes an Idempotency-Key: one per order the guest means to place, reused for
// every retry of it.
export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// The public app's key (see GET /api/app-key): menu and order calls carry it, so the
// host can switch the guests' app off and on.
let appKey = null;
let appEnabled = true;
const appListeners = new Set();

export async function loadAppKey() {
  const k = await api("GET", "/api/app-key");
  appKey = k?.key || null;
  setAppEnabled(!!k?.enabled);
  return appEnabled;
}

function setAppEnabled(on) {
  if (on === appEnabled) return;
  appEnabled = on;
  for (const fn of appListeners) fn(on);
}

export function onAppSwitch(fn) {
  appListeners.add(fn);
  return () => appListeners.delete(fn);
}

export function appIsOn() {
  return appEnabled;
}

// appApi is api() with the public app's key. A replaced key is fetched again and the
// call retried once; a switched-off app is remembered so the page can say so.
export async function appApi(method, path, body, options = {}) {
  if (appKey === null) await loadAppKey().catch(() => {});
  const call = () => api(method, path, body, { ...options, headers: { ...(options.headers || {}), "X-Api-Key": appKey || "" } });
  try {
    const out = await call();
    setAppEnabled(true);
    return out;
  } catch (err) {
    if (err instanceof ApiError && (err.code === "invalid_api_key" || err.code === "api_key_required")) {
      await loadAppKey();
      return call();
    }
    if (err instanceof ApiError && err.code === "app_switched_off") setAppEnabled(false);
    throw err;
  }
}

// Sound. Browsers only let a page play sound after the person has touched it, so the
// pages call unlockAudio from their first tap.
let audio = null;

export function unlockAudio() {
  try {
    audio ||= new (globalThis.AudioContext || globalThis.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null;
  }
}

// beep plays a short chime: notes are [frequency Hz, start s, length s].
export function beep(notes = [[880, 0, 0.18], [1320, 0.2, 0.3]]) {
  if (!audio) return false;
  const t0 = audio.currentTime;
  for (const [f, at, len] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = f;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.4, t0 + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.05);
  }
  return true;
}

// itemsText lists an order's drinks: "2 × Negroni, Mojito for Leo".
export function itemsText(order) {
  return (order.items || [])
    .map((it) => (it.qty > 1 ? `${it.qty} × ${it.name}` : it.name) + (it.forName ? " " + t("order.forName", { name: it.forName }) : ""))
    .join(", ");
}

// minutes says a wait in words.
export function minutes(seconds) {
  if (seconds === undefined || seconds === null) return "";
  if (seconds <= 20) return t("order.anyMoment");
  return t("order.aboutMinutes", { count: Math.max(1, Math.round(seconds / 60)) });
}

// clock formats an age as m:ss (or h:mm:ss).
export function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh > 0 ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

// toast shows a short message at the bottom of the screen.
export function toast(text, kind = "") {
  let box = document.getElementById("bar-toast");
  if (!box) {
    box = h("div", { id: "bar-toast", class: "bar-toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = text;
  // Under the sticky top bar, wherever its height is today.
  const bar = document.querySelector("header.topbar");
  box.style.setProperty("--toast-top", `${bar && getComputedStyle(bar).position !== "static" ? Math.max(0, bar.getBoundingClientRect().bottom) : 0}px`);
  box.className = `bar-toast show ${kind}`;
  clearTimeout(box._timer);
  box._timer = setTimeout(() => (box.className = "bar-toast"), 4000);
}

export const statusWords = {
  queued: t("status.queued"),
  preparing: t("status.preparing"),
  ready: t("status.ready"),
  served: t("status.served"),
  cancelled: t("status.cancelled"),
};

// apiDetailed is api() for forms that show the server's per-field problems: the error it
// throws carries error.details from the response as err.details.
export async function apiDetailed(method, path, body) {
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  const token = localStorage.getItem("barhub.token");
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(t("common.networkError"));
  }
  const data = await res.json().catch(() => null);
  if (res.ok) return data;
  if (res.status === 401) return api(method, path, body); // let api() sign out as it does everywhere
  const err = new ApiError(data?.error?.message || t("common.httpError", { status: res.status }), { status: res.status, code: data?.error?.code || "" });
  err.details = data?.error?.details;
  throw err;
}
