// Invitations on the host's desk: per guest and in bulk, copy the
// personal link, share it (Web Share API on phones) or e-mail it (a durable
// job per guest); each row shows how and when the guest was invited,
// whether the e-mail was delivered or failed, and whether they opened the
// link. Without SMTP settings the e-mail buttons say how to set it up.
// While no phone could open the links (barhub on 0.0.0.0 and no address
// known), the server refuses to pass them on and these ask the host first.
import { api, ApiError } from "./api.js";
import { t, has, formatDate, formatTime } from "./i18n.js";
import { startReminders } from "./reminders-admin.js";

const $ = (id) => document.getElementById(id);

let mail = { configured: false, setup: "" };
let publicURL = location.origin;
let publicReport = null;

// setupText is how to set e-mail up, in the page's language (the server's
// own words, mail.setup, are English).
const setupText = () => t("invite.setup");

export async function loadInviteSettings() {
  try {
    mail = await api("GET", "/api/admin/mail");
  } catch {
    // The buttons stay as they are; a send reports its own error.
  }
  await refreshPublicURL();
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

// refreshPublicURL reads the address the links use now; the banner calls
// it after a pick, so the next copy uses the new address without a reload.
export async function refreshPublicURL() {
  try {
    usePublicURL(await api("GET", "/api/admin/public-url"));
  } catch {
    // The page's own address is the best guess.
  }
  return publicReport;
}

// usePublicURL takes GET /api/admin/public-url's answer and says which
// address the links use and why: invite.url.flag, .flagOverPick, .picked,
// .lan, .listen, .unreachable.
export function usePublicURL(r) {
  publicReport = r;
  publicURL = r.url || location.origin;
  const note = $("invite-url-note");
  if (!note) return;
  let key = `invite.url.${r.source}`;
  if (r.level === "warning") key = "invite.url.unreachable";
  else if (r.source === "flag" && r.chosen && r.chosen !== r.url) key = "invite.url.flagOverPick";
  note.textContent = has(key) ? t(key, { url: r.url, picked: r.chosen }) : r.url;
  note.dataset.source = r.source || "";
  note.classList.toggle("warn-text", r.level === "warning");
}

// unreachable is true when no guest's phone could open the links.
const unreachable = () => publicReport?.level === "warning";

// goAhead asks the host whether to pass on links no phone can open.
const goAhead = (message) => confirm(`${message}\n\n${t("invite.goAhead")}`);

// send posts to the send route; refused for unreachable links, it asks
// the host and, told to, sends anyway. null means the host said no.
async function send(body) {
  try {
    return await api("POST", "/api/admin/invitations/send", body);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "public_url_unreachable") throw err;
    refreshPublicURL();
    if (!goAhead(err.message)) return null;
    return api("POST", "/api/admin/invitations/send", { ...body, anyway: true });
  }
}

// checkLinks reads the address afresh before a link leaves the page and,
// when no phone could open it, asks the host; false means do not.
async function checkLinks() {
  await refreshPublicURL();
  if (!unreachable()) return true;
  return goAhead(t("invite.unreachable", { url: publicURL }));
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
  // The guest table cuts the state to two lines; the whole of it is the title.
  status.title ||= status.textContent;
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
  // Once e-mailed, the button sends the same code again (the first
  // message lost, or its link wrong).
  const again = inv?.how === "email";
  const email = again
    ? button(t("invite.again"), "invite.againLabel", () => emailInvitations([g.id], { again: true }))
    : button(t("invite.email"), "invite.emailLabel", () => emailInvitations([g.id]));
  email.dataset.invite = again ? "again" : "email";
  email.disabled = !mail.configured || !g.email;
  email.title = !mail.configured ? setupText() : !g.email ? t("invite.noAddress") : t("invite.sendTo", { email: g.email });
  // The buttons keep together on one line; the state may go above them.
  const actions = document.createElement("span");
  actions.className = "invite-actions";
  actions.append(copy, share, email);
  box.append(status, " ", actions);
  return box;
}

// record tells the server the host passed the links on; anyway when the
// host already said to go ahead with links no phone can open.
async function record(how, guests, anyway) {
  return api("POST", "/api/admin/invitations/send", { how, guestIds: guests.map((g) => g.id), ...(anyway ? { anyway } : {}) });
}

// copyLinks copies the links with the address in use now; false means the
// host chose not to copy links no phone can open.
export async function copyLinks(guests) {
  if (!(await checkLinks())) return false;
  const text = guests.length === 1 ? linkFor(guests[0]) : guests.map((g) => `${g.firstName} ${g.lastName}: ${linkFor(g)}`).join("\n");
  await navigator.clipboard.writeText(text);
  await record("link", guests, unreachable());
  return true;
}

export async function shareLinks(guests) {
  if (!(await checkLinks())) return;
  const text = guests.map((g) => t("invite.shareText", { name: g.firstName, link: linkFor(g) })).join("\n\n");
  await navigator.share({ title: t("invite.shareTitle"), text, ...(guests.length === 1 ? { url: linkFor(guests[0]) } : {}) });
  await record("share", guests, unreachable());
}

// emailInvitations queues the e-mails; again sends guests who already had
// theirs once more.
export async function emailInvitations(guestIds, { again = false } = {}) {
  const res = await send({ how: "email", ...(guestIds ? { guestIds } : {}), ...(again ? { again } : {}) });
  if (!res) return null;
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
      if (!(await copyLinks(getGuests().filter((g) => g.role === "guest" || g.attending)))) return;
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
