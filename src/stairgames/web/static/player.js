// The player in the page's header: who this browser plays as (GET /api/me), and a
// form to choose or change the name (POST /api/me). Names are set as text, never as
// markup: whatever a player calls themselves is shown as written.
import { onLanguageChange, t } from "/static/i18n.js";

const JSON_HEADERS = { "content-type": "application/json" };
let current = { id: null, name: null, account: false };

function $(id) {
  return document.getElementById(id);
}

function errorText(error) {
  if (!error) return t("Something went wrong.");
  return t(error.id || error.message, error.args || {}) || error.message;
}

function show() {
  const named = current.id !== null;
  $("me-name").textContent = named ? current.name : "";
  $("me-status").textContent = named ? t("Playing as") : t("You have no name yet");
  $("me-edit").textContent = named ? t("Change name") : t("Choose a name");
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
    const response = await fetch("/api/me", { method: "POST", headers: JSON_HEADERS,
      body: JSON.stringify(body) });
    reply = await response.json();
    if (!response.ok) {
      $("me-error").textContent = errorText(reply.error);
      return;
    }
  } catch (error) {
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
  } catch (error) {
    // no server: the header keeps "no name yet"
  }
  show();
}

export function currentPlayer() {
  return current;
}

function start() {
  if (!$("me")) return;
  $("me-edit").addEventListener("click", openForm);
  $("me-cancel").addEventListener("click", closeForm);
  $("me-form").addEventListener("submit", saveName);
  onLanguageChange(show);
  load();
}

start();
