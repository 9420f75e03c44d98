// The player in the page's header: who this browser plays as (GET /api/me), and a
// form to choose or change the name (POST /api/me). Names are set as text, never as
// markup: whatever a player calls themselves is shown as written.
import { onLanguageChange, t } from "./i18n.js";
import { $, has } from "./dom.js";
import { ApiError, api, failureText } from "./net.js";
import { openChannel } from "./told.js";
import { Backoff } from "./backoff.js";

/**
 * This browser's player (GET /api/me): no id before it is one.
 *
 * @typedef {{id: number | string | null, name: string | null, account: boolean}} Player
 */

/** @type {Player} */
let current = { id: null, name: null, account: false };

// A player's name as shown: the server's "Anonymous N" in the page's language, any other
// name as its player wrote it.
/**
 * @template {string | null | undefined} N
 * @param {N} name
 * @returns {string | N}
 */
export function shownName(name) {
  const anonymous = /^Anonymous (\d+)$/.exec(name || "");
  return anonymous ? t("Anonymous {number}", { number: anonymous[1] }) : name;
}

/** Asking for the player again while the server cannot answer (an outage), later each time. */
const meRetry = new Backoff();
let reconnecting = false;

function show() {
  const named = current.id !== null;
  // the name is a link to the player's own profile
  const name = $("me-name", HTMLAnchorElement);
  name.textContent = named ? shownName(current.name) : "";
  if (named) name.href = `/p/${encodeURIComponent(current.name ?? "")}`;
  else name.removeAttribute("href");
  // during an outage the page does not know who this is: it says so, not "no name"
  const status = named ? t("Playing as") : t("You have no name yet");
  $("me-status").textContent = reconnecting ? t("Reconnecting…") : status;
  $("me-edit", HTMLButtonElement).textContent = named ? t("Change name") : t("Choose a name");
  $("me-password", HTMLButtonElement).hidden = !named || current.account;
  $("me-login", HTMLButtonElement).hidden = current.account;
  $("me-logout", HTMLButtonElement).hidden = !current.account;
}

/** @param {string} id */
function openAccountForm(id) {
  for (const form of ["me-form", "password-form", "login-form"]) $(form).hidden = form !== id;
  $("me-error").textContent = "";
  $(id).querySelector("input")?.focus();
}

function closeForms() {
  for (const form of ["me-form", "password-form", "login-form"]) $(form).hidden = true;
  $("me-edit", HTMLButtonElement).hidden = false;
}

// POST a JSON body; the reply's body, or null with the error shown.
/**
 * @param {string} url
 * @param {Record<string, unknown>} body
 * @returns {Promise<Player | null>}
 */
async function send(url, body) {
  try {
    return await api(url, { json: body });
  } catch (failure) {
    $("me-error").textContent = failureText(failure);
    return null;
  }
}

/** @param {SubmitEvent} event */
async function setPassword(event) {
  event.preventDefault();
  const reply = await send("/api/account", {
    password: $("password-input", HTMLInputElement).value,
  });
  if (!reply) return;
  current = reply;
  show();
  closeForms();
}

/** @param {SubmitEvent} event */
async function logIn(event) {
  event.preventDefault();
  const reply = await send("/api/login", {
    name: $("login-name", HTMLInputElement).value,
    password: $("login-password", HTMLInputElement).value,
  });
  if (!reply) return;
  current = reply;
  show();
  closeForms();
  location.reload(); // the page shows this player's games and seats now
}

async function logOut() {
  const reply = await send("/api/logout", {});
  if (!reply) return;
  current = reply;
  show();
  location.reload();
}

function openForm() {
  $("me-form").hidden = false;
  $("me-edit", HTMLButtonElement).hidden = true;
  $("me-error").textContent = "";
  const input = $("me-input", HTMLInputElement);
  input.value = current.name || "";
  input.focus();
  input.select();
}

function closeForm() {
  $("me-form").hidden = true;
  $("me-edit", HTMLButtonElement).hidden = false;
}

/** @param {SubmitEvent} event */
async function saveName(event) {
  event.preventDefault();
  const name = $("me-input", HTMLInputElement).value.trim();
  const body = name ? { name } : {};
  const reply = await send("/api/me", body);
  if (!reply) return;
  current = reply;
  show();
  closeForm();
}

async function load() {
  try {
    current = await api("/api/me");
  } catch (failure) {
    // the server unreachable or its database down: ask again, later each time
    if (failure instanceof ApiError && (failure.unreachable || failure.status === 503)) {
      reconnecting = true;
      show();
      setTimeout(load, meRetry.next());
      return;
    }
  }
  reconnecting = false;
  meRetry.succeeded();
  show();
  if (current.id !== null) openChannel(showWaiting); // the count, live (told.js)
}

// "My games (2)": how many of the player's games wait for their move (the channel,
// told.js, sends it on opening and at each change; this reads it once).
export async function refreshWaiting() {
  let waiting = 0;
  try {
    waiting = (await api("/api/my/games")).waiting;
  } catch (failure) {
    if (failure instanceof ApiError && !failure.unreachable) {
      showWaiting(0); // (not a player's: none waiting)
      return;
    }
    // the badge stays as it was
    return;
  }
  showWaiting(waiting);
}

/** @param {number} waiting */
export function showWaiting(waiting) {
  const badge = $("my-games-badge");
  badge.textContent = waiting ? String(waiting) : "";
  badge.hidden = !waiting;
  badge.setAttribute("aria-label", t("{count} waiting for your move", { count: waiting }));
}

export function currentPlayer() {
  return current;
}

// Read the player again (after the lobby made this browser one).
export async function refreshPlayer() {
  await load();
}

// Make this browser a player ("Anonymous N") unless it is one: the seats it then makes
// or takes are its player's, reached by the cookie, with no secret in any address.
// Whether it is a player now.
export async function ensurePlayer() {
  if (current.id !== null) return true;
  try {
    current = await api("/api/me", { json: {} });
  } catch {
    return false;
  }
  show();
  openChannel(showWaiting);
  return true;
}

function start() {
  if (!has("me")) return;
  $("me-edit", HTMLButtonElement).addEventListener("click", openForm);
  $("me-cancel", HTMLButtonElement).addEventListener("click", closeForm);
  $("me-form").addEventListener("submit", saveName);
  $("me-password", HTMLButtonElement).addEventListener("click", () =>
    openAccountForm("password-form"),
  );
  $("me-login", HTMLButtonElement).addEventListener("click", () => openAccountForm("login-form"));
  $("me-logout", HTMLButtonElement).addEventListener("click", logOut);
  $("password-form").addEventListener("submit", setPassword);
  $("login-form").addEventListener("submit", logIn);
  for (const button of document.querySelectorAll("#me .cancel")) {
    button.addEventListener("click", closeForms);
  }
  onLanguageChange(show);
  load();
}

start();
