// The player in the page's header: who this browser plays as (GET /api/me), and a
// form to choose or change the name (POST /api/me). Names are set as text, never as
// markup: whatever a player calls themselves is shown as written.
import { onLanguageChange, t } from "./i18n.js";

const JSON_HEADERS = { "content-type": "application/json" };
let current = { id: null, name: null, account: false };

function $(id) {
  return document.getElementById(id);
}

function errorText(error) {
  if (!error) return t("Something went wrong.");
  return t(error.id || error.message, error.args || {}) || error.message;
}

// A player's name as shown: the server's "Anonymous N" in the page's language, any other
// name as its player wrote it.
export function shownName(name) {
  const anonymous = /^Anonymous (\d+)$/.exec(name || "");
  return anonymous ? t("Anonymous {number}", { number: anonymous[1] }) : name;
}

function show() {
  const named = current.id !== null;
  $("me-name").textContent = named ? shownName(current.name) : "";
  $("me-status").textContent = named ? t("Playing as") : t("You have no name yet");
  $("me-edit").textContent = named ? t("Change name") : t("Choose a name");
  $("me-password").hidden = !named || current.account;
  $("me-login").hidden = current.account;
  $("me-logout").hidden = !current.account;
}

function openAccountForm(id) {
  for (const form of ["me-form", "password-form", "login-form"]) $(form).hidden = form !== id;
  $("me-error").textContent = "";
  $(id).querySelector("input").focus();
}

function closeForms() {
  for (const form of ["me-form", "password-form", "login-form"]) $(form).hidden = true;
  $("me-edit").hidden = false;
}

// POST a JSON body; the reply's body, or null with the error shown.
async function send(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
    });
    const reply = await response.json();
    if (!response.ok) {
      $("me-error").textContent = errorText(reply.error);
      return null;
    }
    return reply;
  } catch (_error) {
    $("me-error").textContent = t("The server cannot be reached.");
    return null;
  }
}

async function setPassword(event) {
  event.preventDefault();
  const reply = await send("/api/account", { password: $("password-input").value });
  if (!reply) return;
  current = reply;
  show();
  closeForms();
}

async function logIn(event) {
  event.preventDefault();
  const reply = await send("/api/login", {
    name: $("login-name").value,
    password: $("login-password").value,
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
  $("me-edit").hidden = true;
  $("me-error").textContent = "";
  const input = $("me-input");
  input.value = current.name || "";
  input.focus();
  input.select();
}

function closeForm() {
  $("me-form").hidden = true;
  $("me-edit").hidden = false;
}

async function saveName(event) {
  event.preventDefault();
  const name = $("me-input").value.trim();
  const body = name ? { name } : {};
  let reply;
  try {
    const response = await fetch("/api/me", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
    });
    reply = await response.json();
    if (!response.ok) {
      $("me-error").textContent = errorText(reply.error);
      return;
    }
  } catch (_error) {
    $("me-error").textContent = t("The server cannot be reached.");
    return;
  }
  current = reply;
  show();
  closeForm();
}

async function load() {
  try {
    const response = await fetch("/api/me");
    if (response.ok) current = await response.json();
  } catch (_error) {
    // no server: the header keeps "no name yet"
  }
  show();
  if (current.id !== null) refreshWaiting();
}

// "My games (2)": how many of the player's games wait for their move.
export async function refreshWaiting() {
  let waiting = 0;
  try {
    const response = await fetch("/api/my/games");
    if (response.ok) waiting = (await response.json()).waiting;
  } catch {
    // the badge stays as it was
    return;
  }
  showWaiting(waiting);
}

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
    const response = await fetch("/api/me", { method: "POST", headers: JSON_HEADERS, body: "{}" });
    if (!response.ok) return false;
    current = await response.json();
  } catch {
    return false;
  }
  show();
  return true;
}

function start() {
  if (!$("me")) return;
  $("me-edit").addEventListener("click", openForm);
  $("me-cancel").addEventListener("click", closeForm);
  $("me-form").addEventListener("submit", saveName);
  $("me-password").addEventListener("click", () => openAccountForm("password-form"));
  $("me-login").addEventListener("click", () => openAccountForm("login-form"));
  $("me-logout").addEventListener("click", logOut);
  $("password-form").addEventListener("submit", setPassword);
  $("login-form").addEventListener("submit", logIn);
  for (const button of document.querySelectorAll("#me .cancel")) {
    button.addEventListener("click", closeForms);
  }
  onLanguageChange(show);
  load();
}

start();
