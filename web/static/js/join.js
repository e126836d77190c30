// The public registration page (/join, docs/REGISTRATION.md). The form asks the server
// for a signed challenge and solves it here (a nonce such that sha256(challenge || nonce)
// starts with the challenge's zero bits) before it sends: a second or so on a phone, a
// real cost for a script registering thousands. After registering, the page shows where
// the person stands (/join?r=<link>), kept in this browser, and follows it. With e-mail
// set up, the server answers "unconfirmed" without the link: the link comes by e-mail,
// and opening it here confirms the registration.
import { api } from "./api.js";
import { t, formatDate } from "./i18n.js";
import { solve } from "./pow.js";

const KEY_REG = "barhub.registration";
const $ = (id) => document.getElementById(id);
const form = $("join-form");
const statusBox = $("join-status");
const errorBox = $("join-error");

function show(el, on) {
  el.hidden = !on;
}

function fail(box, message) {
  box.textContent = message;
  box.hidden = false;
}

function words(value) {
  return value.split(",").map((w) => w.trim()).filter(Boolean);
}

// The event this page registers for, when the link names one (/join?event=<id>):
// every call and address of the page keeps it (docs/EVENTS.md).
const eventParam = new URLSearchParams(location.search).get("event");
const inEvent = (path) => (eventParam ? `${path}${path.includes("?") ? "&" : "?"}event=${encodeURIComponent(eventParam)}` : path);
let token = new URLSearchParams(location.search).get("r") || localStorage.getItem(KEY_REG) || "";
let timer = 0;

function render(v) {
  show(form, false);
  show(statusBox, true);
  statusBox.dataset.status = v.status;
  const until = v.offeredUntil ? formatDate(v.offeredUntil, { dateStyle: "medium", timeStyle: "short" }) : "";
  // An expired registration that was never confirmed is not an offer that passed.
  const key = v.status === "expired" && v.confirmBy ? "join.status.confirmExpired" : `join.status.${v.status}`;
  $("join-status-text").textContent = t(key, { position: v.position || 0, time: until, name: v.firstName });
  show($("join-code"), Boolean(v.code));
  $("join-code").textContent = v.code || "";
  show($("join-qr"), Boolean(v.qr));
  // The QR code is the server's own SVG of the sign-in link.
  $("join-qr").innerHTML = v.qr || "";
  show($("join-signin"), Boolean(v.code));
  if (v.code) $("join-signin").href = `/login?code=${encodeURIComponent(v.code)}`;
  show($("join-accept"), v.status === "offered");
  show($("join-cancel"), ["pending", "waiting", "offered", "placed"].includes(v.status));
}

async function refresh() {
  clearTimeout(timer);
  try {
    let v = await api("GET", inEvent(`/api/register/${encodeURIComponent(token)}`));
    if (v.status === "unconfirmed") {
      // Only the e-mail carries this link: opening it is the confirmation.
      $("join-status-text").textContent = t("join.confirming");
      v = await api("POST", inEvent(`/api/register/${encodeURIComponent(token)}/confirm`));
      localStorage.setItem(KEY_REG, token);
    }
    render(v);
    // Where one stands changes when someone else gives a place back.
    timer = setTimeout(refresh, 10000);
  } catch (err) {
    if (err.status === 404) {
      localStorage.removeItem(KEY_REG);
      token = "";
      return start();
    }
    fail($("join-status-error"), err.message);
    timer = setTimeout(refresh, 30000);
  }
}

async function start() {
  clearTimeout(timer);
  show(statusBox, false);
  const event = await api("GET", inEvent("/api/event")).catch(() => null);
  if (event?.eventName) $("join-event").textContent = event.eventName;
  if (token) return refresh();
  if (!event || (event.registration !== "open" && event.registration !== "approval")) {
    $("join-notice").textContent = t("join.closed");
    show($("join-notice"), true);
    return;
  }
  show($("join-approval"), event.registration === "approval");
  show(form, true);
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  errorBox.hidden = true;
  const submit = $("join-submit");
  submit.disabled = true;
  submit.textContent = t("join.working");
  try {
    const c = await api("GET", inEvent("/api/register/challenge"));
    const nonce = await solve(c.challenge, c.bits);
    const v = await api("POST", inEvent("/api/register"), {
      firstName: $("join-first").value,
      lastName: $("join-last").value,
      email: $("join-email").value.trim(),
      plusOnes: Number($("join-plus").value || 0),
      needs: $("join-needs").value,
      likes: words($("join-likes").value),
      alcoholFree: $("join-alcohol-free").checked,
      challenge: c.challenge,
      nonce,
    });
    if (v.duplicate) {
      fail(errorBox, t("join.duplicate"));
      return;
    }
    if (!v.token) {
      // Unconfirmed: the link to confirm is in the person's e-mail.
      render(v);
      return;
    }
    token = v.token;
    localStorage.setItem(KEY_REG, token);
    history.replaceState(null, "", inEvent(`/join?r=${encodeURIComponent(token)}`));
    render(v);
    timer = setTimeout(refresh, 10000);
  } catch (err) {
    fail(errorBox, err.message);
  } finally {
    submit.disabled = false;
    submit.textContent = t("join.submit");
  }
});

$("join-accept").addEventListener("click", async () => {
  try {
    render(await api("POST", inEvent(`/api/register/${encodeURIComponent(token)}/accept`)));
  } catch (err) {
    fail($("join-status-error"), err.message);
    refresh();
  }
});

$("join-cancel").addEventListener("click", async () => {
  if (!confirm(t("join.cancelConfirm"))) return;
  try {
    render(await api("POST", inEvent(`/api/register/${encodeURIComponent(token)}/cancel`)));
  } catch (err) {
    fail($("join-status-error"), err.message);
  }
});

$("join-another").addEventListener("click", () => {
  localStorage.removeItem(KEY_REG);
  token = "";
  history.replaceState(null, "", inEvent("/join"));
  form.reset();
  start();
});

start();
