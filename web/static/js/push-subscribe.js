// Subscribing this browser to Web Push (docs/PUSH.md), shared by the guest app
// (push.js) and the host's dashboard (host-notify.js).
import { api } from "./api.js";
import { t } from "./i18n.js";

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
}

// keyBytes turns the server's base64url key into what pushManager.subscribe takes.
function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

// subscribe asks the browser's permission, subscribes and sends the subscription to the
// server for the signed-in person; it remembers the device's id for unsubscribing.
export async function subscribe(reg) {
  const key = await api("GET", "/api/push/key");
  if (!key.enabled) throw new Error(t("push.disabled"));
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(t("push.blocked"));
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.publicKey) });
  const saved = await api("POST", "/api/push/subscriptions", sub.toJSON());
  localStorage.setItem("barhub.pushDevice", saved.id);
  return saved.id;
}
