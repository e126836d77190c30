// The guest desk: the filterable, sortable, paginated guest list and the
// edit dialog (add, edit, delete, new code, groups, printing one card).
import { api } from "./api.js";
import { t, formatDate, formatTime, formatList, formatRelative } from "./i18n.js";
import { printInvitations } from "./desk-tools.js";
import { patchChildren } from "./patch.js";
import { inviteCell, startInvites } from "./invite-admin.js";

const $ = (id) => document.getElementById(id);

const state = { q: "", status: "", groupId: "", neverLoggedIn: false, hasDietary: false, sort: "lastName", desc: false, limit: 50, page: 1 };
let groups = []; // [{id, members, expectedTotal, comingTotal}]
let editing = null; // the guest in the dialog; null when adding
let loadSeq = 0;
let shown = []; // the guests the list shows now

function query() {
  const p = new URLSearchParams();
  if (state.q) p.set("q", state.q);
  if (state.status) p.set("status", state.status);
  if (state.groupId) p.set("groupId", state.groupId);
  if (state.neverLoggedIn) p.set("neverLoggedIn", "true");
  if (state.hasDietary) p.set("hasDietary", "true");
  p.set("sort", (state.desc ? "-" : "") + state.sort);
  p.set("limit", String(state.limit));
  p.set("page", String(state.page));
  return p.toString();
}

export async function reloadGuests() {
  const seq = ++loadSeq;
  let page;
  try {
    page = await api("GET", `/api/admin/guests?${query()}`);
  } catch (err) {
    if (seq === loadSeq) showTableMessage(err.message);
    return;
  }
  if (seq !== loadSeq) return; // a newer request is on its way
  if (page.guests.length === 0 && state.page > 1 && page.total > 0) {
    state.page = page.pages;
    return reloadGuests();
  }
  shown = page.guests;
  renderRows(page.guests);
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = page.offset + page.guests.length;
  $("page-info").textContent = page.total === 0 ? t("desk.noMatch") : t("desk.pageInfo", { from: first, to: last, total: page.total });
  $("page-prev").disabled = page.page <= 1;
  $("page-next").disabled = page.page >= page.pages;
}

export async function reloadGroups() {
  try {
    groups = (await api("GET", "/api/admin/groups")).groups;
  } catch {
    return;
  }
  const select = $("filter-group");
  const current = select.value;
  select.replaceChildren(new Option(t("desk.filter.anyGroup"), ""));
  for (const g of groups) select.append(new Option(groupLabel(g), g.id));
  select.value = groups.some((g) => g.id === current) ? current : "";
}

function groupLabel(g) {
  const names = g.members.map((m) => m.firstName);
  return `${formatList(names)} ${g.members[0]?.lastName || ""} (${g.expectedTotal})`.trim();
}

function showTableMessage(text) {
  const td = document.createElement("td");
  td.colSpan = 10;
  td.className = "empty";
  td.textContent = text;
  const tr = document.createElement("tr");
  tr.append(td);
  $("guest-rows").replaceChildren(tr);
}

export function ago(iso) {
  if (!iso) return "";
  const s = (Date.now() - new Date(iso).getTime()) / 1000;
  if (s < 60) return t("desk.justNow");
  if (s < 86400) return formatRelative(iso);
  return formatDate(iso, { day: "numeric", month: "short" });
}

// The answers' words: desk.status.coming, desk.status.declined, desk.status.pending.
const STATUS = { coming: "ok", declined: "bad", pending: "warn" };

function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (text instanceof Node) td.append(text);
  else td.textContent = text ?? "";
  return td;
}

// clamped is free text cut to two lines in the table, so one guest's long
// needs or large group do not make the row tall; the whole text is its title.
function clamped(text) {
  const span = document.createElement("span");
  span.className = "clamp";
  span.textContent = text;
  if (text) span.title = text;
  return span;
}

function renderRows(guests) {
  if (guests.length === 0) return showTableMessage(t("desk.noMatchFilters"));
  const rows = guests.map((g) => {
    const tr = document.createElement("tr");
    tr.dataset.id = g.id;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${g.firstName} ${g.lastName}`;
    if (g.role !== "guest") {
      const role = document.createElement("span");
      role.className = "badge";
      role.textContent = (g.role === "admin" ? t("desk.badge.host") : g.role === "bartender" ? t("desk.badge.bartender") : g.role) + (g.attending ? ` · ${t("desk.badge.guest")}` : "");
      name.append(" ", role);
    }
    if (g.ageGroup === "child") {
      // Marked a child (here or by whoever answered for the group): the bar serves them
      // alcohol-free drinks only. A word, so it does not rest on colour.
      const child = document.createElement("span");
      child.className = "badge child";
      child.textContent = t("desk.badge.child");
      name.append(" ", child);
    }
    const label = STATUS[g.status] ? t(`desk.status.${g.status}`) : g.status;
    const cls = STATUS[g.status] || "";
    const badge = document.createElement("span");
    badge.className = `badge ${cls}`;
    badge.textContent = label;
    const status = document.createElement("span");
    status.append(badge);
    if (g.checkedInAt) {
      // Arrived: the door checked them in (door.js).
      const arrived = document.createElement("span");
      arrived.className = "badge ok checked-in";
      arrived.textContent = t("desk.badge.in");
      arrived.title = g.checkedInBy ? t("desk.checkedInAtBy", { time: formatTime(g.checkedInAt), by: g.checkedInBy }) : t("desk.checkedInAt", { time: formatTime(g.checkedInAt) });
      status.append(" ", arrived);
    }
    const group = groups.find((x) => x.id === g.groupId);
    const edit = document.createElement("button");
    edit.type = "button";
    edit.className = "quiet edit";
    edit.textContent = t("desk.edit");
    edit.setAttribute("aria-label", t("desk.editLabel", { name: `${g.firstName} ${g.lastName}` }));
    edit.addEventListener("click", () => openGuest(g.id));
    const people = g.status === "coming" ? `${g.numGuests} / ${g.expectedGuests}` : `– / ${g.expectedGuests}`;
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = g.code;
    tr.append(
      cell(name),
      cell(status, "status"),
      cell(people, "num"),
      cell(clamped(group ? group.members.filter((m) => m.id !== g.id).map((m) => m.firstName).join(", ") || t("desk.alone") : g.groupId ? "…" : "")),
      cell(clamped([(g.needs || []).includes("review") ? t("desk.needsReview") : "", g.dietary?.text,
        ...(g.dietary?.tags || []).filter((tag) => !(g.dietary?.text || "").toLowerCase().includes(tag)),
        ...(g.companions || []).filter((c) => c.dietary?.tags?.length || c.dietary?.text).map((c) => `+1 ${c.name || ""}: ${c.dietary.text || c.dietary.tags.join(", ")}`)]
        .filter(Boolean).join(" · "))),
      cell(code),
      cell(ago(g.rsvpDate)),
      cell(g.lastAccess ? ago(g.lastAccess) : g.lastLogin ? ago(g.lastLogin) : t("desk.never"), g.lastLogin ? "" : "muted"),
      cell(inviteCell(g, () => reloadGuests()), "invite-cell"),
      cell(edit),
    );
    return tr;
  });
  patchChildren($("guest-rows"), rows);
}

function renderSortHeads() {
  for (const b of document.querySelectorAll("button.sort")) {
    const active = b.dataset.sort === state.sort;
    b.closest("th").setAttribute("aria-sort", active ? (state.desc ? "descending" : "ascending") : "none");
    b.dataset.dir = active ? (state.desc ? "desc" : "asc") : "";
  }
}

// ---- The edit dialog -----------------------------------------------------------------

function fillGroupSelect(g) {
  const select = $("g-group");
  select.replaceChildren(new Option(t("desk.dialog.noGroup"), ""));
  for (const grp of groups) {
    const others = grp.members.filter((m) => m.id !== g?.id);
    if (others.length === 0 && grp.id !== g?.groupId) continue;
    select.append(new Option(t("desk.dialog.with", { names: others.length ? formatList(others.map((m) => `${m.firstName} ${m.lastName}`)) : t("desk.dialog.nobodyElse") }), grp.id));
  }
  const alone = document.createElement("optgroup");
  alone.label = t("desk.dialog.startGroup");
  api("GET", "/api/admin/guests?limit=500&sort=lastName")
    .then((page) => {
      for (const other of page.guests) {
        if (other.groupId || other.id === g?.id) continue;
        alone.append(new Option(`${other.firstName} ${other.lastName}`, `new:${other.id}`));
      }
      if (alone.children.length) select.append(alone);
    })
    .catch(() => {});
  select.value = g?.groupId || "";
}

export async function openGuest(id) {
  editing = null;
  let g = { firstName: "", lastName: "", expectedGuests: 1, extraGuests: 0, role: "guest", status: "pending", dietary: { text: "" } };
  if (id) {
    try {
      g = editing = await api("GET", `/api/admin/guests/${encodeURIComponent(id)}`);
    } catch (err) {
      alert(err.message);
      return;
    }
  }
  $("gd-title").textContent = id ? `${g.firstName} ${g.lastName}` : t("desk.dialog.addTitle");
  for (const f of ["firstName", "lastName", "expectedGuests", "extraGuests", "role", "status"]) $(`g-${f}`).value = g[f] ?? "";
  $("g-attending").checked = !!g.attending;
  $("g-email").value = g.email || "";
  $("g-attending-row").hidden = $("g-role").value === "guest";
  $("g-dietary").value = g.dietary?.text || "";
  $("g-child").checked = g.ageGroup === "child";
  fillGroupSelect(id ? g : null);
  $("g-code-row").hidden = !id;
  $("g-code").textContent = g.code || "";
  $("g-delete").hidden = !id;
  showError(null);
  $("guest-dialog").showModal();
  $("g-firstName").focus();
}

function showError(err) {
  $("g-error").textContent = err ? err.message : "";
  $("g-error").hidden = !err;
}

function newGroupID() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `g-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function saveGuest() {
  const body = {
    firstName: $("g-firstName").value.trim(),
    lastName: $("g-lastName").value.trim(),
    expectedGuests: Number($("g-expectedGuests").value) || 1,
    role: $("g-role").value,
    attending: $("g-role").value !== "guest" && $("g-attending").checked,
    email: $("g-email").value.trim(),
    status: $("g-status").value,
    extraGuests: Number($("g-extraGuests").value) || 0,
    dietary: { text: $("g-dietary").value.trim() },
    ageGroup: $("g-child").checked ? "child" : "adult",
  };
  // Joining someone who is alone makes a new group of two: each person's
  // document gets the new group id, one update each.
  let group = $("g-group").value;
  let partner = null;
  if (group.startsWith("new:")) {
    partner = group.slice(4);
    group = newGroupID();
  }
  body.groupId = group;
  if (!body.firstName || !body.lastName) throw new Error(t("desk.dialog.needsName"));
  const saved = editing
    ? await api("PUT", `/api/admin/guests/${encodeURIComponent(editing.id)}`, body)
    : await api("POST", "/api/admin/guests", body);
  if (partner) await api("PUT", `/api/admin/guests/${encodeURIComponent(partner)}`, { groupId: group });
  return saved;
}

function wireDialog() {
  const dlg = $("guest-dialog");
  $("guest-form").addEventListener("submit", async (event) => {
    if (event.submitter?.value === "cancel") return;
    event.preventDefault();
    $("g-save").disabled = true;
    try {
      await saveGuest();
      dlg.close();
      reloadGroups().then(reloadGuests);
    } catch (err) {
      showError(err);
    } finally {
      $("g-save").disabled = false;
    }
  });
  $("g-delete").addEventListener("click", async () => {
    if (!editing || !confirm(t("desk.dialog.confirmDelete", { name: `${editing.firstName} ${editing.lastName}` }))) return;
    try {
      await api("DELETE", `/api/admin/guests/${encodeURIComponent(editing.id)}`);
      dlg.close();
      reloadGroups().then(reloadGuests);
    } catch (err) {
      showError(err);
    }
  });
  $("g-newcode").addEventListener("click", async () => {
    if (!editing || !confirm(t("desk.dialog.confirmNewCode"))) return;
    try {
      const res = await api("POST", `/api/admin/guests/${encodeURIComponent(editing.id)}/code`);
      editing = res.guest;
      $("g-code").textContent = res.code;
      reloadGuests();
    } catch (err) {
      showError(err);
    }
  });
  $("g-signout").addEventListener("click", async () => {
    if (!editing || !confirm(t("desk.dialog.confirmSignout", { name: `${editing.firstName} ${editing.lastName}` }))) return;
    try {
      await api("POST", `/api/admin/guests/${encodeURIComponent(editing.id)}/signout`);
    } catch (err) {
      showError(err);
    }
  });
  $("g-print").addEventListener("click", () => editing && printInvitations(editing.id));
}

// ---- Filters, sorting, paging ------------------------------------------------------------

export function startGuests() {
  let typing = 0;
  $("filter-q").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      state.q = $("filter-q").value.trim();
      state.page = 1;
      reloadGuests();
    }, 250);
  });
  $("guest-filters").addEventListener("submit", (e) => e.preventDefault());
  const filters = { "filter-status": "status", "filter-group": "groupId" };
  for (const [id, key] of Object.entries(filters)) {
    $(id).addEventListener("change", () => {
      state[key] = $(id).value;
      state.page = 1;
      reloadGuests();
    });
  }
  for (const [id, key] of Object.entries({ "filter-never": "neverLoggedIn", "filter-dietary": "hasDietary" })) {
    $(id).addEventListener("change", () => {
      state[key] = $(id).checked;
      state.page = 1;
      reloadGuests();
    });
  }
  for (const b of document.querySelectorAll("button.sort")) {
    b.addEventListener("click", () => {
      if (state.sort === b.dataset.sort) state.desc = !state.desc;
      else {
        state.sort = b.dataset.sort;
        state.desc = b.dataset.sort === "rsvpDate";
      }
      renderSortHeads();
      reloadGuests();
    });
  }
  $("page-size").addEventListener("change", () => {
    state.limit = Number($("page-size").value);
    state.page = 1;
    reloadGuests();
  });
  $("page-prev").addEventListener("click", () => {
    state.page = Math.max(1, state.page - 1);
    reloadGuests();
  });
  $("page-next").addEventListener("click", () => {
    state.page += 1;
    reloadGuests();
  });
  $("guest-add").addEventListener("click", () => openGuest(null));
  $("print-all").addEventListener("click", () => printInvitations());
  startInvites(() => shown, () => reloadGuests());
  $("g-role").addEventListener("change", () => ($("g-attending-row").hidden = $("g-role").value === "guest"));
  wireDialog();
  renderSortHeads();
  reloadGroups().then(reloadGuests);
}
