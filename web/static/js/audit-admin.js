// The audit log on the host's dashboard (#audit): who changed what, newest first, with a
// filter by kind of change and pages. It loads when the page opens and on Refresh; it is
// a record to look things up in, so it does not follow changes live.
import { api, auth } from "./api.js";
import { h } from "./bar-common.js";

const PAGE = 25;

// What each action means, in the words of the desk.
const ACTIONS = {
  "guest.create": "Added a guest",
  "guest.update": "Edited a guest",
  "guest.delete": "Deleted a guest",
  "guest.code": "Made a new code",
  "guest.signout": "Signed a guest out everywhere",
  "auth.signout_everywhere": "Signed out everywhere",
  "guest.import": "Imported guests",
  "settings.update": "Changed the event",
  "drink.create": "Added a drink",
  "drink.update": "Edited a drink",
  "drink.delete": "Deleted a drink",
  "drink.image_upload": "Started a photo upload",
  "drink.image_prompt": "Asked for a new image prompt",
  "appkey.set": "Switched the guests' app",
  "job.retry": "Retried a job",
  announcement: "Sent an announcement",
  "stock.set": "Marked an ingredient",
  "drink_stock.set": "Marked a drink",
};

const $ = (id) => document.getElementById(id);

function when(iso) {
  return new Date(iso).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// detailText turns an entry's notes into a short line. Every note is a count, a yes/no,
// a name or a list of field names: the log never holds what was sent.
function detailText(e) {
  const d = e.details || {};
  const parts = [];
  if ("created" in d || "updated" in d || "refused" in d) {
    parts.push(`${d.created ?? 0} created, ${d.updated ?? 0} updated, ${d.refused ?? 0} refused`);
  }
  if (Array.isArray(d.changed)) parts.push(d.changed.length ? `changed ${d.changed.join(", ")}` : "nothing changed");
  if ("inStock" in d) parts.push(d.inStock ? "back in stock" : "out of stock");
  if (typeof d.drinks === "number") parts.push(`affects ${plural(d.drinks, "drink")}`);
  if ("enabled" in d) parts.push(d.enabled ? "app on" : "app off");
  if (d.rotated) parts.push("new key");
  if (d.kind) parts.push(d.kind.replace(/_/g, " "));
  if (d.job) parts.push(`job ${d.job}`);
  if (d.route) parts.push(d.route);
  return parts.join("; ");
}

function subjectCell(e) {
  const name = e.details?.name;
  if (!e.subject && !name) return h("td", { class: "muted" }, e.action.startsWith("settings") ? "the event" : "");
  if (!name) return h("td", {}, e.subject);
  return h("td", { title: e.subject }, h("span", { class: "name" }, name));
}

function entryRow(e) {
  const who = [e.actorName || e.actorId || "someone"];
  if (e.role && e.role !== "admin") who.push(" ", h("span", { class: "badge" }, e.role));
  return h(
    "tr",
    { dataset: { id: e.id, action: e.action } },
    h("td", {}, h("time", { datetime: e.at }, when(e.at))),
    h("td", {}, ...who),
    h("td", {}, ACTIONS[e.action] || e.action, h("span", { class: "action-code" }, e.action)),
    subjectCell(e),
    h("td", { class: "details" }, detailText(e)),
  );
}

function message(text) {
  return h("tr", {}, h("td", { colspan: 5, class: "empty" }, text));
}

export function startAudit() {
  const state = { action: "", page: 1 };
  let seq = 0;

  async function load() {
    const mine = ++seq;
    const q = new URLSearchParams({ limit: String(PAGE), page: String(state.page) });
    if (state.action) q.set("action", state.action);
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
    $("audit-rows").replaceChildren(...(res.entries.length ? res.entries.map(entryRow) : [message(state.action ? "No changes of this kind." : "No changes recorded yet.")]));
    const first = (res.page - 1) * res.limit + 1;
    $("audit-page-info").textContent = res.total ? `${first}–${first + res.entries.length - 1} of ${res.total}` : "";
    $("audit-prev").disabled = res.page <= 1;
    $("audit-next").disabled = res.page >= res.pages;
  }

  $("audit-action").addEventListener("change", (event) => {
    state.action = event.target.value;
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

// Only for the host: the page sends anyone else to sign in before this matters.
if ($("audit") && auth()?.role === "admin") startAudit();
