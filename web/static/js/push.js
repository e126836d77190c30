// The guest app's installable side: registers the service worker (sw.js), shows an
// offline banner, and after the guest's first order offers notifications that reach a
// locked phone (docs/PUSH.md).
import { api } from "./api.js";
import { appApi } from "./bar-common.js";
import { t } from "./i18n.js";

const offer = document.getElementById("push-offer");
const offerText = document.getElementById("push-offer-text");
const offline = document.getElementById("offline-banner");

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
}

// keyBytes turns the server's base64url key into what pushManager.subscribe takes.
function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function subscribe(reg) {
  const key = await api("GET", "/api/push/key");
  if (!key.enabled) throw new Error(t("push.disabled"));
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(t("push.blocked"));
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.publicKey) });
  const saved = await api("POST", "/api/push/subscriptions", sub.toJSON());
  localStorage.setItem("barhub.pushDevice", saved.id);
}

// maybeOffer shows the offer once the guest has ordered, unless this browser is
// subscribed already or said no.
async function maybeOffer(reg) {
  if (!offer || !supported() || Notification.permission === "denied") return;
  if (await reg.pushManager.getSubscription()) return;
  if (localStorage.getItem("barhub.pushDeclined")) return;
  offer.hidden = false;
}

function watchOnline() {
  const show = () => {
    if (offline) offline.hidden = navigator.onLine;
  };
  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  show();
}

async function main() {
  watchOnline();
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  let reg;
  try {
    reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return; // No offline shell and no push; the page works as before.
  }
  document.documentElement.dataset.sw = "registered";
  const ordered = () => maybeOffer(reg);
  document.addEventListener("barhub:ordered", ordered);
  try {
    const mine = await appApi("GET", "/api/orders");
    if (mine.orders?.length) ordered();
  } catch {
    // Offline or signed out: the offer waits for the next order.
  }
  document.getElementById("push-yes")?.addEventListener("click", async () => {
    offerText.textContent = t("push.asking");
    try {
      await subscribe(reg);
      offerText.textContent = t("push.done");
      document.getElementById("push-actions").hidden = true;
    } catch (err) {
      offerText.textContent = err.message;
    }
  });
  document.getElementById("push-no")?.addEventListener("click", () => {
    localStorage.setItem("barhub.pushDeclined", "1");
    offer.hidden = true;
  });
}

main();
