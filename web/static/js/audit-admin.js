// The audit log on the host's dashboard (#audit): who changed what, newest first, with a
// filter by area of the party and pages. It loads when the page opens and on Refresh; it is
// a record to look things up in, so it does not follow changes live.
import { api, auth } from "./api.js";
import { h } from "./bar-common.js";
import { t, has, formatDate, formatList } from "./i18n.js";

const PAGE = 25;

// What each action means, in the words of the desk (api/audit.go's table).
function actionName(action) {
  const names = {
    "guest.create": t("audit.action.guestCreate"),
    "guest.update": t("audit.action.guestUpdate"),
    "guest.delete": t("audit.action.guestDelete"),
    "guest.code": t("audit.action.guestCode"),
    "guest.dietary_review": t("audit.action.dietaryReview"),
    "guest.signout": t("audit.action.guestSignout"),
    "auth.signout_everywhere": t("audit.action.signoutEverywhere"),
    "guest.import": t("audit.action.guestImport"),
    "rsvp.answer": t("audit.action.rsvpAnswer"),
    "settings.update": t("audit.action.settingsUpdate"),
    "registration.create": t("audit.action.registrationCreate"),
    "registration.accept": t("audit.action.registrationAccept"),
    "registration.confirm": t("audit.action.registrationConfirm"),
    "registration.cancel": t("audit.action.registrationCancel"),
    "registration.approve": t("audit.action.registrationApprove"),
    "registration.remove": t("audit.action.registrationRemove"),
    "registration.offer": t("audit.action.registrationOffer"),
    "registration.expire": t("audit.action.registrationExpire"),
    "registration.declined": t("audit.action.registrationDeclined"),
    "registration.coming": t("audit.action.registrationComing"),
    "registration.deleted": t("audit.action.registrationDeleted"),
    "drink.create": t("audit.action.drinkCreate"),
    "drink.update": t("audit.action.drinkUpdate"),
    "drink.delete": t("audit.action.drinkDelete"),
    "drink.image_upload": t("audit.action.imageUpload"),
    "drink.image_prompt": t("audit.action.imagePrompt"),
    "drink.image_regenerate": t("audit.action.imageRegenerate"),
    "drink.image_remove": t("audit.action.imageRemove"),
    "appkey.set": t("audit.action.appkeySet"),
    "job.retry": t("audit.action.jobRetry"),
    announcement: t("audit.action.announcement"),
    "stock.set": t("audit.action.stockSet"),
    "drink_stock.set": t("audit.action.drinkStockSet"),
    "board.create": t("audit.action.boardCreate"),
    "board.revoke": t("audit.action.boardRevoke"),
    "door.check_in": t("audit.action.checkIn"),
    "door.undo": t("audit.action.checkInUndo"),
    "door.walk_in": t("audit.action.walkIn"),
    "public_url.set": t("audit.action.publicUrlSet"),
    "plan.learn": t("audit.action.planLearn"),
    "plan.forget": t("audit.action.planForget"),
    "notifications.set": t("audit.action.notificationsSet"),
    "invitation.send": t("audit.action.invitationSend"),
    "reminder.create": t("audit.action.reminderCreate"),
    "reminder.delete": t("audit.action.reminderDelete"),
    unmapped: t("audit.action.unmapped"),
  };
  return names[action] || action;
}

// fieldName is a changed field in words: audit.field.<name> (firstName, lastName, role,
// status, expectedGuests, extraGuests, groupId, dietary, companions, tastes, email,
// attending, eventName, eventDate, location, dressCode, info, rsvpDeadline, timezone, name,
// description, section, ingredients, tags, abv, alcoholFree, allergens, imageUrl), else
// the name itself.
function fieldName(f) {
  return has(`audit.field.${f}`) ? t(`audit.field.${f}`) : f;
}

// statusName and roleName: audit.status.<coming|declined|pending>,
// audit.role.<guest|bartender|admin>.
function statusName(s) {
  return has(`audit.status.${s}`) ? t(`audit.status.${s}`) : s;
}

function roleName(r) {
  return has(`audit.role.${r}`) ? t(`audit.role.${r}`) : r;
}

// detailText turns an entry's notes into a short line. Every note is a count, a yes/no,
// a name or a list of field names: the log never holds what was sent.
function detailText(e) {
  const d = e.details || {};
  const parts = [];
  if ("created" in d || "updated" in d || "refused" in d) {
    parts.push(t("audit.detail.import", { created: d.created ?? 0, updated: d.updated ?? 0, refused: d.refused ?? 0 }));
  }
  // An answer: what it said.
  if (e.action === "rsvp.answer") {
    if (d.status === "coming") parts.push(t("audit.detail.coming", { count: d.numGuests || 1 }));
    else if (d.status) parts.push(statusName(d.status));
    if (d.needs) parts.push(t("audit.detail.needs"));
    if (d.tastes) parts.push(t("audit.detail.tastes"));
  }
  // An edit: the values the log keeps in words, then the other fields by name.
  let changed = Array.isArray(d.changed) ? d.changed : null;
  if ("group" in d) {
    // The group by its people; entries written before names were noted keep the id.
    const group = Array.isArray(d.groupMembers) && d.groupMembers.length ? formatList(d.groupMembers) : d.group;
    parts.push(d.group ? t("audit.detail.movedToGroup", { group }) : t("audit.detail.leftGroup"));
    changed = changed?.filter((f) => f !== "groupId");
  }
  if ("status" in d && e.action !== "rsvp.answer") {
    parts.push(t("audit.detail.marked", { status: statusName(d.status) }));
    changed = changed?.filter((f) => f !== "status");
  }
  if ("role" in d) {
    parts.push(t("audit.detail.role", { role: roleName(d.role) }));
    changed = changed?.filter((f) => f !== "role");
  }
  if (changed) {
    if (changed.length) parts.push(t("audit.detail.changed", { fields: formatList(changed.map(fieldName)) }));
    else if (!parts.length) parts.push(t("audit.detail.nothingChanged"));
  }
  if (typeof d.person === "string" && d.person !== d.name) parts.push(t("audit.detail.person", { person: d.person }));
  if (typeof d.heads === "number") parts.push(t("audit.detail.heads", { count: d.heads }));
  if (d.letInAnyway) parts.push(t("audit.detail.letInAnyway"));
  if ("inStock" in d) parts.push(d.inStock ? t("audit.detail.inStock") : t("audit.detail.outOfStock"));
  if (typeof d.drinks === "number") parts.push(t("audit.detail.drinks", { count: d.drinks }));
  if ("enabled" in d) parts.push(d.enabled ? t("audit.detail.appOn") : t("audit.detail.appOff"));
  if (d.rotated) parts.push(t("audit.detail.rotated"));
  if (d.how) parts.push(t("audit.detail.sent", { how: has(`audit.how.${d.how}`) ? t(`audit.how.${d.how}`) : d.how, count: (d.queued ?? 0) + (d.recorded ?? 0) }));
  if ("url" in d) parts.push(d.url || t("audit.detail.urlDefault"));
  // A retried job's kind (jobs.kind.image_prompt, .recommendation, .import, .mail, .reminder) or
  // a reminder's (reminders.kind.unanswered, .morning), in the page's language.
  if (d.kind) parts.push(kindName(e.action, d.kind));
  if (d.job) parts.push(t("audit.detail.job", { job: d.job }));
  if (d.route) parts.push(d.route);
  return parts.join("; ");
}

function kindName(action, kind) {
  const key = action.startsWith("reminder") ? `reminders.kind.${kind}` : `jobs.kind.${kind}`;
  return has(key) ? t(key) : kind.replace(/_/g, " ");
}

function subjectCell(e) {
  const name = e.details?.name;
  if (!e.subject && !name) return h("td", { class: "muted" }, e.action.startsWith("settings") ? t("audit.theEvent") : "");
  if (!name) return h("td", {}, e.subject);
  return h("td", { title: e.subject }, h("span", { class: "name" }, name));
}

function entryRow(e) {
  const who = [e.actorName || e.actorId || t("audit.someone")];
  if (e.role && e.role !== "admin") who.push(" ", h("span", { class: "badge" }, roleName(e.role)));
  return h(
    "tr",
    { dataset: { id: e.id, action: e.action } },
    h("td", {}, h("time", { datetime: e.at }, formatDate(e.at, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" }))),
    h("td", {}, ...who),
    // The action's own name stays at hand for someone who reads the API.
    h("td", { title: e.action }, actionName(e.action)),
    subjectCell(e),
    h("td", { class: "details" }, detailText(e)),
  );
}

function message(text) {
  return h("tr", {}, h("td", { colspan: 5, class: "empty" }, text));
}

export function startAudit() {
  const state = { area: "", page: 1 };
  let seq = 0;

  async function load() {
    const mine = ++seq;
    const q = new URLSearchParams({ limit: String(PAGE), page: String(state.page) });
    if (state.area) q.set("area", state.area);
    let res;
    try {
      res = await api("GET", `/api/admin/audit?${q}`);
    } catch (err) {
      if (mine === seq) $("audit-rows").replaceChildren(message(err.message));
      return;
    }
    if (mine !== seq) return; // a newer load is on its way
    if (res.entries.length === 0 && state.page > 1 && res.pages > 0) {
      state.page = res.pages; // the last page expired or was filtered away
      return load();
    }
    $("audit-rows").replaceChildren(...(res.entries.length ? res.entries.map(entryRow) : [message(state.area ? t("audit.noneOfThisKind") : t("audit.none"))]));
    const first = (res.page - 1) * res.limit + 1;
    $("audit-page-info").textContent = res.total ? t("audit.pageInfo", { from: first, to: first + res.entries.length - 1, total: res.total }) : "";
    $("audit-prev").disabled = res.page <= 1;
    $("audit-next").disabled = res.page >= res.pages;
  }

  $("audit-area").addEventListener("change", (event) => {
    state.area = event.target.value;
    state.page = 1;
    load();
  });
  $("audit-refresh").addEventListener("click", () => load());
  $("audit-prev").addEventListener("click", () => {
    state.page = Math.max(1, state.page - 1);
    load();
  });
  $("audit-next").addEventListener("click", () => {
    state.page += 1;
    load();
  });
  load();
}

const $ = (id) => document.getElementById(id);

// Only for the host: the page sends anyone else to sign in before this matters.
if ($("audit") && auth()?.role === "admin") startAudit();
