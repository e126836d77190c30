// The host's bar panel, in <section id="bar-admin-area"> of the admin page: the guests'
// app switch (kill switch), live order counts, and the drink editor with photo upload.
import { api, ApiError, auth } from "./api.js";
import { startLive } from "./page.js";
import { apiDetailed, h, loadStyles, toast } from "./bar-common.js";
import { t, has, formatNumber, lang } from "./i18n.js";

const area = document.getElementById("bar-admin-area");
const me = auth();

const UNITS = ["ml", "cl", "oz", "dash", "drop", "barspoon", "tsp", "tbsp", "piece", "slice", "wedge", "leaf", "sprig", "pinch", "scoop", "whole"];
// What a drink is served over: [value, label] (menu.Ice on the server).
const ICES = [["", "—"], ["cubes", t("drinks.ice.cubes")], ["crushed", t("drinks.ice.crushed")], ["large", t("drinks.ice.large")], ["none", t("drinks.ice.none")]];
const ALLERGENS = ["gluten", "crustaceans", "eggs", "fish", "peanuts", "soy", "milk", "nuts", "celery", "mustard", "sesame", "sulphites", "lupin", "molluscs", "honey"];
const MAX_PHOTO = 5 * 1024 * 1024;

// imageModel is the model that pictures drinks, "" while unknown or when barhub draws
// them itself: "New picture" is offered only with one (the server answers 409 without).
const state = { drinks: [], sections: [], appKey: null, query: "", imageModel: "" };

if (area && me?.role === "admin") start();

function start() {
  loadStyles("/static/css/bar.css");
  area.classList.add("bar-admin");
  area.append(
    h("div", { class: "card", id: "app-switch-card" },
      h("div", { class: "section-head row" }, h("h2", {}, t("drinks.app.title")), h("span", { class: "spacer" }),
        h("span", { id: "app-state", class: "badge" }, "…")),
      h("p", { class: "muted" }, t("drinks.app.intro")),
      h("div", { class: "row" },
        h("button", { id: "app-toggle", type: "button" }, "…"),
        h("button", { id: "app-rotate", type: "button", class: "quiet" }, t("drinks.app.rotate")))),
    h("div", { class: "card", id: "orders-card" },
      h("h2", {}, t("drinks.orders.title")),
      h("div", { class: "grid stats" },
        ["queued", "preparing", "ready", "served", "cancelled"].map((k) =>
          h("div", { class: "stat" }, h("span", { class: "value", id: `orders-${k}` }, "0"), h("span", { class: "label" }, t(`drinks.orders.${k}`)))))),
    h("div", { class: "card", id: "drinks-card" },
      h("div", { class: "section-head row" }, h("h2", {}, t("drinks.title")), h("span", { class: "spacer" }),
        h("button", { id: "drink-new", type: "button", class: "primary" }, t("drinks.new"))),
      h("label", { class: "visually-hidden", for: "drink-search" }, t("drinks.find")),
      h("input", { id: "drink-search", type: "search", placeholder: t("drinks.find"), autocomplete: "off" }),
      h("div", { class: "table-wrap" },
        h("table", { class: "drink-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("drinks.col.photo")), h("th", {}, t("drinks.col.drink")), h("th", {}, t("drinks.col.section")), h("th", {}, t("drinks.col.strength")), h("th", {}, t("drinks.col.status")))),
          h("tbody", { id: "drink-rows" })))),
    editorDialog(),
  );
  document.getElementById("drink-new").addEventListener("click", () => openEditor(null));
  document.getElementById("drink-search").addEventListener("input", (e) => {
    state.query = e.target.value.trim().toLowerCase();
    renderDrinks();
  });
  document.getElementById("app-toggle").addEventListener("click", () => setApp(!state.appKey?.enabled, false));
  document.getElementById("app-rotate").addEventListener("click", () => {
    if (window.confirm(t("drinks.app.confirmRotate"))) setApp(state.appKey?.enabled ?? true, true);
  });

  const live = startLive();
  live.on("orders.summary", (data) => renderCounts(data));
  // A seeded menu brings a prompt (and a menu change) per drink: one
  // reload for the burst.
  let reloadTimer = null;
  const reloadSoon = () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => loadDrinks(), 300);
  };
  live.on("menu.changed", reloadSoon);
  live.on("drink.prompt_ready", reloadSoon);
  live.on("app.status", () => loadAppKey());
  live.subscribe("admin");
  live.subscribe("menu");

  loadAppKey();
  loadDrinks();
  loadCounts();
  loadImageModel();
}

// loadImageModel learns from the jobs list whether drinks' pictures can be generated.
async function loadImageModel() {
  try {
    const out = await api("GET", "/api/admin/jobs?limit=1");
    state.imageModel = out.imageModel || "";
  } catch (err) {
    console.warn("image model", err);
    return;
  }
  if (document.getElementById("drink-dialog").open) document.getElementById("photo-regenerate").hidden = !canRegenerate(editing);
}

// ---- Guest app switch ---------------------------------------------------------------------

async function loadAppKey() {
  try {
    state.appKey = await api("GET", "/api/admin/app-key");
    renderApp();
  } catch (err) {
    toast(err.message, "bad");
  }
}

function renderApp() {
  const on = state.appKey?.enabled;
  const badge = document.getElementById("app-state");
  badge.textContent = on ? t("drinks.app.on") : t("drinks.app.off");
  badge.className = on ? "badge ok" : "badge bad";
  const btn = document.getElementById("app-toggle");
  btn.textContent = on ? t("drinks.app.switchOff") : t("drinks.app.switchOn");
  btn.className = on ? "danger" : "primary";
}

async function setApp(enabled, rotate) {
  try {
    state.appKey = await api("PUT", "/api/admin/app-key", { enabled, rotate });
    renderApp();
    toast(rotate ? t("drinks.app.rotated") : enabled ? t("drinks.app.isOn") : t("drinks.app.isOff"));
  } catch (err) {
    toast(err.message, "bad");
  }
}

// ---- Order counts ---------------------------------------------------------------------------

async function loadCounts() {
  try {
    const out = await api("GET", "/api/admin/orders?limit=1");
    renderCounts(out.counts);
  } catch (err) {
    console.warn("order counts", err);
  }
}

function renderCounts(c) {
  for (const k of ["queued", "preparing", "ready", "served", "cancelled"]) {
    document.getElementById(`orders-${k}`).textContent = String(c?.[k] ?? 0);
  }
}

// ---- Drinks ------------------------------------------------------------------------------------

// The admin reads the menu like a guest does, so it needs the public app's key.
async function menuGet(path) {
  const k = await api("GET", "/api/app-key");
  return api("GET", path, undefined, { headers: { "X-Api-Key": k.key || "" } });
}

async function loadDrinks() {
  try {
    const [secs, list] = await Promise.all([menuGet("/api/sections"), menuGet("/api/drinks")]);
    state.sections = secs.sections;
    state.drinks = list.drinks;
  } catch (err) {
    if (err instanceof ApiError && err.code === "app_switched_off") {
      // The guests' app is off; the editor still works from what it showed last.
      return;
    }
    toast(err.message, "bad");
  }
  renderDrinks();
}

function renderDrinks() {
  const rows = state.drinks.filter((d) => !state.query || d.name.toLowerCase().includes(state.query) || d.ingredients.some((i) => i.name.toLowerCase().includes(state.query)));
  // The section's name in the page's language, as the guest's menu shows it.
  const sectionName = (id) => {
    const s = state.sections.find((x) => x.id === id);
    return s?.i18n?.[lang]?.name || s?.name || id;
  };
  document.getElementById("drink-rows").replaceChildren(...rows.map((d) =>
    h("tr", { dataset: { id: d.id } },
      h("td", {}, d.imageUrl ? h("img", { class: "thumb", src: d.imageUrl, alt: "", width: 56, height: 42, loading: "lazy" }) : h("span", { class: "thumb empty-thumb", "aria-hidden": "true" }, "—")),
      h("td", {}, h("button", { type: "button", class: "link-button", onclick: () => openEditor(d) }, d.name)),
      h("td", {}, sectionName(d.section)),
      h("td", {}, d.alcoholFree ? t("drinks.alcoholFree") : `${formatNumber(d.abv)}% · ${formatNumber(d.standardDrinks)}`),
      h("td", {}, d.available ? h("span", { class: "badge ok" }, t("drinks.available")) : h("span", { class: "badge bad" }, d.missingIngredients.length ? t("drinks.outOf", { ingredients: d.missingIngredients.join(", ") }) : t("drinks.out"))))));
}

// ---- Editor ------------------------------------------------------------------------------------

function editorDialog() {
  return h("dialog", { id: "drink-dialog", class: "bar-dialog drink-editor", "aria-labelledby": "drink-title" },
    h("form", { id: "drink-form", method: "dialog", novalidate: true },
      h("h2", { id: "drink-title" }, t("drinks.col.drink")),
      field("drink-name", t("drinks.f.name"), h("input", { id: "drink-name", maxlength: 80, required: true })),
      field("drink-section", t("drinks.col.section"), h("input", { id: "drink-section", list: "section-list", maxlength: 60, required: true }), t("drinks.f.sectionHint")),
      h("datalist", { id: "section-list" }),
      field("drink-description", t("drinks.f.description"), h("textarea", { id: "drink-description", maxlength: 500, rows: 2 })),
      h("fieldset", { class: "field" }, h("legend", {}, t("drinks.f.ingredients")),
        h("div", { id: "ingredient-rows", class: "ingredient-rows" }),
        h("button", { type: "button", id: "ingredient-add", class: "quiet" }, t("drinks.f.addIngredient")),
        h("span", { class: "hint field-error", id: "err-ingredients" })),
      h("div", { class: "row two" },
        field("drink-abv", t("drinks.f.abv"), h("input", { id: "drink-abv", type: "number", min: 0, max: 100, step: 0.1, inputmode: "decimal" })),
        h("label", { class: "check-row" }, h("input", { id: "drink-af", type: "checkbox" }), ` ${t("drinks.alcoholFree")}`)),
      h("fieldset", { class: "field recipe-fields" }, h("legend", {}, t("drinks.f.recipe")),
        h("div", { class: "row two" },
          field("drink-glass", t("drinks.f.glass"), h("input", { id: "drink-glass", maxlength: 40, placeholder: t("drinks.f.glassPlaceholder") })),
          field("drink-ice", t("drinks.f.ice"), h("select", { id: "drink-ice" }, ICES.map(([v, label]) => h("option", { value: v }, label))))),
        field("drink-garnish", t("drinks.f.garnish"), h("input", { id: "drink-garnish", maxlength: 80, placeholder: t("drinks.f.garnishPlaceholder") })),
        field("drink-method", t("drinks.f.method"), h("textarea", { id: "drink-method", rows: 4, placeholder: t("drinks.f.methodPlaceholder") }), t("drinks.f.methodHint"))),
      field("drink-tags", t("drinks.f.tags"), h("input", { id: "drink-tags", placeholder: "sour, fresh, bitter" }), t("drinks.f.tagsHint")),
      h("fieldset", { class: "field" }, h("legend", {}, t("drinks.f.allergens")),
        h("div", { class: "allergen-grid" }, ALLERGENS.map((a) =>
          h("label", { class: "check-row" }, h("input", { type: "checkbox", name: "allergen", value: a }), ` ${has(`allergen.${a}`) ? t(`allergen.${a}`) : a === "honey" ? t("drinks.honey") : a}`))),
        h("span", { class: "hint field-error", id: "err-allergens" })),
      h("fieldset", { class: "field photo-field", id: "photo-field" }, h("legend", {}, t("drinks.col.photo")),
        h("div", { class: "row" },
          h("img", { id: "photo-preview", class: "photo-preview", alt: "", hidden: true }),
          h("label", { class: "button", for: "photo-file" }, t("drinks.f.choosePhoto")),
          h("input", { id: "photo-file", type: "file", accept: "image/jpeg,image/png,image/webp", class: "visually-hidden" })),
        h("span", { class: "hint", id: "photo-source", hidden: true }),
        h("div", { class: "photo-actions" },
          h("button", { type: "button", id: "photo-regenerate", hidden: true }, t("drinks.f.regenerate")),
          h("button", { type: "button", id: "photo-remove", class: "danger", hidden: true }, t("drinks.f.removePicture"))),
        h("span", { class: "hint", id: "photo-hint" }, t("drinks.f.photoHintNew")),
        h("p", { class: "hint prompt", id: "photo-prompt", hidden: true })),
      h("p", { id: "drink-error", class: "error", role: "alert", hidden: true }),
      h("div", { class: "actions" },
        h("button", { id: "drink-save", class: "primary", type: "submit", value: "save" }, t("common.save")),
        h("button", { id: "drink-delete", class: "danger", type: "button" }, t("desk.dialog.delete")),
        h("button", { type: "button", id: "drink-cancel" }, t("common.close")))));
}

function field(id, label, input, hint) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input,
    hint && h("span", { class: "hint" }, hint), h("span", { class: "hint field-error", id: `err-${id.replace("drink-", "")}` }));
}

function ingredientRow(ing = { name: "", amount: "", unit: "ml" }) {
  return h("div", { class: "ingredient-row" },
    h("input", { class: "ing-name", "aria-label": t("drinks.f.ingredient"), placeholder: "Gin", value: ing.name, maxlength: 60 }),
    h("input", { class: "ing-amount", "aria-label": t("drinks.f.amount"), type: "number", min: 0, step: "any", inputmode: "decimal", value: ing.amount }),
    h("select", { class: "ing-unit", "aria-label": t("drinks.f.unit") }, UNITS.map((u) => h("option", { value: u, selected: u === ing.unit }, u))),
    h("button", { type: "button", class: "quiet", "aria-label": t("drinks.f.remove"), onclick: (e) => e.currentTarget.parentElement.remove() }, "✕"));
}

let editing = null;

function openEditor(d) {
  editing = d;
  const dlg = document.getElementById("drink-dialog");
  document.getElementById("drink-title").textContent = d ? t("drinks.editTitle", { name: d.name }) : t("drinks.new");
  document.getElementById("drink-name").value = d?.name || "";
  document.getElementById("drink-section").value = d ? state.sections.find((s) => s.id === d.section)?.name || d.section : "";
  document.getElementById("section-list").replaceChildren(...state.sections.map((s) => h("option", { value: s.name })));
  document.getElementById("drink-description").value = d?.description || "";
  document.getElementById("drink-abv").value = d ? String(d.abv) : "";
  document.getElementById("drink-af").checked = !!d?.alcoholFree;
  document.getElementById("drink-tags").value = (d?.tags || []).join(", ");
  document.getElementById("drink-glass").value = d?.glass || "";
  document.getElementById("drink-ice").value = d?.ice || "";
  document.getElementById("drink-garnish").value = d?.garnish || "";
  document.getElementById("drink-method").value = (d?.method || []).join("\n");
  for (const box of document.querySelectorAll('input[name="allergen"]')) box.checked = !!d?.allergens.includes(box.value);
  const rows = document.getElementById("ingredient-rows");
  rows.replaceChildren(...(d?.ingredients?.length ? d.ingredients.map((i) => ingredientRow(i)) : [ingredientRow(), ingredientRow()]));
  document.getElementById("ingredient-add").onclick = () => rows.append(ingredientRow());
  document.getElementById("drink-delete").hidden = !d;
  document.getElementById("drink-delete").onclick = () => deleteDrink();
  document.getElementById("drink-cancel").onclick = () => dlg.close();
  document.getElementById("drink-form").onsubmit = (e) => {
    e.preventDefault();
    saveDrink();
  };
  showPhoto(d);
  const file = document.getElementById("photo-file");
  file.value = "";
  file.disabled = !d;
  file.onchange = () => uploadPhoto(file.files[0]);
  clearErrors();
  dlg.showModal();
}

function showPhoto(d) {
  const img = document.getElementById("photo-preview");
  img.hidden = !d?.imageUrl;
  if (d?.imageUrl) img.src = d.imageUrl;
  const prompt = document.getElementById("photo-prompt");
  prompt.hidden = !d?.imagePrompt?.text;
  if (d?.imagePrompt?.text) prompt.textContent = t("drinks.f.suggested", { source: d.imagePrompt.source, text: d.imagePrompt.text });
  document.getElementById("photo-hint").textContent = d ? t("drinks.f.photoHint") : t("drinks.f.photoHintNew");
  // Where the picture comes from, and what the host may do with it: a photo they
  // uploaded is only removed (nothing generated replaces it); a generated or drawn one
  // may be made anew; removing either brings back barhub's drawing.
  const source = d?.imageSource || "";
  const label = document.getElementById("photo-source");
  label.hidden = !source;
  if (source) label.textContent = t(`drinks.f.pictureSource.${source}`);
  const regenerate = document.getElementById("photo-regenerate");
  regenerate.hidden = !canRegenerate(d);
  regenerate.onclick = () => regeneratePicture();
  const remove = document.getElementById("photo-remove");
  remove.hidden = !d || (source !== "uploaded" && source !== "generated");
  remove.onclick = () => removePicture();
}

// canRegenerate: a new picture can be had for d when an image model is configured and
// the host has not uploaded a photo of their own.
function canRegenerate(d) {
  return !!d && d.imageSource !== "uploaded" && !!state.imageModel;
}

async function regeneratePicture() {
  if (!editing) return;
  const hint = document.getElementById("photo-hint");
  try {
    await api("POST", `/api/admin/drinks/${encodeURIComponent(editing.id)}/image/regenerate`);
    hint.textContent = t("drinks.f.pictureQueued");
  } catch (err) {
    hint.textContent = err.message;
  }
}

async function removePicture() {
  if (!editing) return;
  const hint = document.getElementById("photo-hint");
  try {
    const d = await api("DELETE", `/api/admin/drinks/${encodeURIComponent(editing.id)}/image`);
    editing = { ...editing, imageUrl: d.imageUrl, imageSource: d.imageSource };
    showPhoto(editing);
    hint.textContent = t("drinks.f.pictureRemoved");
    loadDrinks();
  } catch (err) {
    hint.textContent = err.message;
  }
}

function clearErrors() {
  document.getElementById("drink-error").hidden = true;
  for (const el of document.querySelectorAll("#drink-form .field-error")) el.textContent = "";
  for (const el of document.querySelectorAll("#drink-form [aria-invalid]")) el.removeAttribute("aria-invalid");
}

function formBody() {
  const num = (v) => (v === "" ? 0 : Number(v));
  return {
    name: document.getElementById("drink-name").value,
    section: document.getElementById("drink-section").value,
    description: document.getElementById("drink-description").value,
    ingredients: [...document.querySelectorAll(".ingredient-row")]
      .map((r) => ({ name: r.querySelector(".ing-name").value.trim(), amount: num(r.querySelector(".ing-amount").value), unit: r.querySelector(".ing-unit").value }))
      .filter((i) => i.name !== ""),
    abv: num(document.getElementById("drink-abv").value),
    alcoholFree: document.getElementById("drink-af").checked,
    tags: document.getElementById("drink-tags").value.split(",").map((t) => t.trim()).filter(Boolean),
    allergens: [...document.querySelectorAll('input[name="allergen"]:checked')].map((b) => b.value),
    glass: document.getElementById("drink-glass").value,
    ice: document.getElementById("drink-ice").value,
    garnish: document.getElementById("drink-garnish").value,
    method: document.getElementById("drink-method").value.split("\n").map((l) => l.trim()).filter(Boolean),
  };
}

async function saveDrink() {
  clearErrors();
  const btn = document.getElementById("drink-save");
  btn.disabled = true;
  try {
    const d = editing
      ? await apiDetailed("PUT", `/api/admin/drinks/${encodeURIComponent(editing.id)}`, formBody())
      : await apiDetailed("POST", "/api/admin/drinks", formBody());
    toast(editing ? `${d.name} saved.` : `${d.name} is on the menu. Add a photo?`);
    editing = d;
    document.getElementById("drink-title").textContent = t("drinks.editTitle", { name: d.name });
    document.getElementById("drink-delete").hidden = false;
    document.getElementById("photo-file").disabled = false;
    showPhoto(d);
    loadDrinks();
  } catch (err) {
    showProblems(err);
  } finally {
    btn.disabled = false;
  }
}

// showProblems puts each of the server's problems next to its field.
function showProblems(err) {
  const box = document.getElementById("drink-error");
  box.textContent = err.message;
  box.hidden = false;
  for (const p of err.details?.problems || []) {
    const key = p.field.startsWith("ingredients") ? "ingredients" : p.field.startsWith("method") ? "method" : p.field === "alcoholFree" ? "abv" : p.field;
    const slot = document.getElementById(`err-${key}`);
    if (slot && !slot.textContent) slot.textContent = p.message;
    document.getElementById(`drink-${key}`)?.setAttribute("aria-invalid", "true");
  }
}

async function deleteDrink() {
  if (!editing || !window.confirm(t("drinks.confirmDelete", { name: editing.name }))) return;
  try {
    await api("DELETE", `/api/admin/drinks/${encodeURIComponent(editing.id)}`);
    document.getElementById("drink-dialog").close();
    toast(`${editing.name} deleted.`);
    loadDrinks();
  } catch (err) {
    toast(err.message, "bad");
  }
}

// uploadPhoto asks for a signed URL (ten minutes) and sends the file straight to it.
async function uploadPhoto(file) {
  if (!file || !editing) return;
  const hint = document.getElementById("photo-hint");
  if (file.size > MAX_PHOTO) {
    hint.textContent = t("drinks.f.photoTooBig", { size: formatNumber(Math.round(file.size / 104857.6) / 10) });
    return;
  }
  hint.textContent = t("drinks.f.uploading");
  try {
    const u = await api("POST", `/api/admin/drinks/${encodeURIComponent(editing.id)}/image-upload`);
    const res = await fetch(u.uploadUrl, { method: u.method, body: file, headers: { "Content-Type": file.type || "application/octet-stream" } });
    const out = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(out?.error?.message || t("drinks.f.uploadFailed", { status: res.status }));
    editing = { ...editing, imageUrl: out.imageUrl, imageSource: "uploaded" };
    showPhoto(editing);
    hint.textContent = t("drinks.f.photoSaved");
    loadDrinks();
  } catch (err) {
    hint.textContent = err.message;
  }
}
