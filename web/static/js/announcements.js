// The host's announcements ("cake in the garden in 5 minutes"), shown on the guest and
// bar pages the moment they arrive on the "guests" topic. The guest app has its own
// #announcements box, fixed under the top bar, so a guest deep in the menu or on any
// other view sees "last call" too (and the phone vibrates, where the browser allows). A phone that slept gets the
// ones it missed when it reconnects (live.js replays them in order).
import { startLive } from "./page.js";
import { auth } from "./api.js";
import { formatTime, t } from "./i18n.js";

const KEEP = 3; // announcements shown at once; older ones fold away

function timeOf(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : formatTime(d);
}

function box() {
  let list = document.getElementById("announcements");
  if (!list) {
    list = document.createElement("section");
    list.id = "announcements";
    list.className = "announcements";
    list.setAttribute("aria-live", "assertive");
    list.setAttribute("aria-label", t("guest.announcements"));
    const main = document.getElementById("app");
    (main || document.body).prepend(list);
  }
  return list;
}

function show(data) {
  if (!data || typeof data.text !== "string") return;
  const item = document.createElement("div");
  item.className = "announcement";
  item.setAttribute("role", "alert");
  const text = document.createElement("p");
  text.className = "announcement-text";
  text.textContent = data.text;
  const meta = document.createElement("p");
  meta.className = "announcement-meta";
  meta.textContent = [data.from, timeOf(data.at)].filter(Boolean).join(" · ");
  const close = document.createElement("button");
  close.type = "button";
  close.className = "quiet announcement-close";
  close.setAttribute("aria-label", t("common.close"));
  close.textContent = "×";
  close.addEventListener("click", () => item.remove());
  item.append(text, meta, close);
  const list = box();
  list.prepend(item);
  while (list.children.length > KEEP) list.lastElementChild.remove();
  if (navigator.vibrate) navigator.vibrate([80, 60, 80]);
}

if (auth()) {
  const live = startLive("guests");
  live.on("announcement", (data, msg) => {
    // Both "guests" and a guest's own topic carry announcements.
    if (msg?.topic === "guests" || msg?.topic?.startsWith("guest:")) show(data);
  });
}
