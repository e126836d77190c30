// The host's notifications (docs/PUSH.md, "The host's notifications"): "Notify me on
// this device" subscribes this browser to Web Push as a guest's phone is, and the host
// chooses what arrives (answers in batches, the RSVP deadline, stock running low,
// waiting-list offers, dead jobs, a lost backplane) and the daily e-mail digest. The
// panel is built here into #host-notify.
import { api, auth } from "./api.js";
import { t, translate } from "./i18n.js";
import { h, loadStyles } from "./bar-common.js";
import { subscribe, supported } from "./push-subscribe.js";

const box = document.getElementById("host-notify");

async function registration() {
  if (!supported()) return null;
  try {
    return await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return null;
  }
}

async function deviceState(reg, status, button) {
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  const on = Boolean(sub && localStorage.getItem("barhub.pushDevice"));
  box.dataset.device = on ? "on" : "off";
  status.textContent = !reg ? t("hostNotify.unsupported") : on ? t("hostNotify.deviceOn") : t("hostNotify.deviceOff");
  button.hidden = !reg;
  button.textContent = on ? t("hostNotify.stop") : t("hostNotify.enable");
  return on;
}

function prefsForm(p) {
  const kinds = p.kinds.map((k) =>
    h("label", { class: "check" },
      h("input", { type: "checkbox", name: "kind", value: k, checked: !p.off.includes(k) }),
      " ", t(`hostNotify.kind.${k}`)));
  const batch = h("input", { type: "number", id: "host-notify-batch", min: "1", max: "120", value: String(p.batchMinutes) });
  const hour = h("input", { type: "number", id: "host-notify-hour", min: "0", max: "23", value: String(p.digestHour) });
  const digestNote = !p.mail ? t("hostNotify.noMail") : p.email ? t("hostNotify.digestTo", { email: p.email }) : t("hostNotify.noEmail");
  const saved = h("span", { class: "muted", role: "status" });
  const form = h("form", { id: "host-notify-form" },
    h("fieldset", { class: "host-notify-kinds" }, h("legend", {}, t("hostNotify.what")), kinds),
    h("label", {}, t("hostNotify.batch"), " ", batch),
    h("label", {}, t("hostNotify.hour"), " ", hour),
    h("p", { class: "muted" }, digestNote),
    h("div", { class: "row" }, h("button", { type: "submit" }, t("hostNotify.save")), saved));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const off = [...form.querySelectorAll('input[name="kind"]')].filter((c) => !c.checked).map((c) => c.value);
    try {
      await api("PUT", "/api/admin/notifications", { off, batchMinutes: Number(batch.value), digestHour: Number(hour.value) });
      saved.textContent = t("hostNotify.saved");
    } catch (err) {
      saved.textContent = err.message;
    }
  });
  return form;
}

async function main() {
  loadStyles("/static/css/host-notify.css");
  const status = h("p", { id: "host-notify-status" });
  const button = h("button", { type: "button", id: "host-notify-device" });
  box.replaceChildren(h("h2", { id: "host-notify-title" }, t("hostNotify.title")), h("p", { class: "muted" }, t("hostNotify.intro")), status, button);
  const reg = await registration();
  await deviceState(reg, status, button);
  button.addEventListener("click", async () => {
    try {
      if (box.dataset.device === "on") {
        const id = localStorage.getItem("barhub.pushDevice");
        if (id) await api("DELETE", `/api/push/subscriptions/${id}`);
        await (await reg.pushManager.getSubscription())?.unsubscribe();
        localStorage.removeItem("barhub.pushDevice");
      } else {
        status.textContent = t("push.asking");
        await subscribe(reg);
      }
      await deviceState(reg, status, button);
    } catch (err) {
      status.textContent = err.message;
    }
  });
  try {
    box.append(prefsForm(await api("GET", "/api/admin/notifications")));
  } catch (err) {
    box.append(h("p", { class: "error" }, err.message));
  }
  translate(box);
}

if (box && auth()?.role === "admin") main();
