// The host's tools beside the guest list: the dietary report, the event
// settings, CSV import and export, and printable invitations.
import { api, ApiError } from "./api.js";
import { t, has, formatList, lang } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// authedFetch is fetch with the sign-in, for the routes that do not
// answer JSON (the CSV export, the invitations page).
export async function authedFetch(path, init = {}) {
  const token = localStorage.getItem("barhub.token");
  const res = await fetch(path, { ...init, headers: { ...(init.headers || {}), Authorization: `Bearer ${token}` } });
  if (!res.ok) {
    let message = t("common.httpError", { status: res.status });
    let code = "";
    try {
      ({ message, code } = (await res.json()).error);
    } catch {
      // not JSON: keep the generic message
    }
    throw new ApiError(message, { status: res.status, code });
  }
  return res;
}

// printInvitations opens the printable cards (all guests, or one) in a new
// tab. The tab is opened at once, inside the click, so no pop-up blocker
// stops it; the page is written into it when it arrives. A <base> makes
// its stylesheet link resolve to this server. Cards no phone could open
// (barhub on 0.0.0.0, no address known) are printed only if the host says.
export async function printInvitations(guestId) {
  const win = window.open("", "_blank");
  if (!win) {
    alert(t("tools.allowPopups"));
    return;
  }
  win.document.title = t("tools.invitationsLoading");
  try {
    const q = guestId ? `?guest=${encodeURIComponent(guestId)}` : "";
    let res;
    try {
      res = await authedFetch(`/api/admin/invitations${q}`);
    } catch (err) {
      if (err.code !== "public_url_unreachable") throw err;
      if (!confirm(`${err.message}\n\n${t("invite.goAhead")}`)) {
        win.close();
        return;
      }
      res = await authedFetch(`/api/admin/invitations${q ? `${q}&` : "?"}anyway=true`);
    }
    const html = await res.text();
    const withBase = html.replace("<head>", `<head><base href="${location.origin}/">`);
    win.document.open();
    win.document.write(withBase);
    win.document.close();
  } catch (err) {
    win.close();
    alert(err.message);
  }
}

// ---- Dietary report --------------------------------------------------------------------

export async function reloadDietary() {
  const box = $("dietary-report");
  let report;
  try {
    report = await api("GET", `/api/admin/reports/dietary?status=${$("dietary-all").checked ? "all" : "coming"}`);
  } catch (err) {
    box.textContent = err.message;
    return;
  }
  if (report.tags.length === 0) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = t("tools.dietary.none");
    box.replaceChildren(p);
    return;
  }
  const list = document.createElement("div");
  list.className = "dietary-grid";
  for (const tg of report.tags) {
    const review = tg.tag === "review";
    const card = document.createElement("article");
    card.className = "dietary-tag" + (review ? " needs-eyes" : "");
    const h = document.createElement("h3");
    // The tag's name starts with a capital; the rest stays as written ("Needs the host's
    // eyes", not "Needs The Host's Eyes" as a CSS capitalize made it).
    const name = review ? t("tools.dietary.review") : tagName(tg.tag);
    h.textContent = name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
    const count = document.createElement("span");
    count.className = "badge";
    count.textContent = t("tools.dietary.count", { count: tg.people });
    h.append(" ", count);
    const ul = document.createElement("ul");
    for (const e of tg.entries) {
      const li = document.createElement("li");
      li.dataset.ref = e.ref;
      const who = document.createElement("strong");
      who.textContent = e.companion ? t("tools.dietary.companion", { name: e.name, guest: `${e.firstName} ${e.lastName}` }) : `${e.firstName} ${e.lastName}`;
      li.append(who);
      if (e.status !== "coming") li.append(` ${t("tools.dietary.notAnswered")}`);
      if (e.text) {
        const text = document.createElement("span");
        text.className = "muted";
        text.textContent = ` — ${e.text}`;
        li.append(text);
      }
      if (review) li.append(reviewForm(e));
      ul.append(li);
    }
    card.append(h, ul);
    list.append(card);
  }
  box.replaceChildren(list);
}

// tagName is a dietary tag in the page's language (allergen.*, diet.*, need.alcohol-free, need.pregnant…).
function tagName(tag) {
  for (const key of [`allergen.${tag}`, `diet.${tag}`, `need.${tag}`]) if (has(key)) return t(key);
  return tag;
}

// The tags the host can confirm for a person, as the diet package names them.
const REVIEW_TAGS = ["gluten", "crustaceans", "eggs", "fish", "peanuts", "soy", "milk", "nuts", "celery", "mustard", "sesame",
  "sulphites", "lupin", "molluscs", "vegan", "vegetarian", "halal", "kosher", "alcohol-free",
  "pregnant", "breastfeeding", "medicine", "driving"];

// reviewForm lets the host confirm or correct what barhub read in words it
// did not fully understand: the ticked tags are saved as they are and the
// flag goes away (PUT /api/admin/guests/{id}/dietary, audited).
function reviewForm(e) {
  const form = document.createElement("form");
  form.className = "review-form";
  const unclear = document.createElement("p");
  unclear.className = "unclear";
  unclear.textContent = t("tools.dietary.unclear", { words: formatList(e.unclear.map((w) => `“${w}”`)) });
  const chips = document.createElement("div");
  chips.className = "review-tags";
  for (const tag of REVIEW_TAGS) {
    const label = document.createElement("label");
    label.className = "check-inline";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = tag;
    box.checked = e.tags.includes(tag);
    label.append(box, ` ${tagName(tag)}`);
    chips.append(label);
  }
  const ok = document.createElement("button");
  ok.type = "submit";
  ok.className = "review-ok";
  ok.textContent = t("tools.dietary.confirm");
  const err = document.createElement("p");
  err.className = "error";
  err.hidden = true;
  const ai = document.createElement("p");
  ai.className = "review-ai";
  ai.hidden = true;
  form.append(unclear, ai, chips, ok, err);
  suggestTags(e, ai, chips);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    ok.disabled = true;
    const tags = [...chips.querySelectorAll("input:checked")].map((el) => el.value);
    try {
      await api("PUT", `/api/admin/guests/${e.id}/dietary`, { companion: e.companion || 0, tags });
      await reloadDietary();
    } catch (error) {
      err.textContent = error.message;
      err.hidden = false;
      ok.disabled = false;
    }
  });
  return form;
}

// suggestTags shows what the AI reads in the words (with Bedrock
// configured; POST /api/dietary/read's `suggested`) and lets the host tick
// those chips with one tap: never saved until the host confirms. The
// readings go one after another, within the host's rate of reading.
let suggestions = Promise.resolve();
function suggestTags(e, out, chips) {
  suggestions = suggestions.then(async () => {
    try {
      const r = await api("POST", "/api/dietary/read", { text: e.text });
      const tags = (r.suggested?.tags || []).filter((tag) => REVIEW_TAGS.includes(tag));
      if (!r.suggested) return;
      out.textContent = t("tools.dietary.aiThinks", { tags: tags.length ? formatList(tags.map(tagName)) : t("tools.dietary.aiNothing") }) + " ";
      if (tags.length) {
        const tick = document.createElement("button");
        tick.type = "button";
        tick.className = "review-ai-tick quiet";
        tick.textContent = t("tools.dietary.aiTick");
        tick.addEventListener("click", () => {
          for (const box of chips.querySelectorAll("input")) if (tags.includes(box.value)) box.checked = true;
        });
        out.append(tick);
      }
      out.hidden = false;
    } catch {
      // A suggestion is a help; the host reviews without it.
    }
    await new Promise((done) => setTimeout(done, 600));
  });
}

// ---- Event settings --------------------------------------------------------------------

const SETTINGS = ["eventName", "location", "dressCode", "info", "timezone"];

// localValue turns the server's RFC 3339 time (written in the event's own
// zone) into what a datetime-local input shows: the wall-clock part.
function localValue(iso) {
  return iso ? iso.slice(0, 16) : "";
}

async function loadSettings(onSettings) {
  const s = await api("GET", "/api/admin/settings");
  for (const f of SETTINGS) $(`s-${f}`).value = s[f] || "";
  $("s-eventDate").value = localValue(s.eventDate);
  $("s-rsvpDeadline").value = localValue(s.rsvpDeadline);
  onSettings(s);
}

function wireSettings(onSettings) {
  const list = $("timezones");
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  for (const z of zones) list.append(new Option(z));
  $("settings-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {};
    for (const f of SETTINGS) body[f] = $(`s-${f}`).value.trim();
    // Without an offset the server reads these in the event's time zone.
    body.eventDate = $("s-eventDate").value;
    body.rsvpDeadline = $("s-rsvpDeadline").value;
    if (!body.timezone) body.timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    $("settings-save").disabled = true;
    $("settings-status").textContent = "";
    try {
      const s = await api("PUT", "/api/admin/settings", body);
      $("settings-error").hidden = true;
      $("settings-status").textContent = t("tools.saved");
      $("s-timezone").value = s.timezone;
      onSettings(s);
    } catch (err) {
      $("settings-error").textContent = err.message;
      $("settings-error").hidden = false;
    } finally {
      $("settings-save").disabled = false;
    }
  });
}

// ---- Import and export ------------------------------------------------------------------

async function exportCSV() {
  try {
    const res = await authedFetch("/api/admin/guests.csv");
    const blob = await res.blob();
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "")?.[1] || "guests.csv";
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (err) {
    alert(err.message);
  }
}

function renderReport(rep) {
  const box = $("import-report");
  const summary = document.createElement("p");
  summary.className = "import-summary";
  const counts = { created: rep.created, updated: rep.updated, refused: rep.refused };
  summary.textContent = rep.dryRun ? t("tools.import.checkSummary", counts) : t("tools.import.summary", counts);
  if (rep.ignoredColumns?.length) summary.textContent += ` ${t("tools.import.ignored", { columns: rep.ignoredColumns.join(", ") })}`;
  const table = document.createElement("table");
  table.className = "import-table";
  const head = table.createTHead().insertRow();
  for (const h of [t("tools.import.col.row"), t("tools.import.col.guest"), t("tools.import.col.result"), t("tools.import.col.why")]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const r of rep.rows) {
    const tr = body.insertRow();
    tr.className = r.status;
    const badge = document.createElement("span");
    badge.className = `badge ${r.status === "refused" ? "bad" : "ok"}`;
    // tools.import.status.created, .updated, .refused
    badge.textContent = r.status === "updated" && r.changes?.length === 0 ? t("tools.import.status.unchanged") : has(`tools.import.status.${r.status}`) ? t(`tools.import.status.${r.status}`) : r.status;
    tr.insertCell().textContent = r.row;
    tr.insertCell().textContent = r.name || "";
    tr.insertCell().append(badge);
    tr.insertCell().textContent = r.reason || (r.changes?.length ? t("tools.import.changed", { fields: r.changes.join(", ") }) : "");
  }
  box.replaceChildren(summary, table);
}

function wireImport(afterImport) {
  $("export-csv").addEventListener("click", exportCSV);
  $("import-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const dryRun = event.submitter?.value === "check";
    const file = $("import-file").files[0];
    const err = $("import-error");
    err.hidden = true;
    if (!file) {
      err.textContent = t("tools.import.chooseFile");
      err.hidden = false;
      return;
    }
    try {
      const text = await file.text();
      const res = await authedFetch(`/api/admin/guests/import${dryRun ? "?dryRun=true" : ""}`, {
        method: "POST",
        headers: { "Content-Type": "text/csv" },
        body: text,
      });
      const rep = await res.json();
      renderReport(rep);
      if (!dryRun) afterImport();
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
    }
  });
}

export function startTools({ onSettings = () => {}, afterImport = () => {} } = {}) {
  $("dietary-all").addEventListener("change", reloadDietary);
  wireSettings(onSettings);
  wireImport(afterImport);
  loadSettings(onSettings).catch((err) => {
    $("settings-error").textContent = err.message;
    $("settings-error").hidden = false;
  });
  reloadDietary();
}
