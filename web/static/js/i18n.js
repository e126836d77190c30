// Translations for every barhub page: English, Swedish and Brazilian Portuguese.
//
// Importing this module loads the page's catalogue (web/static/i18n/<lang>.json) before
// any importer runs (top-level await), so t() is synchronous everywhere, and translates
// the page's static text:
//
//   <h1 data-i18n="login.welcome">Welcome</h1>
//   <button data-i18n-title="common.signOutEverywhereTitle">
//
// (also -placeholder, -aria-label, -alt, -label, -content, -value). Scripts use
// t(key, vars): t("login.signedInAs", {name: "Ana"}) fills {name}. A message may have
// plural forms ({"one": "…", "other": "…"}) chosen by vars.count (Intl.PluralRules).
// The language is the saved choice, else the browser's first language we speak, else
// English; <barhub-lang> is the switch. How to add a string or a language: docs/I18N.md.

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "sv", name: "Svenska" },
  { code: "pt-BR", name: "Português (BR)" },
];

const KEY_LANG = "barhub.lang";
const ATTRIBUTES = ["placeholder", "title", "aria-label", "alt", "label", "content", "value"];

// pickLanguage chooses among LANGUAGES: the saved choice, else the first of the browser's
// languages we speak (exactly, or by its base language: sv-SE is Swedish, pt-PT is
// Brazilian Portuguese, en-GB is English), else English.
export function pickLanguage(saved, preferred = []) {
  const codes = LANGUAGES.map((l) => l.code);
  const exact = (tag) => codes.find((c) => c.toLowerCase() === String(tag || "").toLowerCase());
  const base = (tag) => String(tag || "").toLowerCase().split("-")[0];
  if (exact(saved)) return exact(saved);
  for (const tag of preferred) {
    const hit = exact(tag) || codes.find((c) => base(c) === base(tag));
    if (hit) return hit;
  }
  return "en";
}

function savedLanguage() {
  try {
    return localStorage.getItem(KEY_LANG);
  } catch {
    return null; // storage blocked: follow the browser
  }
}

const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language];

// lang is the page's language, one of LANGUAGES' codes.
export const lang = pickLanguage(new URLSearchParams(location.search).get("lang") || savedLanguage(), browserLanguages);

// locale is what Intl formats with: the browser's own variant of our language when it
// has one (en-GB keeps its 24-hour clock), else the language itself.
export const locale =
  browserLanguages.find((tag) => String(tag).toLowerCase().split("-")[0] === lang.toLowerCase().split("-")[0]) || lang;

async function loadCatalogue(code) {
  try {
    // no-cache revalidates with the ETag (a 304 when unchanged), so a release's new
    // strings arrive with its new scripts.
    const res = await fetch(`/static/i18n/${code}.json`, { cache: "no-cache" });
    return res.ok ? await res.json() : {};
  } catch {
    return {}; // offline: the page's own English text stays
  }
}

const [messages, fallback] = await Promise.all([
  loadCatalogue(lang),
  lang === "en" ? Promise.resolve(null) : loadCatalogue("en"),
]);

const plurals = new Intl.PluralRules(locale);
const numbers = new Intl.NumberFormat(locale);

// has reports whether key is in the catalogue (in this language or in English).
export function has(key) {
  return key in messages || (fallback !== null && key in fallback);
}

// t returns the message key in the page's language (English when this language lacks
// it, the key itself when no catalogue has it), with {name} placeholders filled from
// vars; numbers are formatted for the locale.
export function t(key, vars = {}) {
  let msg = messages[key] ?? fallback?.[key];
  if (msg === undefined) return key;
  if (typeof msg === "object" && msg !== null) {
    const n = Number(vars.count ?? 0);
    msg = msg[plurals.select(n)] ?? msg.other ?? "";
  }
  return String(msg).replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in vars)) return whole;
    const v = vars[name];
    return typeof v === "number" ? numbers.format(v) : String(v ?? "");
  });
}

// translate applies data-i18n and data-i18n-<attribute> under root (and on root).
export function translate(root = document) {
  const els = [];
  if (root.nodeType === Node.ELEMENT_NODE) els.push(root);
  const selector = ["[data-i18n]", ...ATTRIBUTES.map((a) => `[data-i18n-${a}]`)].join(",");
  els.push(...root.querySelectorAll(selector));
  for (const el of els) {
    const key = el.getAttribute("data-i18n");
    if (key && has(key)) el.textContent = t(key);
    for (const attr of ATTRIBUTES) {
      const k = el.getAttribute(`data-i18n-${attr}`);
      if (k && has(k)) el.setAttribute(attr, t(k));
    }
  }
}

// setLanguage saves the choice and reloads, so every part of the page (including text
// already built by scripts) comes up in the new language.
export function setLanguage(code) {
  try {
    localStorage.setItem(KEY_LANG, code);
  } catch {
    // storage blocked: the ?lang= below still switches this page
  }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  if (savedLanguage() !== code) url.searchParams.set("lang", code);
  location.replace(url);
}

// Formatting per locale. Dates accept a Date, an ISO string or milliseconds; opts are
// Intl's, e.g. {timeZone: "Europe/Stockholm"} for the event's own time zone.
function asDate(d) {
  return d instanceof Date ? d : new Date(d);
}

export function formatNumber(n, opts) {
  return new Intl.NumberFormat(locale, opts).format(n);
}

export function formatDate(d, opts = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(locale, opts).format(asDate(d));
}

export function formatTime(d, opts = {}) {
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", ...opts }).format(asDate(d));
}

export function formatDateTime(d, opts = {}) {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", ...opts }).format(asDate(d));
}

// formatRelative says how long ago (or until) d is: "3 minutes ago", "för 3 minuter sedan".
export function formatRelative(d, now = Date.now()) {
  const secs = Math.round((asDate(d).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const abs = Math.abs(secs);
  if (abs < 60) return rtf.format(secs, "second");
  if (abs < 3600) return rtf.format(Math.round(secs / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(secs / 3600), "hour");
  return rtf.format(Math.round(secs / 86400), "day");
}

// formatList joins items the locale's way: "gin, rum and lime", "gin, rom och lime".
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(locale, { style: "long", type }).format(items.map(String));
}

// <barhub-lang> is the language switch, small enough for a phone's top bar: it shows the
// language's short code ("SV") and opens the system's own picker with the full names.
class LanguageSwitch extends HTMLElement {
  connectedCallback() {
    if (this.firstChild) return;
    const label = document.createElement("label");
    label.className = "lang-switch";
    const code = document.createElement("span");
    code.className = "lang-code";
    code.setAttribute("aria-hidden", "true");
    code.textContent = lang.split("-")[0].toUpperCase();
    const select = document.createElement("select");
    select.setAttribute("aria-label", t("lang.label"));
    select.title = t("lang.label");
    for (const l of LANGUAGES) {
      const opt = document.createElement("option");
      opt.value = l.code;
      opt.textContent = l.name;
      opt.lang = l.code;
      opt.selected = l.code === lang;
      select.append(opt);
    }
    select.addEventListener("change", () => setLanguage(select.value));
    label.append(code, select);
    this.append(label);
  }
}

if (!customElements.get("barhub-lang")) customElements.define("barhub-lang", LanguageSwitch);

document.documentElement.lang = lang;
translate(document);
