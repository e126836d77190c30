// The RSVP on the guest's phone (docs/DESIGN.md, flow 2): how many are coming,
// "who is not coming?" when fewer than invited, "are you sure?" when more,
// declining for oneself or the whole group, and the dietary and taste
// answers. The server applies the same rules; its 422 answers are shown in
// the dialogs too, so the page never needs to be cleverer than it.
import { api, ApiError } from "./api.js";

const TASTES = ["sour", "sweet", "bitter", "fresh", "fruity", "herbal", "spicy", "smoky", "creamy", "strong"];
const COMMON_NEEDS = ["nuts", "gluten", "milk", "vegan", "vegetarian", "alcohol-free"];
const MAX_PARTY = 50;

const $ = (id) => document.getElementById(id);

let view = null; // the last GET/PUT /api/rsvp answer
let count = 1;
let formatWhen = (iso) => iso;
let onChange = () => {};
let countdownTimer = 0;

export function startRSVP(initial, options = {}) {
  formatWhen = options.formatWhen || formatWhen;
  onChange = options.onChange || onChange;
  buildChips();
  wire();
  render(initial);
  fillPrefs(initial.guest);
}

function fullName(m) {
  return [m.firstName, m.lastName].filter(Boolean).join(" ");
}

// people describes a member with the ones they bring: "Mia (+2)".
function people(m) {
  return m.expectedGuests > 1 ? `${m.firstName} (+${m.expectedGuests - 1})` : m.firstName;
}

function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function render(v) {
  view = v;
  const group = v.group || [];
  const alone = group.length <= 1;
  const me = v.guest;

  $("rsvp-for").textContent = alone
    ? v.expectedTotal > 1
      ? `This invitation is for you and ${plural(v.expectedTotal - 1, "more person", "more people")}: ${v.expectedTotal} in all.`
      : "This invitation is for you."
    : `This invitation is for ${listNames(group.map(people))}: ${v.expectedTotal} people in all.`;
  $("rsvp-yes").textContent = v.expectedTotal > 1 ? "Yes, we're coming" : "Yes, I'm coming";
  $("rsvp-no").textContent = v.expectedTotal > 1 ? "Sorry, we can't come" : "Sorry, I can't come";
  count = me.status === "coming" && v.comingTotal > 0 ? v.comingTotal : v.expectedTotal;
  renderCount();

  const answered = me.status !== "pending" || group.some((m) => m.status !== "pending");
  $("rsvp-summary").hidden = !answered;
  $("rsvp-form").hidden = answered;
  if (answered) renderSummary(v);
  renderDeadline();
}

function statusText(m) {
  switch (m.status) {
    case "coming":
      return m.numGuests > 1 ? `coming, ${m.numGuests} people` : "coming";
    case "declined":
      return "not coming";
    default:
      return "has not answered yet";
  }
}

function renderSummary(v) {
  const me = v.guest;
  let text;
  if (me.status === "coming") {
    text = v.comingTotal > 1 ? `You're coming: ${v.comingTotal} people in all.` : "You're coming.";
  } else if (me.status === "declined") {
    text = v.comingTotal > 0 ? `You're not coming; ${plural(v.comingTotal, "person", "people")} from your invitation are.` : "You're not coming.";
  } else {
    text = "Someone answered for part of your invitation.";
  }
  $("rsvp-summary-text").textContent = text;
  const list = $("rsvp-members");
  list.replaceChildren();
  if ((v.group || []).length > 1) {
    for (const m of v.group) {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = m.id === me.id ? `${m.firstName} (you)` : fullName(m);
      const badge = document.createElement("span");
      badge.className = `badge ${m.status === "coming" ? "ok" : m.status === "declined" ? "bad" : ""}`;
      badge.textContent = statusText(m);
      li.append(name, badge);
      list.append(li);
    }
  }
  list.hidden = (v.group || []).length <= 1;
}

function renderCount() {
  $("count").textContent = String(count);
  $("count-down").disabled = count <= 1;
  $("count-up").disabled = count >= MAX_PARTY;
  const total = view?.expectedTotal || 1;
  let hint = count === 1 ? "person, you included" : "people, you included";
  if (count < total) hint += ` · ${total - count} fewer than invited`;
  if (count > total) hint += ` · ${count - total} more than invited`;
  $("count-hint").textContent = hint;
}

// renderDeadline shows when answers close, counting down; after it the
// form is closed and the guest is sent to the host.
function renderDeadline() {
  clearTimeout(countdownTimer);
  const box = $("deadline");
  const ev = view.event || {};
  if (!ev.rsvpDeadline) {
    box.hidden = true;
    return;
  }
  const left = new Date(ev.rsvpDeadline).getTime() - Date.now();
  box.hidden = false;
  const closed = left <= 0 || view.deadlinePassed;
  box.classList.toggle("passed", closed);
  if (closed) {
    box.textContent = "The RSVP deadline has passed. To change your answer, contact the host.";
    for (const id of ["rsvp-yes", "rsvp-no", "count-up", "count-down", "rsvp-change", "prefs-save"]) $(id).disabled = true;
    return;
  }
  const when = formatWhen(ev.rsvpDeadline, ev.timezone, { weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
  box.textContent = `Please answer by ${when} (${remaining(left)} left).`;
  countdownTimer = setTimeout(renderDeadline, left < 3600e3 ? 1000 : 30000);
}

function remaining(ms) {
  const min = Math.floor(ms / 60000);
  const days = Math.floor(min / 1440);
  const hours = Math.floor((min % 1440) / 60);
  if (days >= 2) return `${days} days`;
  if (days === 1) return hours ? `1 day ${plural(hours, "hour", "hours")}` : "1 day";
  if (hours >= 1) return `${plural(hours, "hour", "hours")} ${plural(min % 60, "minute", "minutes")}`;
  if (min >= 1) return plural(min, "minute", "minutes");
  return `${Math.max(1, Math.floor(ms / 1000))} seconds`;
}

function showError(id, err) {
  const box = $(id);
  box.textContent = err ? err.message || String(err) : "";
  box.hidden = !err;
}

// answer sends an RSVP and shows the confirmation. It returns the error
// for the dialog that asked, or null. It sends the groupVersion of the
// group as shown: if someone in the group answered meanwhile, the server
// refuses with group_changed and the group as it is now, which the page
// shows instead, so nobody overrides an answer they have not seen.
async function answer(body) {
  const prefs = readPrefs();
  showError("rsvp-notice", null);
  try {
    const v = await api("PUT", "/api/rsvp", { ...body, ...prefs, groupVersion: view.groupVersion });
    render(v);
    onChange(v);
    const done = $("rsvp-done");
    $("rsvp-done-text").textContent = v.message || "Thank you!";
    done.hidden = false;
    done.scrollIntoView({ block: "center", behavior: "smooth" });
    showError("rsvp-error", null);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.code === "group_changed" && err.details?.group) {
      render(err.details);
      onChange(err.details);
      $("rsvp-done").hidden = true;
      showError("rsvp-notice", err);
      $("rsvp-notice").scrollIntoView({ block: "center", behavior: "smooth" });
      for (const id of ["who-dialog", "more-dialog", "decline-dialog"]) if ($(id).open) $(id).close("changed");
      return null;
    }
    if (err instanceof ApiError && err.status === 409) renderDeadline();
    return err;
  }
}

function wire() {
  $("count-down").addEventListener("click", () => {
    count = Math.max(1, count - 1);
    renderCount();
  });
  $("count-up").addEventListener("click", () => {
    count = Math.min(MAX_PARTY, count + 1);
    renderCount();
  });
  $("rsvp-change").addEventListener("click", () => {
    $("rsvp-summary").hidden = true;
    $("rsvp-done").hidden = true;
    $("rsvp-form").hidden = false;
    $("rsvp-yes").focus();
  });

  $("rsvp-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const total = view.expectedTotal;
    const group = view.group || [];
    if (count < total && group.length > 1) return askWhoIsNotComing();
    if (count > total) return askSure();
    await sendFromForm({ status: "coming", numGuests: count });
  });

  $("rsvp-no").addEventListener("click", async () => {
    if ((view.group || []).length > 1) {
      $("decline-text").textContent = `Your invitation is for ${listNames(view.group.map((m) => m.firstName))}.`;
      showError("decline-error", null);
      $("decline-dialog").showModal();
      return;
    }
    await sendFromForm({ status: "declined" });
  });

  dialog("who-dialog", "who-error", async () => {
    const notComing = [...document.querySelectorAll("#who-list input:checked")].map((el) => el.value);
    if (notComing.length === 0) return new Error("Tick everyone who is not coming.");
    return answer({ status: "coming", numGuests: count, notComing, confirm: count > comingBase(notComing) });
  });
  dialog("more-dialog", "more-error", () => answer({ status: "coming", numGuests: count, confirm: true }));
  dialog("decline-dialog", "decline-error", (value) => answer({ status: "declined", scope: value }));

  $("prefs-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const btn = $("prefs-save");
    btn.disabled = true;
    try {
      const v = await api("PUT", "/api/rsvp", readPrefs());
      view = v;
      fillPrefs(v.guest);
      showError("prefs-error", null);
      const status = $("prefs-status");
      status.textContent = "✓ Saved. Thank you!";
      status.hidden = false;
    } catch (err) {
      showError("prefs-error", err);
      $("prefs-status").hidden = true;
    } finally {
      btn.disabled = view?.deadlinePassed || false;
    }
  });
}

// comingBase is how many people come when the named members stay home.
function comingBase(notComing) {
  return (view.group || []).filter((m) => !notComing.includes(m.id)).reduce((n, m) => n + Math.max(1, m.expectedGuests), 0);
}

async function sendFromForm(body) {
  const buttons = [$("rsvp-yes"), $("rsvp-no")];
  buttons.forEach((b) => (b.disabled = true));
  const err = await answer(body);
  buttons.forEach((b) => (b.disabled = view?.deadlinePassed || false));
  if (err) {
    // The server asks its own questions when the page could not (the
    // group changed meanwhile): answer them in the dialogs.
    if (err.code === "who_is_not_coming") return askWhoIsNotComing();
    if (err.code === "confirm_more") return askSure();
    showError("rsvp-error", err);
  }
}

// dialog wires a <dialog>'s form: its submit button's value goes to send,
// which returns an error to show in the dialog or null to close it.
function dialog(id, errorId, send) {
  const dlg = $(id);
  dlg.querySelector("form").addEventListener("submit", async (event) => {
    const value = event.submitter?.value || "ok";
    if (value === "cancel") return; // method="dialog" closes it
    event.preventDefault();
    const buttons = [...dlg.querySelectorAll("button")];
    buttons.forEach((b) => (b.disabled = true));
    const err = await send(value);
    buttons.forEach((b) => (b.disabled = false));
    if (err) {
      showError(errorId, err);
      return;
    }
    dlg.close(value);
  });
}

function askWhoIsNotComing() {
  const total = view.expectedTotal;
  $("who-text").textContent = `You said ${count} of the ${total} people invited are coming. Tick who is not coming:`;
  const list = $("who-list");
  list.replaceChildren();
  const legend = document.createElement("legend");
  legend.className = "visually-hidden";
  legend.textContent = "Not coming";
  list.append(legend);
  for (const m of view.group) {
    const label = document.createElement("label");
    label.className = "choice";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = m.id;
    box.name = "notComing";
    const name = document.createElement("span");
    name.textContent = m.id === view.guest.id ? `${m.firstName} (me)` : fullName(m);
    if (m.expectedGuests > 1) {
      const small = document.createElement("small");
      small.textContent = ` and ${plural(m.expectedGuests - 1, "person", "people")} with them`;
      name.append(small);
    }
    label.append(box, name);
    list.append(label);
  }
  showError("who-error", null);
  $("who-dialog").showModal();
}

function askSure() {
  const total = view.expectedTotal;
  $("more-text").textContent = `That is ${count} people, ${plural(count - total, "more person", "more people")} than the ${total} invited. The host will see it.`;
  $("more-ok").textContent = `Yes, ${count} of us are coming`;
  showError("more-error", null);
  $("more-dialog").showModal();
}

// ---- Dietary needs and tastes ------------------------------------------------------

function chip(container, value, name) {
  const label = document.createElement("label");
  label.className = "chip";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.value = value;
  box.name = name;
  const text = document.createElement("span");
  text.textContent = value;
  label.append(box, text);
  container.append(label);
  return box;
}

function buildChips() {
  for (const t of COMMON_NEEDS) chip($("dietary-tags"), t, "dietaryTag");
  for (const t of TASTES) {
    const like = chip($("likes"), t, "like");
    const dislike = chip($("dislikes"), t, "dislike");
    // Liking and disliking the same taste makes no sense: one clears the other.
    like.addEventListener("change", () => like.checked && (dislike.checked = false));
    dislike.addEventListener("change", () => dislike.checked && (like.checked = false));
  }
}

function checked(name) {
  return [...document.querySelectorAll(`input[name="${name}"]:checked`)].map((el) => el.value);
}

function readPrefs() {
  return {
    dietary: { text: $("dietary").value.trim(), tags: checked("dietaryTag") },
    tastes: { likes: checked("like"), dislikes: checked("dislike"), alcoholFree: $("alcohol-free").checked },
  };
}

function fillPrefs(g) {
  const tags = g.dietary?.tags || [];
  $("dietary").value = g.dietary?.text || "";
  for (const el of document.querySelectorAll('input[name="dietaryTag"]')) el.checked = tags.includes(el.value);
  const likes = g.tastes?.likes || [];
  const dislikes = g.tastes?.dislikes || [];
  for (const el of document.querySelectorAll('input[name="like"]')) el.checked = likes.includes(el.value);
  for (const el of document.querySelectorAll('input[name="dislike"]')) el.checked = dislikes.includes(el.value);
  $("alcohol-free").checked = !!g.tastes?.alcoholFree;
}
