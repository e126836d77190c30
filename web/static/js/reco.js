// "What should I drink?" on the guest's phone: the guest says what they like
// and how they feel, POST /api/recommendations queues the request, and the
// answer arrives live as recommendation.ready on the guest's own topic (with
// a slow poll behind it, in case the phone was asleep). The panel always says
// who picked: the AI bartender (Amazon Bedrock) or the house recommender. Each
// recommended drink has an Order button: the menu's order dialog (menu.js) opens over
// the recommendation, with the same allergy checks.
import { api, auth } from "./api.js";
import { startLive } from "./page.js";
import { has, t } from "./i18n.js";

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
  // Keys: taste.sour taste.sweet taste.bitter taste.fresh taste.fruity taste.sparkling taste.strong
  // taste.spicy taste.creamy taste.herbal taste.smoky taste.floral
  for (const taste of TASTES) {
    box.append(el("label", {}, el("input", { type: "checkbox", name, value: taste }), el("span", { text: t(`taste.${taste}`) })));
  }
  return el("fieldset", {}, el("legend", { text: legend }), box);
}

function checked(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
}

function sourceBadge(rec) {
  const badge = el("span", { class: "source-badge" });
  badge.dataset.source = rec.source || "local";
  badge.textContent = rec.source === "bedrock" ? t("reco.byBedrock") : t("reco.byHouse");
  return badge;
}

function ensureStyles() {
  if (document.querySelector('link[href="/static/css/ai.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/ai.css" }));
}

export function startReco(area, me) {
  ensureStyles();
  const form = el("form", { id: "reco-form", noValidate: true });
  const mood = el("input", { id: "reco-mood", type: "text", maxLength: 200, autocomplete: "off", placeholder: t("reco.moodPlaceholder") });
  const alcoholFree = el("input", { id: "reco-af", type: "checkbox" });
  const submit = el("button", { id: "reco-ask", class: "primary block", type: "submit", text: t("reco.ask") });
  const error = el("p", { id: "reco-error", class: "error", role: "alert", hidden: true });
  form.append(
    chips("reco-like", t("reco.like")),
    chips("reco-dislike", t("reco.dislike")),
    el("div", { class: "field" }, el("label", { for: "reco-mood", text: t("reco.mood") }), mood),
    el("label", { class: "check-row" }, alcoholFree, " ", t("guest.alcoholFreeOnly")),
    error,
    submit,
  );
  // Liking and disliking one taste makes no sense: one clears the other.
  form.addEventListener("change", (e) => {
    const box = e.target;
    if (!box.checked || !box.name?.startsWith("reco-")) return;
    const other = box.name === "reco-like" ? "reco-dislike" : "reco-like";
    const twin = form.querySelector(`input[name="${other}"][value="${box.value}"]`);
    if (twin) twin.checked = false;
  });

  const status = el("div", { id: "reco-status", role: "status", "aria-live": "polite" });
  const result = el("div", { id: "reco-result" });
  area.replaceChildren(
    el(
      "div",
      { class: "card reco" },
      el("h2", { text: t("reco.title") }),
      el("p", { class: "muted", text: t("reco.intro") }),
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
      // The server's error is English, for API clients; the page says it in its own words.
      result.replaceChildren(el("p", { class: "error", text: rec.pageText || t("reco.failed") }));
      return;
    }
    const list = el("ol", { class: "reco-picks" });
    for (const d of rec.drinks || []) {
      const order = el("button", { type: "button", class: "primary reco-order", text: t("guest.order"), "aria-label": t("guest.orderDrink", { drink: d.name }) });
      order.addEventListener("click", () => document.dispatchEvent(new CustomEvent("barhub:order-drink", { detail: d.id })));
      const item = el("li", { "data-drink-id": d.id }, el("div", { class: "reco-pick" }, el("strong", { text: d.name }), order), el("p", { text: d.reason }));
      list.append(item);
    }
    const parts = [sourceBadge(rec)];
    // The note says which case it is (the AI bartender busy, its suggestion
    // not safe for this guest or not usable, nothing that fits): it comes
    // before the picks, and stands alone when there are none.
    // Keys: reco.note.busy reco.note.unsafe reco.note.unusable reco.note.closest reco.note.nothing
    if (rec.note) parts.push(el("p", { class: "reco-note", text: rec.noteId && has(`reco.note.${rec.noteId}`) ? t(`reco.note.${rec.noteId}`) : rec.note }));
    if ((rec.drinks || []).length > 0) {
      parts.push(list);
    } else if (!rec.note) {
      parts.push(el("p", { class: "reco-note", text: t("reco.nothing") }));
    }
    result.replaceChildren(...parts);
    // The menu module may scroll to a drink when asked.
    document.dispatchEvent(new CustomEvent("barhub:recommended", { detail: rec }));
  }

  async function poll() {
    if (!pending) return;
    if (Date.now() - pending.started > GIVE_UP_MS) {
      const id = pending.id;
      render({ id, status: "failed", pageText: t("reco.tooLong") });
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
    status.replaceChildren(el("p", { class: "reco-waiting", text: t("reco.asking") }));
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
