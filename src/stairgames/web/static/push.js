// Web push on the page (issue 54; the server's side: server/push/, docs/web.md "Web
// push"). Every page registers the service worker (sw.js: the offline page, the kept
// static files, the notifications). The account page's "Notifications on this device"
// asks the browser for permission only when its button is pressed, subscribes through
// the service worker with the server's key, and posts the subscription; "Turn off"
// sends DELETE and unsubscribes.

import { $ } from "./dom.js";
import { language, onLanguageChange, t } from "./i18n.js";
import { ApiError, api, failureText } from "./net.js";

export const SUBSCRIPTIONS = "/api/push/subscriptions";
export const KEY = "/api/push/key";

/** Register the service worker for the whole site (where the browser has them). */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no worker (a private window, an old browser): the site works without it
  });
}

/** Whether this browser can receive web push. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/**
 * The bytes of a base64url text (the server's key, as `applicationServerKey` wants it).
 *
 * @param {string} text
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function base64UrlBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** @returns {Promise<PushSubscription | null>} this device's subscription, if any */
async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/**
 * Subscribe this device (asks the browser's permission: call it from a click only).
 *
 * @returns {Promise<boolean>} whether it is subscribed (false: permission refused)
 */
export async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return false;
  registerServiceWorker();
  const registration = await navigator.serviceWorker.ready;
  /** @type {{key: string}} */
  const served = await api(KEY);
  const key = base64UrlBytes(served.key);
  let subscription = await registration.pushManager.getSubscription();
  const sameKey =
    subscription?.options.applicationServerKey &&
    new Uint8Array(subscription.options.applicationServerKey).join() === key.join();
  if (subscription && !sameKey) {
    await subscription.unsubscribe(); // made with another key: the server's changed
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await api(SUBSCRIPTIONS, { json: { ...subscription.toJSON(), lang: language() } });
  return true;
}

/**
 * Forget this device's subscription, on the server and in the browser (one the server
 * keeps for nobody, or for another player once signed in here, is only unsubscribed).
 */
export async function turnOff() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await api(SUBSCRIPTIONS, { method: "DELETE", json: { endpoint: subscription.endpoint } });
  } catch (failure) {
    if (!(failure instanceof ApiError && failure.code === "push_subscription_not_found")) {
      throw failure;
    }
  } finally {
    await subscription.unsubscribe();
  }
}

/**
 * The account page's "Notifications on this device" (account.html's #push): the button
 * and the sentence that says the state.
 */
export async function startPush() {
  const section = $("push");
  section.hidden = false;
  const toggle = $("push-toggle", HTMLButtonElement);
  const status = $("push-status");
  const error = $("push-error");
  if (!pushSupported()) {
    status.textContent = t("This browser cannot receive notifications.");
    toggle.hidden = true;
    return;
  }
  /** @type {boolean} */
  let on = false;
  const draw = () => {
    const blocked = Notification.permission === "denied";
    toggle.textContent = on ? t("Turn off notifications") : t("Turn on notifications");
    toggle.setAttribute("aria-pressed", String(on));
    toggle.disabled = blocked && !on;
    status.textContent = blocked
      ? t("Notifications are blocked for this site: allow them in the browser's settings.")
      : on
        ? t("Notifications are on for this device.")
        : t("Notifications are off for this device.");
  };
  on = Notification.permission === "granted" && (await currentSubscription()) !== null;
  draw();
  onLanguageChange(draw);
  toggle.addEventListener("click", async () => {
    error.hidden = true;
    toggle.disabled = true;
    try {
      if (on) {
        await turnOff();
        on = false;
      } else {
        on = await turnOn();
      }
    } catch (failure) {
      error.textContent = failureText(failure);
      error.hidden = false;
    } finally {
      toggle.disabled = false;
      draw();
    }
  });
}
