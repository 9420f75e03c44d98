// The account page and the pages of the links in mails (account.html, confirm-email.html,
// unsubscribe.html, reset-password.html; server/mail/routes.py serves them at /account,
// /confirm-email, /unsubscribe and /reset-password). Every text is in the page, translated
// here like the main page's; this script sends what a button asks (JSON, like every other
// change: opening a link changes nothing) and shows the paragraph that says how it went.

import { $ } from "./dom.js";
import {
  LANGUAGES,
  language,
  onLanguageChange,
  preferredLanguage,
  setLanguage,
  t,
} from "./i18n.js";
import { api, failureText } from "./net.js";
import { startTokens } from "./accounttokens.js";
import { accountShown, ERRORS, isError, pageLanguage } from "./accountview.js";
import { registerServiceWorker, startPush } from "./push.js";
import { startVacation } from "./vacation.js";

/** @typedef {import("./accountview.js").Account} Account */

const SAVED_LANGUAGE = "stairgames.lang"; // where i18n.js remembers the chosen language
const params = new URLSearchParams(location.search);
const token = params.get("token") ?? "";
/** The page: "confirm", "unsubscribe", "reset" (the purpose of its link) or "account". */
const page = document.body.dataset.page ?? "account";

/**
 * @param {string} id
 * @param {boolean} [shown]
 */
function show(id, shown = true) {
  $(id).hidden = !shown;
}

/**
 * Say a failure in the paragraph `id` (the server's error, or that it cannot be reached).
 *
 * @param {string} id
 * @param {unknown} failure
 */
function sayFailure(id, failure) {
  $(id).textContent = failureText(failure);
  show(id);
}

/**
 * The language the server suggests for this page: that of the address of its link's
 * reader, else of this browser's player (`null`: none known).
 *
 * @returns {Promise<string | null>}
 */
async function suggestedLanguage() {
  const query = new URLSearchParams(page === "account" ? {} : { link: page, token });
  try {
    /** @type {{lang: string | null}} */
    const answer = await api(`/api/account/language?${query}`);
    return answer.lang;
  } catch {
    return null;
  }
}

/** Speak the page's language (pageLanguage), and offer the others in the header. */
async function startLanguage() {
  const asked = params.get("lang");
  const saved = localStorage.getItem(SAVED_LANGUAGE);
  const known = (/** @type {string | null} */ code) => code !== null && code in LANGUAGES;
  const suggested = known(asked) || known(saved) ? null : await suggestedLanguage();
  await setLanguage(pageLanguage({ asked, saved, suggested }, LANGUAGES, preferredLanguage()));
  const select = $("lang", HTMLSelectElement);
  select.replaceChildren(
    ...Object.entries(LANGUAGES).map(
      ([code, name]) => new Option(name, code, false, code === language()),
    ),
  );
  select.addEventListener("change", () => setLanguage(select.value));
  const title = () => {
    select.value = language();
    document.title = `${t($("heading").dataset.i18n ?? "")} · stairgames`;
  };
  onLanguageChange(title);
  title();
}

/**
 * A page whose one button uses its link (confirm an address, unsubscribe).
 *
 * @param {string} path the JSON route that does it
 */
function oneButton(path) {
  const act = $("act", HTMLButtonElement);
  act.addEventListener("click", async () => {
    act.disabled = true;
    show("error", false);
    try {
      await api(path, { json: { token } });
      show("done");
    } catch (failure) {
      if (isError(failure, ERRORS.invalidLink)) show("failed");
      else {
        sayFailure("error", failure);
        act.disabled = false;
      }
    }
  });
}

function resetPage() {
  const form = $("reset", HTMLFormElement);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    show("error", false);
    try {
      const password = $("password", HTMLInputElement).value;
      await api("/api/account/reset/confirm", { json: { token, password } });
      form.hidden = true;
      show("done");
    } catch (failure) {
      if (isError(failure, ERRORS.invalidLink)) {
        form.hidden = true;
        show("failed");
      } else sayFailure("error", failure);
    }
  });
}

/** @param {Account | null} account */
function showAccount(account) {
  for (const [id, shown] of Object.entries(accountShown(account))) show(id, shown);
  const email = account?.email ?? null;
  const address = $("address", HTMLInputElement);
  if (email && document.activeElement !== address) address.value = email.address;
  $("notifications", HTMLInputElement).checked = Boolean(email?.notifications);
}

/** @returns {Promise<Account | null>} */
async function loadAccount() {
  try {
    return await api("/api/account");
  } catch {
    return null; // no player (401), or the server did not answer
  }
}

/**
 * Send a change of the account, then show the account it answers (or why it failed).
 *
 * @param {string} path
 * @param {Record<string, unknown>} body
 * @returns {Promise<Account | null>} the account, `null` where it failed
 */
async function changeAccount(path, body) {
  show("bad-address", false);
  show("error", false);
  try {
    /** @type {Account} */
    const account = await api(path, { json: body });
    showAccount(account);
    return account;
  } catch (failure) {
    if (isError(failure, ERRORS.notAnAddress)) show("bad-address");
    else sayFailure("error", failure);
    return null;
  }
}

async function accountPage() {
  const account = await loadAccount();
  showAccount(account);
  if (account?.account) await startTokens(); // API tokens: accounts only (docs/bots.md)
  if (account) await startPush(); // notifications on this device: any player (push.js)
  if (account) await startVacation($("push")); // vacation days: any player (vacation.js)
  const address = $("address", HTMLInputElement);
  $("address-form", HTMLFormElement).addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { address: address.value, lang: language() };
    const account = await changeAccount("/api/account/email", body);
    if (account) show("sent", Boolean(account.sent));
  });
  $("remove", HTMLButtonElement).addEventListener("click", async () => {
    if (!(await changeAccount("/api/account/email", { address: null }))) return;
    address.value = "";
    show("sent", false);
  });
  const notifications = $("notifications", HTMLInputElement);
  notifications.addEventListener("change", () =>
    changeAccount("/api/account/notifications", { on: notifications.checked, lang: language() }),
  );
  $("forgot-form", HTMLFormElement).addEventListener("submit", async (event) => {
    event.preventDefault();
    show("forgot-sent", false);
    show("forgot-error", false);
    try {
      await api("/api/account/reset", { json: { name: $("forgot-name", HTMLInputElement).value } });
      show("forgot-sent");
    } catch (failure) {
      sayFailure("forgot-error", failure);
    }
  });
}

async function start() {
  registerServiceWorker();
  await startLanguage();
  if (page === "confirm") oneButton("/api/account/email/confirm");
  else if (page === "unsubscribe") oneButton("/api/unsubscribe");
  else if (page === "reset") resetPage();
  else await accountPage();
  show("page");
}

start();
