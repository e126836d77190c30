// Invitations on the host's desk: per guest and in bulk, copy the
// personal link, share it (Web Share API on phones) or e-mail it (a durable
// job per guest); each row shows how and when the guest was invited,
// whether the e-mail was delivered or failed, and whether they opened the
// link. Without SMTP settings the e-mail buttons say how to set it up.
import { api } from "./api.js";
import { t, has, formatDate, formatTime } from "./i18n.js";
import { startReminders } from "./reminders-admin.js";

const $ = (id) => document.getElementById(id);

let mail = { configured: false, setup: "" };
let publicURL = location.origin;

// setupText is how to set e-mail up, in the page's language (the server's
// own words, mail.setup, are English).
const setupText = () => t("invite.setup");

export async function loadInviteSettings() {
  try {
    mail = await api("GET", "/api/admin/mail");
  } catch {
    // The buttons stay as they are; a send reports its own error.
  }
  try {
    publicURL = (await api("GET", "/api/admin/public-url")).url || location.origin;
  } catch {
    // The page's own address is the best guess.
  }
  const note = $("invite-mail-note");
  if (note) {
    note.textContent = mail.configured ? t("invite.mailFrom", { from: mail.from, server: mail.server }) : setupText();
    note.classList.toggle("warn-text", !mail.configured);
  }
  const all = $("invite-email-all");
  if (all) {
    all.disabled = !mail.configured;
    all.title = mail.configured ? "" : setupText();
  }
  return mail;
}

export function linkFor(g) {
  return `${publicURL.replace(/\/+$/, "")}/login?code=${encodeURIComponent(g.code)}`;
}

function when(iso) {
  const d = new Date(iso);
  const sameDay = d.toDateString() === new Date().toDateString();
  return sameDay ? formatTime(d) : formatDate(d, { day: "numeric", month: "short" });
}

// How a guest was invited: invite.how.email, .link, .share, .print.
const howText = (how) => (has(`invite.how.${how}`) ? t(`invite.how.${how}`) : how);

// inviteCell shows the guest's invitation and its buttons.
export function inviteCell(g, onChange) {
  const box = document.createElement("span");
  box.className = "invite";
  const status = document.createElement("span");
  status.className = "invite-status";
  const inv = g.invite;
  if (inv) {
    let text = `${howText(inv.how)} ${when(inv.at)}`;
    if (inv.how === "email") {
      if (inv.status === "sent") text += ` · ${t("invite.delivered")}`;
      else if (inv.status === "failed") text += ` · ${t("invite.failed")}`;
      else text += ` · ${inv.error ? t("invite.retrying") : t("invite.sending")}`;
    }
    if (inv.openedAt) text += ` · ${t("invite.opened")}`;
    status.textContent = text;
    status.dataset.status = inv.status;
    if (inv.error) status.title = inv.error;
  } else {
    status.textContent = t("invite.notInvited");
    status.className += " muted";
  }
  if (g.status !== "pending") status.textContent += ` · ${t("invite.answered")}`;
  const name = `${g.firstName} ${g.lastName}`;
  const button = (label, aria, fn) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "quiet small";
    b.textContent = label;
    b.setAttribute("aria-label", t(aria, { name }));
    b.addEventListener("click", async () => {
      try {
        await fn();
        onChange?.();
      } catch (err) {
        alert(err.message);
      }
    });
    return b;
  };
  const copy = button(t("invite.copy"), "invite.copyLabel", () => copyLinks([g]));
  copy.dataset.invite = "link";
  const share = button(t("invite.share"), "invite.shareLabel", () => shareLinks([g]));
  share.dataset.invite = "share";
  share.hidden = !navigator.share;
  const email = button(t("invite.email"), "invite.emailLabel", () => emailInvitations([g.id]));
  email.dataset.invite = "email";
  email.disabled = !mail.configured || !g.email;
  email.title = !mail.configured ? setupText() : !g.email ? t("invite.noAddress") : t("invite.sendTo", { email: g.email });
  box.append(status, " ", copy, share, email);
  return box;
}

async function record(how, guests) {
  return api("POST", "/api/admin/invitations/send", { how, guestIds: guests.map((g) => g.id) });
}

export async function copyLinks(guests) {
  const text = guests.length === 1 ? linkFor(guests[0]) : guests.map((g) => `${g.firstName} ${g.lastName}: ${linkFor(g)}`).join("\n");
  await navigator.clipboard.writeText(text);
  await record("link", guests);
}

export async function shareLinks(guests) {
  const text = guests.map((g) => t("invite.shareText", { name: g.firstName, link: linkFor(g) })).join("\n\n");
  await navigator.share({ title: t("invite.shareTitle"), text, ...(guests.length === 1 ? { url: linkFor(guests[0]) } : {}) });
  await record("share", guests);
}

export async function emailInvitations(guestIds) {
  const res = await api("POST", "/api/admin/invitations/send", { how: "email", ...(guestIds ? { guestIds } : {}) });
  const status = $("invite-status");
  if (status) {
    const parts = [t("invite.onTheWay", { count: res.queued })];
    const noEmail = res.skipped.filter((s) => s.reason === "no_email").length;
    const already = res.skipped.filter((s) => s.reason === "already_sent").length;
    if (noEmail) parts.push(t("invite.withoutAddress", { count: noEmail }));
    if (already) parts.push(t("invite.alreadyInvited", { count: already }));
    status.textContent = t("invite.summary", { parts: parts.join(", ") });
  }
  return res;
}

// startInvites wires the bulk buttons; getGuests returns the guests the
// list shows now.
export function startInvites(getGuests, onChange) {
  loadInviteSettings().then((m) => startReminders(m));
  $("invite-email-all")?.addEventListener("click", async () => {
    if (!confirm(t("invite.confirmAll"))) return;
    try {
      await emailInvitations();
      onChange?.();
    } catch (err) {
      alert(err.message);
    }
  });
  $("invite-copy-all")?.addEventListener("click", async () => {
    try {
      await copyLinks(getGuests().filter((g) => g.role === "guest" || g.attending));
      $("invite-status").textContent = t("invite.copiedAll");
      onChange?.();
    } catch (err) {
      alert(err.message);
    }
  });
  const shareAll = $("invite-share-all");
  if (shareAll) {
    shareAll.hidden = !navigator.share;
    shareAll.addEventListener("click", async () => {
      try {
        await shareLinks(getGuests().filter((g) => g.role === "guest" || g.attending));
        onChange?.();
      } catch (err) {
        if (err.name !== "AbortError") alert(err.message);
      }
    });
  }
}
