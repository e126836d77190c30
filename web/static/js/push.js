// The guest app's installable side: registers the service worker (sw.js), shows an
// offline banner, and after the guest's first order offers notifications that reach a
// locked phone (docs/PUSH.md).
import { appApi } from "./bar-common.js";
import { t } from "./i18n.js";
import { subscribe, supported } from "./push-subscribe.js";

const offer = document.getElementById("push-offer");
const offerText = document.getElementById("push-offer-text");
const offline = document.getElementById("offline-banner");

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
