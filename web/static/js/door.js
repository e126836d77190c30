// The door: a phone or tablet at the entrance. Staff type the invitation's code or
// scan its QR code; the answer is one big card — green "Welcome", amber with
// warnings, red "wait" — with undo. Guests who lost their code are found by name.
// The arrivals count follows every door live (the bar topic carries the door's
// events, since bartenders may not follow the host's).
import { api, ApiError } from "./api.js";
import { h } from "./bar-common.js";
import { startLive, startPage } from "./page.js";

const $ = (id) => document.getElementById(id);
const me = startPage("bartender", "admin");

const state = {
  version: -1, // of the arrivals shown: an older figure arriving late never wins
  last: null, // the last answer shown, for undo and "let in anyway"
  lastCode: "",
  busy: false,
  camera: null, // {stream, timer} while scanning
};

if (me) start();

function start() {
  if (me.role === "admin") $("nav-admin").hidden = false;
  $("door-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("door-code").value.trim();
    if (code) checkIn({ code });
    else showError("Type the code from the invitation, or scan its QR code.");
  });
  $("door-code").addEventListener("input", (e) => {
    // Codes show in upper case (the server ignores case); a link typed by a
    // keyboard-like scanner shows as it is.
    e.target.classList.toggle("is-link", /[/:?]/.test(e.target.value));
  });
  $("door-undo").addEventListener("click", undo);
  $("door-force").addEventListener("click", () => {
    if (state.last) checkIn({ guestId: state.last.guest.id, force: true });
  });
  $("door-next").addEventListener("click", nextGuest);
  $("door-search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });
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
  $("door-in-label").textContent = a.checkedIn === 1 ? "guest in" : "guests in";
  $("door-heads").textContent = String(a.checkedInHeads);
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
    $("door-code").value = "";
    $("door-code").classList.remove("is-link");
    // A guest found by name shows as in.
    if ($("door-search-results").querySelector(".door-search-row")) search();
  } catch (err) {
    state.last = null;
    showError(err instanceof ApiError ? err.message : "Something went wrong. Try again.", err.status === 404 ? "Unknown code" : "Not checked in");
  } finally {
    state.busy = false;
    $("door-submit").disabled = false;
    $("door-code").focus();
  }
}

function showResult(r) {
  const box = $("door-result");
  box.hidden = false;
  box.dataset.level = r.level;
  box.dataset.guest = r.guest.id;
  $("door-message").textContent = r.message;
  const detail = [];
  if (r.admitted) detail.push(`Checked in at ${time(r.guest.checkedInAt)}`);
  if (r.guest.status === "coming") detail.push(`RSVP: coming, ${r.guest.numGuests}`);
  else if (r.guest.status === "declined") detail.push("RSVP: declined");
  else detail.push("RSVP: not answered");
  $("door-detail").textContent = detail.join(" · ");
  $("door-warnings").replaceChildren(...r.warnings.map((w) => h("li", { class: `warning ${w.level}`, dataset: { code: w.code } }, w.message)));
  $("door-undo").hidden = !r.admitted;
  $("door-force").hidden = r.admitted || r.alreadyCheckedIn;
}

function showError(message, title = "Not checked in") {
  const box = $("door-result");
  box.hidden = false;
  box.dataset.level = "error";
  delete box.dataset.guest;
  $("door-message").textContent = title;
  $("door-detail").textContent = message;
  $("door-warnings").replaceChildren();
  $("door-undo").hidden = true;
  $("door-force").hidden = true;
}

function nextGuest() {
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
    $("door-message").textContent = "Check-in undone";
    $("door-detail").textContent = r.message;
    $("door-warnings").replaceChildren();
    $("door-undo").hidden = true;
    $("door-force").hidden = true;
  } catch (err) {
    showError(err.message, "Could not undo");
  } finally {
    $("door-undo").disabled = false;
  }
}

async function search() {
  const q = $("door-search").value.trim();
  const list = $("door-search-results");
  if (q.length < 2) {
    list.replaceChildren(h("li", { class: "muted" }, "Type at least 2 letters of a name."));
    return;
  }
  try {
    const r = await api("GET", `/api/door/lookup?q=${encodeURIComponent(q)}`);
    if (r.guests.length === 0) {
      list.replaceChildren(h("li", { class: "muted" }, `Nobody called “${q}” is on the list.`));
      return;
    }
    list.replaceChildren(...r.guests.map(searchRow));
    if (r.total > r.guests.length) list.append(h("li", { class: "muted" }, `${r.total - r.guests.length} more: type more of the name.`));
  } catch (err) {
    list.replaceChildren(h("li", { class: "error" }, err.message));
  }
}

function searchRow(g) {
  const status = g.checkedInAt ? `in since ${time(g.checkedInAt)}` : g.status === "coming" ? `coming, ${g.numGuests}` : g.status === "declined" ? "declined" : "not answered";
  return h("li", { class: "door-search-row", dataset: { id: g.id } },
    h("span", { class: "name" }, `${g.firstName} ${g.lastName}`, " ", h("small", { class: "muted" }, status)),
    g.checkedInAt
      ? h("span", { class: "badge ok" }, "✓ in")
      : h("button", { type: "button", class: "primary", onclick: () => checkIn({ guestId: g.id }) }, "Check in"));
}

function time(iso) {
  return iso ? new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }) : "";
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
    showError("The camera is not available here: type the code instead.", "No camera");
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
