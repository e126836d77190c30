// Walk-ins at the door (docs/DOOR.md, "Walk-ins"): door staff add a person who is not
// on the list — a walk-in, or a friend an invitation was forwarded to — with a first
// and last name, optionally with a guest whose group they join ("friend of Anna") and
// their allergies or diet. barhub adds them as coming, checks them in, and the door
// shows their own code and a QR code of the sign-in link to scan with their phone.
// Each walk-in carries an Idempotency-Key made when it was typed: added while the
// network is down it is kept on the device and sent when it is back, and however
// often it is sent the person is added once; the code shows when it arrives.
import { api, ApiError, auth } from "./api.js";
import { h, newKey } from "./bar-common.js";
import { formatTime, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const QUEUE_KEY = "barhub.door.walkins";

const state = { groupOf: "", sending: false, flushing: false, sent: [], lookup: 0 };

if ($("walkin") && auth()) start();

function start() {
  $("walkin-open").addEventListener("click", () => openForm(true));
  $("walkin-cancel").addEventListener("click", () => openForm(false));
  $("walkin-done").addEventListener("click", () => {
    $("walkin-result").hidden = true;
    $("walkin-open").hidden = false;
  });
  $("walkin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    submit();
  });
  $("walkin-with").addEventListener("input", () => {
    clearTimeout(state.lookup);
    state.lookup = setTimeout(lookUp, 250);
  });
  $("walkin-with-clear").addEventListener("click", () => chooseGroup(null));
  globalThis.addEventListener("online", flush);
  setInterval(flush, 5000);
  renderQueue();
  flush();
}

function openForm(open) {
  $("walkin-form").hidden = !open;
  $("walkin-open").hidden = open;
  $("walkin-error").hidden = true;
  if (open) {
    $("walkin-result").hidden = true;
    $("walkin-first").focus();
  } else {
    $("walkin-form").reset();
    chooseGroup(null);
  }
}

async function lookUp() {
  const q = $("walkin-with").value.trim();
  const list = $("walkin-with-results");
  if (q.length < 2) {
    list.replaceChildren();
    return;
  }
  try {
    const r = await api("GET", `/api/door/lookup?q=${encodeURIComponent(q)}`);
    list.replaceChildren(...r.guests.slice(0, 5).map((g) => h("li", {},
      h("button", { type: "button", class: "quiet", onclick: () => chooseGroup(g) }, `${g.firstName} ${g.lastName}`.trim()))));
  } catch (err) {
    list.replaceChildren(h("li", { class: "error" }, err.message));
  }
}

function chooseGroup(g) {
  state.groupOf = g ? g.id : "";
  $("walkin-with-results").replaceChildren();
  $("walkin-with").value = "";
  $("walkin-with").hidden = !!g;
  $("walkin-with-chosen").hidden = !g;
  $("walkin-with-name").textContent = g ? t("door.walkin.withName", { name: `${g.firstName} ${g.lastName}`.trim() }) : "";
}

async function submit() {
  if (state.sending) return;
  const first = $("walkin-first").value.trim();
  const last = $("walkin-last").value.trim();
  if (!first || !last) {
    $("walkin-error").textContent = t("door.walkin.namesNeeded");
    $("walkin-error").hidden = false;
    return;
  }
  const body = { firstName: first, lastName: last, needs: $("walkin-needs").value.trim() };
  if (state.groupOf) body.groupOf = state.groupOf;
  // The key is made once, here: a retry or a later sending from the queue reuses it.
  const entry = { key: newKey(), body, at: new Date().toISOString() };
  state.sending = true;
  $("walkin-submit").disabled = true;
  try {
    const r = await send(entry);
    openForm(false);
    showResult(r);
  } catch (err) {
    if (err instanceof ApiError && err.status === 0) {
      // The network, not the person: keep them and add them when it is back.
      const q = loadQueue();
      q.push(entry);
      saveQueue(q);
      openForm(false);
      renderQueue();
    } else {
      $("walkin-error").textContent = err.message;
      $("walkin-error").hidden = false;
    }
  } finally {
    state.sending = false;
    $("walkin-submit").disabled = false;
  }
}

function send(entry) {
  return api("POST", "/api/door/walkins", entry.body, { headers: { "Idempotency-Key": entry.key } });
}

function showResult(r) {
  $("walkin-result").hidden = false;
  $("walkin-open").hidden = false;
  $("walkin-name").textContent = t("door.walkin.welcome", { name: `${r.guest.firstName} ${r.guest.lastName}`.trim() });
  $("walkin-detail").textContent = r.guest.checkedInAt ? t("door.checkedInAt", { time: formatTime(r.guest.checkedInAt) }) : "";
  $("walkin-qr").src = r.qr;
  $("walkin-code").textContent = r.code;
  $("walkin-result").dataset.code = r.code;
}

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

function renderQueue() {
  const q = loadQueue();
  $("walkin-queue-box").hidden = q.length === 0 && state.sent.length === 0;
  $("walkin-queue-title").textContent = q.length ? t("door.walkin.queueTitle") : t("door.walkin.queueSent");
  $("walkin-queue").replaceChildren(
    ...q.map((e) => h("li", { class: "door-queue-row pending", dataset: { key: e.key } },
      h("span", { class: "name" }, `${e.body.firstName} ${e.body.lastName}`), " ",
      h("small", { class: "muted" }, t("door.scannedAt", { time: formatTime(e.at) })), " ",
      h("span", { class: "badge warn" }, t("door.badgeNotSent")))),
    ...state.sent.map((s) => h("li", { class: `door-queue-row sent level-${s.r ? "ok" : "error"}` },
      h("span", { class: "name" }, s.r ? `${s.r.guest.firstName} ${s.r.guest.lastName} · ${s.r.code}` : s.message), " ",
      s.r && h("button", { type: "button", onclick: () => showResult(s.r) }, t("door.walkin.showCode")))));
}

// flush sends the kept walk-ins, oldest first, each with its own key, so one sent twice
// (two tabs, a reply lost on the way back) is still one person; it stops at the first
// that cannot get through, to try again later.
async function flush() {
  if (state.flushing) return;
  let q = loadQueue();
  if (q.length === 0) return;
  state.flushing = true;
  try {
    while (q.length > 0) {
      const e = q[0];
      try {
        const r = await send(e);
        state.sent.unshift({ r });
        if ($("walkin-form").hidden) showResult(r);
      } catch (err) {
        if (err instanceof ApiError && err.status === 0) break; // still down
        state.sent.unshift({ message: `${e.body.firstName} ${e.body.lastName}: ${err.message}` });
      }
      q = loadQueue().filter((x) => x.key !== e.key);
      saveQueue(q);
      state.sent = state.sent.slice(0, 10);
      renderQueue();
    }
  } finally {
    state.flushing = false;
    renderQueue();
  }
}
