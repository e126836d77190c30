// The door: a phone or tablet at the entrance. Staff type the invitation's code or
// scan its QR code; the answer is one big card — green "Welcome", amber asking "let in
// anyway?" (declined, never answered, more people than invited) before anyone is
// counted, red "wait" — with undo. Guests who lost their code are found by name.
// The arrivals count follows every door live (the bar topic carries the door's
// events, since bartenders may not follow the host's). Kiosk mode keeps a tablet on
// the scan screen; scans made while the network is down are kept on the device,
// marked "not yet sent", and sent when it is back.
import { api, ApiError } from "./api.js";
import { h } from "./bar-common.js";
import { takeOver } from "./forms.js";
import { formatTime, t } from "./i18n.js";
import { startLive, startPage } from "./page.js";

const $ = (id) => document.getElementById(id);
const me = startPage("bartender", "admin");

const state = {
  version: -1, // of the arrivals shown: an older figure arriving late never wins
  last: null, // the last answer shown, for undo and "let in anyway"
  lastCode: "",
  busy: false,
  camera: null, // {stream, timer} while scanning
  kiosk: false,
  resetTimer: 0, // kiosk: back to the scan screen
  flushing: false,
  sent: [], // answers to queued scans, newest first, for this session
};

const QUEUE_KEY = "barhub.door.queue";
const KIOSK_KEY = "barhub.door.kiosk";
// Kiosk: how long a card stays before the scan screen comes back. An amber card waits
// longer for its answer, then lets nobody in.
const KIOSK_CARD_MS = 6000;
const KIOSK_ASK_MS = 20000;

// One clock format for every time on the page, the page language's (formatTime): never
// "03:16 PM" in one place and "15:16" in another.

if (me) start();

function start() {
  if (me.role === "admin") $("nav-admin").hidden = false;
  $("door-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("door-code").value.trim();
    if (code) checkIn({ code });
    else showError(t("door.typeCode"));
  });
  $("door-code").addEventListener("input", (e) => {
    // Codes show in upper case (the server ignores case); a link typed by a
    // keyboard-like scanner shows as it is.
    e.target.classList.toggle("is-link", /[/:?]/.test(e.target.value));
  });
  $("door-undo").addEventListener("click", undo);
  $("door-force").addEventListener("click", () => {
    if (state.last) checkIn({ guestId: state.last.guest.id, force: true, ...(state.last.heads ? { heads: state.last.heads } : {}) });
  });
  $("door-kiosk").addEventListener("click", () => setKiosk(!state.kiosk));
  setKiosk(new URLSearchParams(location.search).get("kiosk") === "1" || localStorage.getItem(KIOSK_KEY) === "1");
  globalThis.addEventListener("online", flushQueue);
  setInterval(flushQueue, 5000);
  renderQueue();
  flushQueue();
  $("door-next").addEventListener("click", nextGuest);
  $("door-search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });
  takeOver($("door-form"));
  takeOver($("door-search-form"));
  setUpScanner();

  const live = startLive("bar");
  for (const ev of ["guest.checked_in", "guest.check_in_undone"]) {
    live.on(ev, (data) => renderArrived(data.arrived));
  }
  live.onResync("bar", () => loadArrived());
  loadArrived();
  // A sleeping tablet catches up on its own too.
  setInterval(loadArrived, 30000);
  $("door-code").focus();
}

async function loadArrived() {
  try {
    renderArrived(await api("GET", "/api/door/stats"));
  } catch {
    // The live badge already says when the connection is down.
  }
}

function renderArrived(a) {
  if (!a || !a.version || a.version < state.version) return;
  state.version = a.version;
  $("door-in").textContent = String(a.checkedIn);
  $("door-in-label").textContent = t("door.guestsInCount", { count: a.checkedIn });
  $("door-heads").textContent = String(a.checkedInHeads);
  $("door-heads-label").textContent = t("door.peopleCount", { count: a.checkedInHeads });
  $("door-coming").textContent = String(a.comingHeads);
}

async function checkIn(body) {
  if (state.busy) return;
  state.busy = true;
  $("door-submit").disabled = true;
  try {
    const r = await api("POST", "/api/door/checkin", body);
    state.last = r;
    renderArrived(r.arrived);
    showResult(r);
    clearEntry();
    // A guest found by name shows as in.
    if ($("door-search-results").querySelector(".door-search-row")) search();
  } catch (err) {
    state.last = null;
    if (err instanceof ApiError && err.status === 0) {
      // The network, not the guest: keep the scan and send it when we can.
      enqueue(body);
      clearEntry();
    } else {
      showError(err instanceof ApiError ? err.message : t("door.somethingWrong"), err.status === 404 ? t("door.unknownCode") : t("door.notCheckedIn"));
    }
  } finally {
    state.busy = false;
    $("door-submit").disabled = false;
    $("door-code").focus();
  }
}

function clearEntry() {
  $("door-code").value = "";
  $("door-code").classList.remove("is-link");
}

function showResult(r) {
  const box = $("door-result");
  box.hidden = false;
  box.dataset.level = r.level;
  box.dataset.guest = r.guest.id;
  box.dataset.confirm = String(!!r.confirm);
  $("door-message").textContent = headline(r);
  const detail = [];
  if (r.admitted) detail.push(t("door.checkedInAt", { time: time(r.guest.checkedInAt) }));
  else if (r.alreadyCheckedIn) detail.push(t("door.inSince", { time: time(r.guest.checkedInAt) }));
  else if (r.confirm) detail.push(t("door.notYet"));
  if (r.guest.status === "coming") detail.push(t("door.rsvpComing", { count: r.guest.numGuests }));
  else if (r.guest.status === "declined") detail.push(t("door.rsvpDeclined"));
  else detail.push(t("door.rsvpNotAnswered"));
  $("door-detail").textContent = detail.join(" · ");
  $("door-warnings").replaceChildren(...r.warnings.map((w) => h("li", { class: `warning ${w.level}`, dataset: { code: w.code } }, w.message)));
  $("door-undo").hidden = !r.admitted;
  // The amber card's question: nobody is counted until the door person answers.
  $("door-force").hidden = !r.confirm;
  $("door-force").textContent = t("door.letIn");
  if (r.confirm) $("door-force").focus();
  kioskReset(r.confirm ? KIOSK_ASK_MS : KIOSK_CARD_MS);
}

// headline is the card's big line in the page's language (the server's message is
// English): "Welcome, Ada Lovelace — party of 2".
function headline(r) {
  const vars = { name: `${r.guest.firstName} ${r.guest.lastName}`.trim(), party: t("door.party", { count: r.heads }) };
  if (r.alreadyCheckedIn) return t("door.headAlreadyIn", vars);
  if (r.confirm) return t("door.headAsk", vars);
  if (!r.admitted) return t("door.headWait", vars);
  return t("door.headWelcome", vars);
}

function showError(message, title = t("door.notCheckedIn")) {
  const box = $("door-result");
  box.hidden = false;
  box.dataset.level = "error";
  delete box.dataset.guest;
  $("door-message").textContent = title;
  $("door-detail").textContent = message;
  $("door-warnings").replaceChildren();
  $("door-undo").hidden = true;
  $("door-force").hidden = true;
  kioskReset(KIOSK_CARD_MS);
}

function nextGuest() {
  clearTimeout(state.resetTimer);
  $("door-result").hidden = true;
  state.last = null;
  $("door-code").value = "";
  $("door-code").focus();
}

async function undo() {
  const last = state.last;
  if (!last) return;
  $("door-undo").disabled = true;
  try {
    const r = await api("POST", `/api/door/checkin/${encodeURIComponent(last.guest.id)}/undo`);
    renderArrived(r.arrived);
    state.last = null;
    const box = $("door-result");
    box.dataset.level = "undone";
    $("door-message").textContent = t("door.undone");
    $("door-detail").textContent = t("door.undoneDetail", { name: `${r.guest.firstName} ${r.guest.lastName}`.trim() });
    $("door-warnings").replaceChildren();
    $("door-undo").hidden = true;
    $("door-force").hidden = true;
  } catch (err) {
    showError(err.message, t("door.couldNotUndo"));
  } finally {
    $("door-undo").disabled = false;
  }
}

async function search() {
  const q = $("door-search").value.trim();
  const list = $("door-search-results");
  if (q.length < 2) {
    list.replaceChildren(h("li", { class: "muted" }, t("door.searchShort")));
    return;
  }
  try {
    const r = await api("GET", `/api/door/lookup?q=${encodeURIComponent(q)}`);
    if (r.guests.length === 0) {
      list.replaceChildren(h("li", { class: "muted" }, t("door.searchNone", { q })));
      return;
    }
    list.replaceChildren(...r.guests.map(searchRow));
    if (r.total > r.guests.length) list.append(h("li", { class: "muted" }, t("door.searchMore", { count: r.total - r.guests.length })));
  } catch (err) {
    list.replaceChildren(h("li", { class: "error" }, err.message));
  }
}

function searchRow(g) {
  const status = g.checkedInAt ? t("door.rowInSince", { time: time(g.checkedInAt) }) : g.status === "coming" ? t("door.rowComing", { count: g.numGuests })
    : g.status === "declined" ? t("door.rowDeclined") : t("door.rowNotAnswered");
  return h("li", { class: "door-search-row", dataset: { id: g.id } },
    h("span", { class: "name" }, `${g.firstName} ${g.lastName}`, " ", h("small", { class: "muted" }, status)),
    g.checkedInAt
      ? h("span", { class: "badge ok" }, `✓ ${t("door.rowIn")}`)
      : h("button", { type: "button", class: "primary", onclick: () => checkIn({ guestId: g.id }) }, t("door.checkIn")));
}

function time(iso) {
  return iso ? formatTime(iso) : "";
}

// ---- Kiosk -------------------------------------------------------------------------------
// A tablet on a stand at the entrance: only the scan screen, the code field always
// focused for a keyboard-like scanner, every card going back to it on its own, and the
// screen kept awake where the browser allows.

function setKiosk(on) {
  state.kiosk = on;
  document.body.classList.toggle("kiosk", on);
  $("door-kiosk").setAttribute("aria-pressed", String(on));
  $("door-kiosk").textContent = on ? t("door.kioskLeave") : t("door.kiosk");
  localStorage.setItem(KIOSK_KEY, on ? "1" : "0");
  if (on) {
    navigator.wakeLock?.request("screen").then((lock) => (state.wakeLock = lock)).catch(() => {});
    $("door-code").focus();
  } else {
    state.wakeLock?.release?.().catch(() => {});
    state.wakeLock = null;
    clearTimeout(state.resetTimer);
  }
}

function kioskReset(ms) {
  clearTimeout(state.resetTimer);
  if (!state.kiosk) return;
  state.resetTimer = setTimeout(nextGuest, ms);
}

document.addEventListener("visibilitychange", () => {
  // A wake lock ends when the page is hidden; take it again on return.
  if (state.kiosk && document.visibilityState === "visible") navigator.wakeLock?.request("screen").then((l) => (state.wakeLock = l)).catch(() => {});
});

document.addEventListener("focusout", () => {
  // Kiosk: a tap anywhere but a button or field gives the focus back to the scanner.
  if (!state.kiosk) return;
  setTimeout(() => {
    const a = document.activeElement;
    if (!a || a === document.body) $("door-code").focus();
  }, 0);
});

// ---- Scans kept through a network drop --------------------------------------------------

function loadQueue() {
  try {
    return JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]");
  } catch {
    return [];
  }
}

function saveQueue(q) {
  localStorage.setItem(QUEUE_KEY, JSON.stringify(q));
}

function enqueue(body) {
  const q = loadQueue();
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  q.push({ id, body, at: new Date().toISOString() });
  saveQueue(q);
  const box = $("door-result");
  box.hidden = false;
  box.dataset.level = "queued";
  delete box.dataset.guest;
  $("door-message").textContent = t("door.notYetSent");
  $("door-detail").textContent = t("door.notYetSentDetail");
  $("door-warnings").replaceChildren();
  $("door-undo").hidden = true;
  $("door-force").hidden = true;
  renderQueue();
  kioskReset(KIOSK_CARD_MS);
}

function scanLabel(body) {
  if (body.code) return t("door.scanCode", { code: body.code.length > 16 ? `${body.code.slice(0, 16)}…` : body.code.toUpperCase() });
  return t("door.scanByName");
}

function renderQueue() {
  const q = loadQueue();
  $("door-queue-box").hidden = q.length === 0 && state.sent.length === 0;
  $("door-queue-title").textContent = q.length ? t("door.queueCount", { count: q.length }) : t("door.queueSent");
  $("door-queue").replaceChildren(
    ...q.map((e) => h("li", { class: "door-queue-row pending", dataset: { id: e.id } },
      h("span", { class: "name" }, scanLabel(e.body)), " ",
      h("small", { class: "muted" }, t("door.scannedAt", { time: time(e.at) })), " ",
      h("span", { class: "badge warn" }, t("door.badgeNotSent")))),
    ...state.sent.map((s) => h("li", { class: `door-queue-row sent level-${s.level}` },
      h("span", { class: "name" }, s.message), " ",
      h("small", { class: "muted" }, t("door.scannedSent", { time: time(s.at) })),
      s.confirm && h("button", { type: "button", class: "primary", onclick: () => { state.sent = state.sent.filter((x) => x !== s); renderQueue(); checkIn({ guestId: s.guestId, force: true }); } }, t("door.letIn")))));
}

// flushQueue sends the kept scans, oldest first, one at a time; it stops at the first
// that cannot get through, to try again later.
async function flushQueue() {
  if (state.flushing) return;
  let q = loadQueue();
  if (q.length === 0) return;
  state.flushing = true;
  try {
    while (q.length > 0) {
      const e = q[0];
      let r;
      try {
        r = await api("POST", "/api/door/checkin", e.body);
        renderArrived(r.arrived);
        state.sent.unshift({ at: e.at, level: r.level, message: headline(r), confirm: !!r.confirm, guestId: r.guest.id });
      } catch (err) {
        if (err instanceof ApiError && err.status === 0) break; // still down
        state.sent.unshift({ at: e.at, level: "error", message: `${scanLabel(e.body)}: ${err.message}` });
      }
      q = loadQueue().filter((x) => x.id !== e.id);
      saveQueue(q);
      state.sent = state.sent.slice(0, 10);
      renderQueue();
    }
  } finally {
    state.flushing = false;
    renderQueue();
  }
}

// ---- Scanning --------------------------------------------------------------------------
// The browser's own BarcodeDetector reads the QR code from the camera; where the browser
// has none (or no camera), the button stays hidden and staff type the code.

async function setUpScanner() {
  if (!("BarcodeDetector" in globalThis) || !navigator.mediaDevices?.getUserMedia) return;
  try {
    const formats = await BarcodeDetector.getSupportedFormats();
    if (!formats.includes("qr_code")) return;
  } catch {
    return;
  }
  const btn = $("door-scan");
  btn.hidden = false;
  btn.addEventListener("click", startCamera);
  $("door-camera-stop").addEventListener("click", stopCamera);
}

async function startCamera() {
  if (state.camera) return;
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  } catch {
    showError(t("door.noCameraDetail"), t("door.noCamera"));
    return;
  }
  const video = $("door-video");
  video.srcObject = stream;
  $("door-camera").hidden = false;
  await video.play().catch(() => {});
  const detector = new BarcodeDetector({ formats: ["qr_code"] });
  state.camera = { stream, timer: 0 };
  const look = async () => {
    if (!state.camera) return;
    try {
      const found = await detector.detect(video);
      const value = found.find((c) => c.rawValue)?.rawValue;
      if (value) {
        stopCamera();
        checkIn({ code: value });
        return;
      }
    } catch {
      // A frame that is not ready yet: try the next one.
    }
    state.camera.timer = setTimeout(look, 200);
  };
  look();
}

function stopCamera() {
  const cam = state.camera;
  if (!cam) return;
  clearTimeout(cam.timer);
  for (const track of cam.stream.getTracks()) track.stop();
  state.camera = null;
  $("door-video").srcObject = null;
  $("door-camera").hidden = true;
  $("door-code").focus();
}
