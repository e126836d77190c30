// Reminders: the host schedules them ("3 days before the deadline, to
// those who have not answered"; "the morning of the party, to those
// coming"), and sees when each goes out and who got it.
import { api } from "./api.js";
import { t, formatDateTime } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const KIND = {
  unanswered: (r) => t("reminders.unanswered", { count: r.daysBefore }),
  morning: () => t("reminders.morning"),
};

function fmt(iso) {
  return formatDateTime(iso);
}

export async function loadReminders() {
  const list = $("reminder-list");
  if (!list) return;
  let data;
  try {
    data = await api("GET", "/api/admin/reminders");
  } catch (err) {
    list.textContent = err.message;
    return;
  }
  if (data.reminders.length === 0) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("reminders.none");
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(
    ...data.reminders.map((r) => {
      const li = document.createElement("li");
      li.dataset.id = r.id;
      const what = document.createElement("strong");
      what.textContent = (KIND[r.kind] || (() => r.kind))(r);
      const when = document.createElement("span");
      when.className = "muted";
      when.textContent =
        " · " +
        (r.status === "scheduled"
          ? r.dueAt
            ? t("reminders.goesOut", { time: fmt(r.dueAt) })
            : t("reminders.waits")
          : r.status === "queued"
            ? t("reminders.goingOut")
            : t("reminders.sent", { time: r.firedAt ? fmt(r.firedAt) : "", count: r.recipients }));
      li.append(what, when);
      if (r.sent.length) {
        const who = document.createElement("p");
        who.className = "reminder-sent";
        who.textContent = r.sent.map((s) => `${s.name || s.guestId}: ${s.status === "sent" ? t("invite.delivered") : s.status === "failed" ? t("invite.failed") : s.status}`).join(" · ");
        li.append(who);
      }
      if (r.status === "scheduled") {
        const del = document.createElement("button");
        del.type = "button";
        del.className = "quiet small";
        del.textContent = t("common.cancel");
        del.addEventListener("click", async () => {
          try {
            await api("DELETE", `/api/admin/reminders/${encodeURIComponent(r.id)}`);
          } catch (err) {
            alert(err.message);
          }
          loadReminders();
        });
        li.append(" ", del);
      }
      return li;
    }),
  );
}

export function startReminders(mail) {
  const form = $("reminder-form");
  if (!form) return;
  const kind = $("reminder-kind");
  const days = $("reminder-days");
  kind.addEventListener("change", () => ($("reminder-days-field").hidden = kind.value !== "unanswered"));
  if (!mail.configured) {
    $("reminder-add").disabled = true;
    $("reminder-note").textContent = t("invite.setup");
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = kind.value === "unanswered" ? { kind: "unanswered", daysBefore: Number(days.value) || 0 } : { kind: "morning" };
    try {
      await api("POST", "/api/admin/reminders", body);
      $("reminder-note").textContent = "";
    } catch (err) {
      $("reminder-note").textContent = err.message;
    }
    loadReminders();
  });
  loadReminders();
}
