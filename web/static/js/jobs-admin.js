// The host's view of the AI bartender, in #bar-admin-area: who answers
// (Amazon Bedrock or the local implementations), the job queue with its dead
// letters and a retry for each, and every drink's image prompt with the state
// of its latest job. It follows the admin topic live: drink.prompt_ready fills
// a prompt in, an alert about a dead job brings it to the top.
import { api, ApiError } from "./api.js";
import { startLive } from "./page.js";
import { formatDate, formatNumber, t } from "./i18n.js";

const PAGE = 25;
// Every kind of job the worker runs (the API's ?kind= filter takes the same
// identifiers), named in the page's language; the API keeps the identifiers.
const KIND_NAMES = {
  image_prompt: t("jobs.kind.image_prompt"),
  drink_image: t("jobs.kind.drink_image"),
  recommendation: t("jobs.kind.recommendation"),
  import: t("jobs.kind.import"),
  mail: t("jobs.kind.mail"),
  reminder: t("jobs.kind.reminder"),
};
const STATUS_NAMES = { queued: t("jobs.status.queued"), running: t("jobs.status.running"), done: t("jobs.status.done"), dead: t("jobs.status.dead") };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function when(iso) {
  if (!iso) return "";
  return formatDate(iso, { hour: "2-digit", minute: "2-digit", second: "2-digit", day: "numeric", month: "short" });
}

function statusCell(status) {
  const span = el("span", { class: "status", text: STATUS_NAMES[status] || status });
  span.dataset.status = status;
  return span;
}

function ensureStyles() {
  if (document.querySelector('link[href="/static/css/ai.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/ai.css" }));
}

// menuDrinks reads the public menu with the app's key, as phones do.
async function menuDrinks() {
  const k = await api("GET", "/api/app-key");
  if (!k.enabled) return [];
  const res = await api("GET", "/api/drinks", undefined, { headers: { "X-Api-Key": k.key } });
  return res.drinks || [];
}

export function startJobsAdmin(area) {
  ensureStyles();
  const state = { status: "", kind: "", offset: 0 };

  const source = el("span", { id: "ai-source", class: "source-badge" });
  const counts = el("div", { id: "job-counts", class: "counts" });
  const statusSel = el("select", { id: "job-status" }, el("option", { value: "", text: t("jobs.everyStatus") }));
  for (const [v, t] of Object.entries(STATUS_NAMES)) statusSel.append(el("option", { value: v, text: t }));
  const kindSel = el("select", { id: "job-kind" }, el("option", { value: "", text: t("jobs.everyKind") }));
  for (const [v, t] of Object.entries(KIND_NAMES)) kindSel.append(el("option", { value: v, text: t }));
  const rows = el("tbody", { id: "job-rows" });
  const pageInfo = el("span", { class: "muted" });
  const prev = el("button", { type: "button", text: t("jobs.newer") });
  const next = el("button", { type: "button", text: t("jobs.older") });
  const notice = el("p", { id: "job-notice", class: "error", role: "alert", hidden: true });
  const promptRows = el("tbody", { id: "prompt-rows" });

  area.append(
    el(
      "section",
      { id: "ai-jobs", class: "card ai-admin", "aria-labelledby": "ai-jobs-title" },
      el("div", { class: "section-head" }, el("h2", { id: "ai-jobs-title", text: t("jobs.title") }), source),
      counts,
      notice,
      el(
        "div",
        { class: "filters" },
        el("label", { class: "visually-hidden", for: "job-status", text: t("jobs.col.status") }),
        statusSel,
        el("label", { class: "visually-hidden", for: "job-kind", text: t("jobs.col.kind") }),
        kindSel,
      ),
      el(
        "div",
        // Focusable, so a keyboard can scroll the table when it is wider than the screen.
        { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "ai-jobs-title" },
        el(
          "table",
          {},
          el(
            "thead",
            {},
            el("tr", {}, ...[t("jobs.col.queued"), t("jobs.col.kind"), t("jobs.col.for"), t("jobs.col.status"), t("jobs.col.attempts"), t("jobs.col.tokens"), t("jobs.col.lastError"), ""].map((h) => el("th", { scope: "col", text: h }))),
          ),
          rows,
        ),
      ),
      el("div", { class: "pager" }, pageInfo, el("span", { class: "spacer" }), prev, next),
    ),
    el(
      "section",
      { id: "ai-prompts", class: "card ai-admin", "aria-labelledby": "ai-prompts-title" },
      el("h2", { id: "ai-prompts-title", text: t("jobs.prompts.title") }),
      el("p", { class: "muted", text: t("jobs.prompts.intro") }),
      el(
        "div",
        { class: "table-wrap" },
        el("table", {}, el("thead", {}, el("tr", {}, ...[t("jobs.prompts.col.drink"), t("jobs.prompts.col.prompt"), t("jobs.prompts.col.by"), t("jobs.prompts.col.job"), ""].map((h) => el("th", { scope: "col", text: h })))), promptRows),
      ),
    ),
  );

  function showNotice(text) {
    notice.textContent = text;
    notice.hidden = !text;
  }

  async function retry(job, button) {
    button.disabled = true;
    try {
      await api("POST", `/api/admin/jobs/${encodeURIComponent(job.id)}/retry`);
      showNotice("");
    } catch (err) {
      showNotice(err instanceof ApiError ? err.message : String(err));
    }
    loadJobs();
  }

  function jobRow(j) {
    const tr = el("tr", { "data-job-id": j.id });
    tr.dataset.status = j.status;
    const action = el("td");
    if (j.status === "dead") {
      const b = el("button", { type: "button", class: "retry", text: t("jobs.retry") });
      b.addEventListener("click", () => retry(j, b));
      action.append(b);
    }
    tr.append(
      el("td", { text: when(j.createdAt) }),
      el("td", { text: KIND_NAMES[j.kind] || j.kind }),
      el("td", { text: j.subject || "" }),
      el("td", {}, statusCell(j.status)),
      el("td", { text: t("jobs.attempts", { n: j.attempts, max: j.maxAttempts }) }),
      el("td", { text: formatNumber(j.usage?.totalTokens || 0) }),
      // A recommendation answered locally says why the model's answer was
      // not used (throttled, timed out, prose, …), in the job's result.
      el("td", { class: "error-text", text: j.lastError || (j.result?.fallback ? t("jobs.fallback", { reason: j.result.fallback }) : "") }),
      action,
    );
    return tr;
  }

  async function loadJobs() {
    const q = new URLSearchParams({ limit: String(PAGE), offset: String(state.offset) });
    if (state.status) q.set("status", state.status);
    if (state.kind) q.set("kind", state.kind);
    let res;
    try {
      res = await api("GET", `/api/admin/jobs?${q}`);
    } catch (err) {
      showNotice(err.message);
      return;
    }
    source.dataset.source = res.source;
    source.textContent = res.source === "bedrock" ? `Amazon Bedrock · ${res.model}` : t("jobs.sourceLocal");
    counts.replaceChildren(
      ...Object.keys(STATUS_NAMES).map((s) => {
        const c = el("button", { type: "button", class: "count quiet" }, el("strong", { text: formatNumber(res.counts?.[s] ?? 0) }), STATUS_NAMES[s]);
        c.dataset.status = s;
        c.addEventListener("click", () => {
          statusSel.value = state.status = state.status === s ? "" : s;
          state.offset = 0;
          loadJobs();
        });
        return c;
      }),
    );
    rows.replaceChildren(...(res.jobs.length ? res.jobs.map(jobRow) : [el("tr", {}, el("td", { colSpan: 8, class: "empty", text: t("jobs.none") }))]));
    const last = Math.min(res.offset + res.jobs.length, res.total);
    pageInfo.textContent = res.total ? t("jobs.pageInfo", { from: res.offset + 1, to: last, total: res.total }) : "";
    prev.disabled = res.offset === 0;
    next.disabled = last >= res.total;
  }

  function promptRow(d, job) {
    const tr = el("tr", { "data-drink-id": d.id });
    const p = d.imagePrompt;
    const regen = el("button", { type: "button", text: t("jobs.prompts.regenerate") });
    regen.addEventListener("click", async () => {
      regen.disabled = true;
      try {
        await api("POST", `/api/admin/drinks/${encodeURIComponent(d.id)}/image-prompt`);
        tr.querySelector(".job-state").replaceChildren(statusCell("queued"));
      } catch (err) {
        showNotice(err.message);
      }
      regen.disabled = false;
    });
    const by = p ? (p.source === "bedrock" ? `Bedrock · ${p.model}` : t("jobs.prompts.localTemplate")) : "";
    tr.append(
      el("td", {}, el("strong", { text: d.name })),
      el("td", { class: "prompt-text", text: p?.text || t("jobs.prompts.none") }),
      el("td", { text: by }),
      el("td", { class: "job-state" }, job ? statusCell(job.status) : ""),
      el("td", {}, regen),
    );
    return tr;
  }

  async function loadPrompts() {
    let drinks, jobs;
    try {
      [drinks, jobs] = await Promise.all([menuDrinks(), api("GET", "/api/admin/jobs?kind=image_prompt&limit=200")]);
    } catch (err) {
      showNotice(err.message);
      return;
    }
    // Jobs come newest first: the first one seen per drink is its latest.
    const latest = new Map();
    for (const j of jobs.jobs) {
      const id = (j.subject || "").replace(/^drink:/, "");
      if (!latest.has(id)) latest.set(id, j);
    }
    promptRows.replaceChildren(
      ...(drinks.length ? drinks.map((d) => promptRow(d, latest.get(d.id))) : [el("tr", {}, el("td", { colSpan: 5, class: "empty", text: t("jobs.prompts.noDrinks") }))]),
    );
  }

  statusSel.addEventListener("change", () => {
    state.status = statusSel.value;
    state.offset = 0;
    loadJobs();
  });
  kindSel.addEventListener("change", () => {
    state.kind = kindSel.value;
    state.offset = 0;
    loadJobs();
  });
  prev.addEventListener("click", () => {
    state.offset = Math.max(0, state.offset - PAGE);
    loadJobs();
  });
  next.addEventListener("click", () => {
    state.offset += PAGE;
    loadJobs();
  });

  let reloadTimer = null;
  const reloadSoon = () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => {
      loadJobs();
      loadPrompts();
    }, 300);
  };
  const live = startLive();
  live.on("drink.prompt_ready", (data) => {
    const tr = promptRows.querySelector(`tr[data-drink-id="${CSS.escape(data.drinkId)}"]`);
    if (tr && data.imagePrompt) {
      tr.querySelector(".prompt-text").textContent = data.imagePrompt.text;
      tr.querySelector(".job-state").replaceChildren(statusCell("done"));
    }
    reloadSoon();
  });
  live.on("alert", (data) => {
    if (data?.code !== "job_dead") return;
    // The server's message is English with the kind's identifier; the page
    // says it in its language from the alert's fields.
    showNotice(data.kind ? t("jobs.deadAlert", { kind: KIND_NAMES[data.kind] || data.kind, subject: data.subject || "", count: data.attempts || 0, error: data.lastError || "" }) : data.message);
    reloadSoon();
  });
  live.on("menu.changed", reloadSoon);
  live.onResync("admin", reloadSoon);
  live.subscribe("admin");
  live.subscribe("menu");

  loadJobs();
  loadPrompts();
}

const area = document.getElementById("bar-admin-area");
if (area) startJobsAdmin(area);
