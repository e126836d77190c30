// Registration on the host's desk (docs/REGISTRATION.md): in the event's settings, who
// may join without an invitation, the capacity and how long an offered place waits; and
// the registrations with the waiting list, followed live (registrations.changed).
import { api } from "./api.js";
import { h } from "./bar-common.js";
import { startLive } from "./page.js";
import { t, formatDateTime } from "./i18n.js";

const MODES = ["closed", "open", "approval"];

function settingsForm() {
  const mode = h("select", { id: "reg-mode" }, MODES.map((m) => h("option", { value: m }, t(`registration.mode.${m}`))));
  const capacity = h("input", { id: "reg-capacity", type: "number", min: 0, max: 1000000, inputmode: "numeric" });
  const hours = h("input", { id: "reg-offer-hours", type: "number", min: 1, max: 720, inputmode: "numeric" });
  const error = h("p", { class: "error wide", role: "alert", hidden: true });
  const status = h("span", { class: "saved", role: "status" });
  const link = h("a", { href: "/join", target: "_blank", rel: "noopener" }, `${location.origin}/join`);
  const form = h("form", { id: "registration-settings", class: "form-grid", novalidate: true },
    h("h3", { class: "wide" }, t("registration.title")),
    h("div", { class: "field" }, h("label", { for: "reg-mode" }, t("registration.mode")), mode),
    h("div", { class: "field" }, h("label", { for: "reg-capacity" }, t("registration.capacity")), capacity,
      h("span", { class: "hint" }, t("registration.capacityHint"))),
    h("div", { class: "field" }, h("label", { for: "reg-offer-hours" }, t("registration.offerHours")), hours),
    h("p", { class: "wide hint" }, t("registration.link"), " ", link),
    error,
    h("div", { class: "wide row" }, h("button", { id: "reg-save", class: "primary", type: "submit" }, t("common.save")), status));
  const load = async () => {
    // Another event's page than the first names it in its address (docs/EVENTS.md).
    const mine = await api("GET", "/api/me/events").catch(() => null);
    const here = mine?.events?.find((e) => e.current);
    if (here && !here.first) {
      link.href = `/join?event=${encodeURIComponent(here.id)}`;
      link.textContent = `${location.origin}${link.getAttribute("href")}`;
    }
    const s = await api("GET", "/api/admin/settings");
    mode.value = s.registration || "closed";
    capacity.value = s.capacity || 0;
    hours.value = s.offerHours || 24;
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    status.textContent = "";
    try {
      // The event's other settings stay as saved: the server keeps what a form leaves out
      // only for these three, so the rest is sent back as read.
      const s = await api("GET", "/api/admin/settings");
      const local = (d) => (d ? d.slice(0, 16) : "");
      await api("PUT", "/api/admin/settings", {
        eventName: s.eventName, eventDate: local(s.eventDate), location: s.location, dressCode: s.dressCode,
        info: s.info, rsvpDeadline: local(s.rsvpDeadline), timezone: s.timezone,
        registration: mode.value, capacity: Number(capacity.value || 0), offerHours: Number(hours.value || 24),
      });
      status.textContent = t("tools.saved");
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  return { form, load };
}

function deskSection() {
  const counts = h("p", { id: "registrations-counts", role: "status" }, t("common.loading"));
  const list = h("ol", { id: "registrations-list", class: "registrations" });
  const section = h("section", { id: "registrations", class: "card", "aria-labelledby": "registrations-title" },
    h("h2", { id: "registrations-title" }, t("registration.desk")), counts, list);
  const render = (d) => {
    const c = d.counts;
    counts.textContent = t(c.capacity > 0 ? "registration.counts" : "registration.countsNoCap", c);
    const active = d.registrations.filter((r) => ["pending", "waiting", "offered", "placed"].includes(r.status));
    list.replaceChildren(...(active.length ? active.map(row) : [h("li", { class: "muted" }, t("registration.none"))]));
  };
  const row = (r) => {
    const people = t("registration.people", { count: 1 + r.plusOnes });
    const until = r.offeredUntil ? t("registration.until", { time: formatDateTime(r.offeredUntil) }) : "";
    const actions = [];
    if (r.status === "pending") actions.push(h("button", { type: "button", onclick: () => act("POST", `/api/admin/registrations/${r.id}/approve`) }, t("registration.approve")));
    actions.push(h("button", { type: "button", class: "quiet", onclick: () => {
      if (confirm(t("registration.removeConfirm", { name: r.firstName }))) act("DELETE", `/api/admin/registrations/${r.id}`);
    } }, t("registration.remove")));
    return h("li", { dataset: { status: r.status, id: r.id } },
      h("strong", {}, `${r.firstName} ${r.lastName}`), ` · ${people} · `,
      h("span", { class: "reg-status" }, t(`registration.status.${r.status}`)), until ? ` · ${until}` : "", " ", ...actions);
  };
  const load = async () => render(await api("GET", "/api/admin/registrations"));
  const act = async (method, path) => {
    try {
      await api(method, path);
    } catch (err) {
      alert(err.message);
    }
    load();
  };
  return { section, render, load };
}

function main() {
  const settings = document.getElementById("settings");
  if (!settings) return;
  const { form, load: loadSettings } = settingsForm();
  settings.append(form);
  const desk = deskSection();
  settings.before(desk.section);
  const live = startLive();
  live.on("registrations.changed", (d) => desk.render(d));
  live.onResync("admin", () => desk.load().catch(() => {}));
  live.subscribe("admin");
  loadSettings().catch(() => {});
  desk.load().catch(() => {});
}

main();
