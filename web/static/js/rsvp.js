// The RSVP on the guest's phone (docs/DESIGN.md, flow 2): how many are coming,
// "who is not coming?" when fewer than invited, "are you sure?" when more,
// declining for oneself or the whole group, and the dietary and taste
// answers. The server applies the same rules; its 422 answers are shown in
// the dialogs too, so the page never needs to be cleverer than it.
import { api, ApiError } from "./api.js";
import { formatList, t } from "./i18n.js";

const TASTES = ["sour", "sweet", "bitter", "fresh", "fruity", "herbal", "spicy", "smoky", "creamy", "strong"];
// The needs a guest taps, in words a guest knows: the EU's fourteen
// allergens as the menu names them, the diets, and no alcohol. Anything
// else goes in the person's own words, which the server reads too.
const NEEDS = [
  "nuts", "peanuts", "milk", "eggs", "gluten", "soy", "fish", "crustaceans", "molluscs", "sesame", "celery", "mustard",
  "sulphites", "lupin", "vegan", "vegetarian", "halal", "kosher", "alcohol-free",
].map((value) => [value, t(`need.${value}`)]);
const NEED_LABEL = Object.fromEntries(NEEDS);
const COMMON = ["nuts", "peanuts", "milk", "gluten", "eggs", "vegan", "alcohol-free"];
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
  fillPrefs(initial);
}

// setEvent takes the event as the host changed it (event.changed): a new answer
// deadline shows, or closes the form, at once.
export function setEvent(event) {
  if (!view || !event) return;
  const wasClosed = view.deadlinePassed;
  view = { ...view, event, deadlinePassed: event.deadlinePassed };
  // A later deadline opens the answers again.
  if (wasClosed && !view.deadlinePassed) {
    for (const id of ["rsvp-yes", "rsvp-no", "rsvp-change", "prefs-save"]) $(id).disabled = false;
    renderCount();
  }
  renderDeadline();
}

function fullName(m) {
  return [m.firstName, m.lastName].filter(Boolean).join(" ");
}

// people describes a member with the ones they bring: "Mia (+2)".
function people(m) {
  return m.expectedGuests > 1 ? `${m.firstName} (+${m.expectedGuests - 1})` : m.firstName;
}

// doneText thanks the guest for an answer, in the page's language; the
// server's English message says the same.
function doneText(v) {
  const group = v.group || [];
  if (v.guest?.status === "coming") {
    return v.comingTotal > 1 ? t("rsvp.done.comingN", { count: v.comingTotal }) : t("rsvp.done.coming");
  }
  if (v.guest?.status === "declined") {
    return group.length > 1 && group.every((m) => m.status === "declined") ? t("rsvp.done.declinedAll") : t("rsvp.done.declined");
  }
  return t("rsvp.saved");
}

function listNames(names) {
  return formatList(names);
}

function render(v) {
  view = v;
  const group = v.group || [];
  const alone = group.length <= 1;
  const me = v.guest;

  $("rsvp-for").textContent = alone
    ? v.expectedTotal > 1
      ? t("rsvp.forYouAndMore", { count: v.expectedTotal - 1, total: v.expectedTotal })
      : t("rsvp.forYou")
    : t("rsvp.forGroup", { names: listNames(group.map(people)), total: v.expectedTotal });
  $("rsvp-yes").textContent = v.expectedTotal > 1 ? t("rsvp.yesWe") : t("rsvp.yes");
  $("rsvp-no").textContent = v.expectedTotal > 1 ? t("rsvp.noWe") : t("rsvp.no");
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
      return m.numGuests > 1 ? t("rsvp.state.comingN", { count: m.numGuests }) : t("rsvp.state.coming");
    case "declined":
      return t("rsvp.state.notComing");
    default:
      return t("rsvp.state.pending");
  }
}

function renderSummary(v) {
  const me = v.guest;
  let text;
  if (me.status === "coming") {
    text = v.comingTotal > 1 ? t("rsvp.summary.comingN", { count: v.comingTotal }) : t("rsvp.summary.coming");
  } else if (me.status === "declined") {
    text = v.comingTotal > 0 ? t("rsvp.summary.notComingOthers", { count: v.comingTotal }) : t("rsvp.summary.notComing");
  } else {
    text = t("rsvp.summary.partly");
  }
  $("rsvp-summary-text").textContent = text;
  const list = $("rsvp-members");
  list.replaceChildren();
  if ((v.group || []).length > 1) {
    for (const m of v.group) {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = m.id === me.id ? t("rsvp.you", { name: m.firstName }) : fullName(m);
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
  let hint = t("rsvp.hint.included", { count });
  if (count < total) hint += " · " + t("rsvp.hint.fewer", { n: total - count });
  if (count > total) hint += " · " + t("rsvp.hint.more", { n: count - total });
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
    box.textContent = t("rsvp.deadlinePassed");
    for (const id of ["rsvp-yes", "rsvp-no", "count-up", "count-down", "rsvp-change", "prefs-save"]) $(id).disabled = true;
    return;
  }
  const when = formatWhen(ev.rsvpDeadline, ev.timezone, { weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
  box.textContent = t("rsvp.answerBy", { when, left: remaining(left) });
  countdownTimer = setTimeout(renderDeadline, left < 3600e3 ? 1000 : 30000);
}

function remaining(ms) {
  const min = Math.floor(ms / 60000);
  const days = Math.floor(min / 1440);
  const hours = Math.floor((min % 1440) / 60);
  if (days >= 2) return t("rsvp.days", { count: days });
  if (days === 1) return hours ? `${t("rsvp.days", { count: 1 })} ${t("rsvp.hours", { count: hours })}` : t("rsvp.days", { count: 1 });
  if (hours >= 1) return `${t("rsvp.hours", { count: hours })} ${t("rsvp.minutes", { count: min % 60 })}`;
  if (min >= 1) return t("rsvp.minutes", { count: min });
  return t("rsvp.seconds", { count: Math.max(1, Math.floor(ms / 1000)) });
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
    $("rsvp-done-text").textContent = doneText(v);
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
      $("decline-text").textContent = t("rsvp.decline.text", { names: listNames(view.group.map((m) => m.firstName)) });
      showError("decline-error", null);
      $("decline-dialog").showModal();
      return;
    }
    await sendFromForm({ status: "declined" });
  });

  dialog("who-dialog", "who-error", async () => {
    const notComing = [...document.querySelectorAll("#who-list input:checked")].map((el) => el.value);
    if (notComing.length === 0) return new Error(t("rsvp.who.tick"));
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
      fillPrefs(v);
      // The menu's "for whom" reads the people again (a child now, a new name).
      document.dispatchEvent(new CustomEvent("barhub:people-changed"));
      showError("prefs-error", null);
      const status = $("prefs-status");
      status.textContent = t("rsvp.saved");
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
  $("who-text").textContent = t("rsvp.who.text", { n: count, total });
  const list = $("who-list");
  list.replaceChildren();
  const legend = document.createElement("legend");
  legend.className = "visually-hidden";
  legend.textContent = t("rsvp.state.notComingTitle");
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
      small.textContent = " " + t("rsvp.who.withThem", { count: m.expectedGuests - 1 });
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
  $("more-text").textContent = t("rsvp.more.text", { n: count, count: count - total, total });
  $("more-ok").textContent = t("rsvp.more.okN", { n: count });
  showError("more-error", null);
  $("more-dialog").showModal();
}

// ---- Dietary needs and tastes ------------------------------------------------------

function chip(container, value, name, text = value) {
  const label = document.createElement("label");
  label.className = "chip";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.value = value;
  box.name = name;
  const span = document.createElement("span");
  span.textContent = text;
  label.append(box, span);
  container.append(label);
  return box;
}

function buildChips() {
  for (const taste of TASTES) {
    const like = chip($("likes"), taste, "like", t(`taste.${taste}`));
    const dislike = chip($("dislikes"), taste, "dislike", t(`taste.${taste}`));
    // Liking and disliking the same taste makes no sense: one clears the other.
    like.addEventListener("change", () => like.checked && (dislike.checked = false));
    dislike.addEventListener("change", () => dislike.checked && (like.checked = false));
  }
}

function checked(name, root = document) {
  return [...root.querySelectorAll(`input[name="${name}"]:checked`)].map((el) => el.value);
}

// editors are the needs blocks on the page: {kind: "me"|"companion"|"member", id, el}.
let editors = [];

// needsEditor is one person's block: the choices to tap, their own words,
// and what the server read in those words, shown back to confirm ("We
// read: nuts. Right?"), with the words it did not understand, which go to
// the host. The signed-in guest's block keeps the ids #dietary,
// #dietary-tags and #dietary-read.
function needsEditor(key, title, dietary, withName) {
  const me = key === "me";
  const box = document.createElement("fieldset");
  box.className = "field needs";
  box.dataset.person = key;
  const legend = document.createElement("legend");
  legend.textContent = title;
  box.append(legend);
  if (withName !== undefined) {
    const name = document.createElement("input");
    name.type = "text";
    name.className = "companion-name";
    name.maxLength = 60;
    name.placeholder = t("rsvp.needs.namePlaceholder");
    name.value = withName;
    name.setAttribute("aria-label", t("rsvp.needs.nameLabel", { title }));
    box.append(name);
  }
  const chips = document.createElement("div");
  chips.className = "chips";
  chips.setAttribute("role", "group");
  chips.setAttribute("aria-label", t("rsvp.needs.cannotHave", { title }));
  if (me) chips.id = "dietary-tags";
  const chipName = me ? "dietaryTag" : `need-${key}`;
  // The common ones in sight, the rest of the fourteen and the diets one
  // tap away, so the page stays short on a phone.
  const more = document.createElement("details");
  more.className = "more-needs";
  const moreSummary = document.createElement("summary");
  moreSummary.textContent = t("rsvp.needs.more");
  const moreChips = document.createElement("div");
  moreChips.className = "chips";
  more.append(moreSummary, moreChips);
  for (const [value, text] of NEEDS) chip(COMMON.includes(value) ? chips : moreChips, value, chipName, text);
  chips.append(more);
  const text = document.createElement("textarea");
  text.maxLength = 500;
  text.rows = 2;
  text.placeholder = t("rsvp.needs.textPlaceholder");
  text.setAttribute("aria-label", t("rsvp.needs.textLabel", { title }));
  if (me) text.id = "dietary";
  text.className = "needs-text";
  const read = document.createElement("div");
  read.className = "we-read";
  read.setAttribute("aria-live", "polite");
  read.hidden = true;
  if (me) read.id = "dietary-read";
  box.append(chips, text, read);
  fillNeeds(box, dietary);
  let timer = 0;
  text.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => readBack(box), 500);
  });
  return box;
}

function fillNeeds(box, dietary) {
  const tags = dietary?.tags || [];
  box.querySelector("textarea").value = dietary?.text || "";
  for (const el of box.querySelectorAll(".chips input")) el.checked = tags.includes(el.value);
  box.querySelector(".more-needs").open = tags.some((t) => !COMMON.includes(t));
  box.answered = new Set(dietary?.answered || []);
  showRead(box, { tags: [], unclear: dietary?.reviewed ? [] : (dietary?.unclear || []).filter((u) => !box.answered.has(u)) });
}

// readBack asks the server what it reads in the words typed so far.
async function readBack(box) {
  const text = box.querySelector("textarea").value.trim();
  if (!text) return showRead(box, { tags: [], unclear: [] });
  try {
    showRead(box, await api("POST", "/api/dietary/read", { text }));
  } catch {
    // The preview is a help; saving reads the words anyway.
  }
}

// showRead shows what was read and not yet ticked, to confirm with one tap,
// and what was not understood.
function showRead(box, reading) {
  const out = box.querySelector(".we-read");
  out.replaceChildren();
  const ticked = new Set([...box.querySelectorAll(".chips:not(.unread-chips) input:checked")].map((el) => el.value));
  const fresh = reading.tags.filter((t) => !ticked.has(t));
  if (fresh.length) {
    const p = document.createElement("p");
    p.append(t("rsvp.needs.weRead") + " ");
    for (const t of fresh) {
      const c = document.createElement("span");
      c.className = "chip-read";
      c.textContent = NEED_LABEL[t] || t;
      p.append(c, " ");
    }
    p.append(t("rsvp.needs.right") + " ");
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "read-yes";
    yes.textContent = t("rsvp.needs.addThem");
    yes.addEventListener("click", () => {
      for (const el of box.querySelectorAll(".chips:not(.unread-chips) input")) if (fresh.includes(el.value)) el.checked = true;
      if (fresh.some((t) => !COMMON.includes(t))) box.querySelector(".more-needs").open = true;
      showRead(box, { tags: [], unclear: reading.unclear });
    });
    p.append(yes);
    out.append(p);
  }
  const unread = reading.unclear.filter((u) => !box.answered?.has(u));
  if (unread.length) out.append(askUnread(box, unread, reading.suggested));
  out.hidden = !out.childElementCount;
}

// askUnread asks, right on the form, what the words barhub could not read
// mean: the allergen, diet and no-alcohol chips, with what the AI thinks
// ticked in advance (never applied until the guest confirms), or "none of
// these, the host will check". Until answered, the guest's menu takes care
// over every drink with one of the fourteen allergens or alcohol
// (docs/RSVP.md, "Unread means careful").
function askUnread(box, unread, suggested) {
  const ask = document.createElement("div");
  ask.className = "unread-ask";
  ask.setAttribute("role", "group");
  const q = document.createElement("p");
  q.className = "unclear";
  q.textContent = t("rsvp.unread.question", { words: "“" + unread.join("”, “") + "”" });
  ask.append(q);
  const hint = (suggested?.tags || []).filter((x) => NEED_LABEL[x]);
  if (hint.length) {
    const ai = document.createElement("p");
    ai.className = "unread-ai";
    ai.textContent = t("rsvp.unread.aiThinks", { tags: hint.map((x) => NEED_LABEL[x]).join(", ") });
    ask.append(ai);
  }
  const chips = document.createElement("div");
  chips.className = "chips unread-chips";
  const name = `unread-${box.dataset.person}`;
  for (const [value, text] of NEEDS) chip(chips, value, name, text).checked = hint.includes(value);
  const yes = document.createElement("button");
  yes.type = "button";
  yes.className = "unread-yes";
  yes.textContent = t("rsvp.unread.apply");
  const none = document.createElement("button");
  none.type = "button";
  none.className = "unread-none";
  none.textContent = t("rsvp.unread.none");
  const done = (text) => {
    const p = document.createElement("p");
    p.className = "unclear";
    p.textContent = text;
    ask.replaceWith(p);
  };
  yes.addEventListener("click", () => {
    const picked = [...chips.querySelectorAll("input:checked")].map((el) => el.value);
    if (!picked.length) return none.click();
    for (const el of box.querySelectorAll(".chips:not(.unread-chips) input")) if (picked.includes(el.value)) el.checked = true;
    if (picked.some((x) => !COMMON.includes(x))) box.querySelector(".more-needs").open = true;
    for (const u of unread) box.answered.add(u);
    done(t("rsvp.unread.thanks"));
  });
  none.addEventListener("click", () => done(t("rsvp.needs.unclear", { words: "“" + unread.join("”, “") + "”" })));
  ask.append(chips, yes, " ", none);
  return ask;
}

function readNeeds(box) {
  const out = { text: box.querySelector("textarea").value.trim(), tags: [...box.querySelectorAll(".chips:not(.unread-chips) input:checked")].map((el) => el.value) };
  // The words the person answered; the server keeps only those still
  // unread in the text.
  if (box.answered?.size) out.answered = [...box.answered];
  return out;
}

// childToggle marks a person brought along, or another member of the group, as a
// child: the bar then offers them
// alcohol-free drinks only, and the shopping plan counts them so.
function childToggle(checked) {
  const label = document.createElement("label");
  label.className = "check-row companion-child";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = checked;
  const text = document.createElement("span");
  text.textContent = t("rsvp.needs.child");
  label.append(box, text);
  return label;
}

function readPrefs() {
  const body = {
    tastes: { likes: checked("like"), dislikes: checked("dislike"), alcoholFree: $("alcohol-free").checked },
  };
  const companions = [];
  const members = [];
  for (const ed of editors) {
    const dietary = readNeeds(ed.el);
    if (ed.kind === "me") body.dietary = dietary;
    if (ed.kind === "companion") {
      const child = ed.el.querySelector(".companion-child input").checked;
      companions.push({ name: ed.el.querySelector(".companion-name").value.trim(), dietary, ageGroup: child ? "child" : "adult" });
    }
    if (ed.kind === "member") members.push({ id: ed.id, dietary, ageGroup: ed.el.querySelector(".companion-child input").checked ? "child" : "adult" });
  }
  if (editors.some((ed) => ed.kind === "companion")) body.companions = companions;
  if (members.length) body.members = members;
  return body;
}

// fillPrefs lays out one block per person: the guest, the people they
// bring without a login (as many as their headcount), and every other
// member of the group, each with the needs saved so far.
function fillPrefs(v) {
  const g = v.guest;
  const holder = $("needs");
  holder.replaceChildren();
  editors = [{ kind: "me", el: needsEditor("me", t("rsvp.needs.you"), g.dietary) }];
  const bring = Math.max(g.expectedGuests + (g.extraGuests || 0), g.expectedGuests) - 1;
  for (let i = 0; i < bring; i++) {
    const c = g.companions?.[i];
    const el = needsEditor(`c${i + 1}`, t("rsvp.needs.companion", { n: i + 1 }), c?.dietary, c?.name || "");
    el.querySelector(".companion-name").after(childToggle(c?.ageGroup === "child"));
    editors.push({ kind: "companion", el });
  }
  for (const m of v.group || []) {
    if (m.id === g.id) continue;
    const el = needsEditor(`m-${m.id}`, fullName(m), m.dietary);
    // A member with a login of their own may be a child too (a family's 12-year-old).
    el.querySelector("legend").after(childToggle(m.ageGroup === "child"));
    editors.push({ kind: "member", id: m.id, el });
  }
  // The others' blocks fold away, so a family's page stays short on a
  // phone; one with needs already given opens.
  holder.append(...editors.map((ed) => {
    if (ed.kind === "me") return ed.el;
    const fold = document.createElement("details");
    fold.className = "needs-fold";
    fold.dataset.person = ed.el.dataset.person;
    const summary = document.createElement("summary");
    summary.textContent = ed.el.querySelector("legend").textContent;
    const given = readNeeds(ed.el);
    fold.open = given.tags.length > 0 || given.text !== "";
    fold.append(summary, ed.el);
    return fold;
  }));
  const likes = g.tastes?.likes || [];
  const dislikes = g.tastes?.dislikes || [];
  for (const el of document.querySelectorAll('input[name="like"]')) el.checked = likes.includes(el.value);
  for (const el of document.querySelectorAll('input[name="dislike"]')) el.checked = dislikes.includes(el.value);
  $("alcohol-free").checked = !!g.tastes?.alcoholFree;
}
