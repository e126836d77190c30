// "What should I drink?" on the guest's phone: the guest says what they like
// and how they feel, POST /api/recommendations queues the request, and the
// answer arrives live as recommendation.ready on the guest's own topic (with
// a slow poll behind it, in case the phone was asleep). The panel always says
// who picked: the AI bartender (Amazon Bedrock) or the house recommender.
import { api, auth } from "./api.js";
import { startLive } from "./page.js";

const TASTES = ["sour", "sweet", "bitter", "fresh", "fruity", "sparkling", "strong", "spicy", "creamy", "herbal", "smoky", "floral"];
const POLL_MS = 3000;
const GIVE_UP_MS = 90000;

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

function chips(name, legend) {
  const box = el("div", { class: "taste-chips", role: "group", "aria-label": legend });
  for (const t of TASTES) {
    box.append(el("label", {}, el("input", { type: "checkbox", name, value: t }), el("span", { text: t })));
  }
  return el("fieldset", {}, el("legend", { text: legend }), box);
}

function checked(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
}

function sourceBadge(rec) {
  const badge = el("span", { class: "source-badge" });
  badge.dataset.source = rec.source || "local";
  badge.textContent = rec.source === "bedrock" ? "Picked by the AI bartender · Amazon Bedrock" : "Picked by the house recommender";
  return badge;
}

function ensureStyles() {
  if (document.querySelector('link[href="/static/css/ai.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/ai.css" }));
}

export function startReco(area, me) {
  ensureStyles();
  const form = el("form", { id: "reco-form", noValidate: true });
  const mood = el("input", { id: "reco-mood", type: "text", maxLength: 200, autocomplete: "off", placeholder: "Celebrating, relaxed, thirsty…" });
  const alcoholFree = el("input", { id: "reco-af", type: "checkbox" });
  const submit = el("button", { id: "reco-ask", class: "primary block", type: "submit", text: "Suggest drinks" });
  const error = el("p", { id: "reco-error", class: "error", role: "alert", hidden: true });
  form.append(
    chips("reco-like", "I feel like something…"),
    chips("reco-dislike", "…but not"),
    el("div", { class: "field" }, el("label", { for: "reco-mood", text: "My mood" }), mood),
    el("label", { class: "check-row" }, alcoholFree, " Alcohol-free only"),
    error,
    submit,
  );
  // Liking and disliking one taste makes no sense: one clears the other.
  form.addEventListener("change", (e) => {
    const t = e.target;
    if (!t.checked || !t.name?.startsWith("reco-")) return;
    const other = t.name === "reco-like" ? "reco-dislike" : "reco-like";
    const twin = form.querySelector(`input[name="${other}"][value="${t.value}"]`);
    if (twin) twin.checked = false;
  });

  const status = el("div", { id: "reco-status", role: "status", "aria-live": "polite" });
  const result = el("div", { id: "reco-result" });
  area.replaceChildren(
    el(
      "div",
      { class: "card reco" },
      el("h2", { text: "What should I drink?" }),
      el("p", { class: "muted", text: "Tell the bartender what you feel like. Your allergies and tastes from your answer are taken into account." }),
      form,
      status,
      result,
    ),
  );

  let pending = null; // {id, timer, started}

  function render(rec) {
    if (!pending || rec.id !== pending.id) return;
    if (rec.status === "queued") return;
    clearTimeout(pending.timer);
    pending = null;
    submit.disabled = false;
    status.replaceChildren();
    if (rec.status !== "done") {
      result.replaceChildren(el("p", { class: "error", text: rec.error || "The bartender could not pick drinks just now. Please ask again." }));
      return;
    }
    const list = el("ol", { class: "reco-picks" });
    for (const d of rec.drinks || []) {
      const item = el("li", { "data-drink-id": d.id }, el("strong", { text: d.name }), el("p", { text: d.reason }));
      list.append(item);
    }
    const parts = [sourceBadge(rec)];
    // The note says which case it is (the AI bartender busy, nothing that
    // fits): it comes before the picks, and stands alone when there are none.
    if (rec.note) parts.push(el("p", { class: "reco-note", text: rec.note }));
    if ((rec.drinks || []).length > 0) {
      parts.push(list);
    } else if (!rec.note) {
      parts.push(el("p", { class: "reco-note", text: "Nothing on tonight's menu fits all of that. Try fewer dislikes, or ask at the bar." }));
    }
    result.replaceChildren(...parts);
    // The menu module may scroll to a drink when asked.
    document.dispatchEvent(new CustomEvent("barhub:recommended", { detail: rec }));
  }

  async function poll() {
    if (!pending) return;
    if (Date.now() - pending.started > GIVE_UP_MS) {
      const id = pending.id;
      render({ id, status: "failed", error: "The bartender is taking too long. Please ask again in a minute." });
      return;
    }
    try {
      render(await api("GET", `/api/recommendations/${encodeURIComponent(pending.id)}`));
    } catch {
      // Offline for a moment: the next poll or the live event will do.
    }
    if (pending) pending.timer = setTimeout(poll, POLL_MS);
  }

  const live = startLive();
  const topic = `guest:${me.guest.id}`;
  // The answer can beat the POST's own response to the phone: keep what
  // arrives until it is asked for.
  const arrived = new Map();
  live.on("recommendation.ready", (data) => {
    if (!data?.id) return;
    arrived.set(data.id, data);
    render(data);
  });
  live.onResync(topic, () => poll());
  live.subscribe(topic);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    result.replaceChildren();
    status.replaceChildren(el("p", { class: "reco-waiting", text: "Asking the bartender…" }));
    try {
      const body = {
        likes: checked(form, "reco-like"),
        dislikes: checked(form, "reco-dislike"),
        mood: mood.value.trim(),
        alcoholFree: alcoholFree.checked,
      };
      const { id } = await api("POST", "/api/recommendations", body);
      pending = { id, started: Date.now(), timer: setTimeout(poll, POLL_MS) };
      if (arrived.has(id)) render(arrived.get(id));
    } catch (err) {
      status.replaceChildren();
      error.textContent = err.message;
      error.hidden = false;
      submit.disabled = false;
    }
  });
}

const area = document.getElementById("reco-area");
const me = auth();
if (area && me?.guest?.id) startReco(area, me);
