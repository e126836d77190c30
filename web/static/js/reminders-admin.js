// Reminders: the host schedules them ("3 days before the deadline, to
// those who have not answered"; "the morning of the party, to those
// coming"), and sees when each goes out and who got it.
import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

const KIND = {
  unanswered: (r) => `${r.daysBefore} day${r.daysBefore === 1 ? "" : "s"} before the answer deadline, to guests who have not answered`,
  morning: () => "The morning of the party, to guests coming: time, place, dress code",
};

function fmt(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
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
    li.textContent = "No reminders scheduled.";
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
        r.status === "scheduled" ? (r.dueAt ? ` · goes out ${fmt(r.dueAt)}` : " · waits for the event's dates") : r.status === "queued" ? " · going out now" : ` · sent ${r.firedAt ? fmt(r.firedAt) : ""} to ${r.recipients}`;
      li.append(what, when);
      if (r.sent.length) {
        const who = document.createElement("p");
        who.className = "reminder-sent";
        who.textContent = r.sent.map((s) => `${s.name || s.guestId}: ${s.status === "sent" ? "delivered" : s.status}`).join(" · ");
        li.append(who);
      }
      if (r.status === "scheduled") {
        const del = document.createElement("button");
        del.type = "button";
        del.className = "quiet small";
        del.textContent = "Cancel";
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
    $("reminder-note").textContent = mail.setup;
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
