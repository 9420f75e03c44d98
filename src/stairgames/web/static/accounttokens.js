// The account page's API tokens (account.html's #tokens; server/people/tokens.py,
// docs/bots.md): create one (its scopes as checkboxes), see it once with "Copy", list
// them (never a secret) with "Revoke" each.

import { $, button } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
import { api, failureText } from "./net.js";

/**
 * A token as `GET /api/account/tokens` lists it.
 *
 * @typedef {object} Token
 * @property {string} id
 * @property {string[]} scopes
 * @property {string} description
 * @property {string} created an ISO 8601 moment
 * @property {string | null} last_used
 */

export const TOKENS_ROUTE = "/api/account/tokens";

/** @param {unknown} failure */
function sayFailure(failure) {
  const node = $("token-error");
  node.textContent = failureText(failure);
  node.hidden = false;
}

/**
 * One line of the list: what the token is for, its scopes, when made and last used.
 *
 * @param {Token} token
 * @returns {string}
 */
export function tokenLine(token) {
  const day = (/** @type {string} */ moment) => moment.slice(0, 10);
  const used = token.last_used
    ? t("last used {day}", { day: day(token.last_used) })
    : t("never used");
  return `${token.description} (${token.scopes.join(", ")}) · ${t("made {day}", { day: day(token.created) })} · ${used}`;
}

/** @type {Token[]} */
let shown = [];

function drawList() {
  const list = $("token-list");
  list.replaceChildren(
    ...shown.map((token) => {
      const item = document.createElement("li");
      item.dataset.token = token.id;
      const text = document.createElement("span");
      text.textContent = `${tokenLine(token)} `;
      item.append(
        text,
        button(t("Revoke"), () => revoke(token.id)),
      );
      return item;
    }),
  );
  $("no-tokens").hidden = shown.length > 0;
}

async function load() {
  try {
    /** @type {{tokens: Token[]}} */
    const answer = await api(TOKENS_ROUTE);
    shown = answer.tokens;
    drawList();
  } catch (failure) {
    sayFailure(failure);
  }
}

/** @param {string} id */
async function revoke(id) {
  $("token-error").hidden = true;
  try {
    await api(`${TOKENS_ROUTE}/${encodeURIComponent(id)}`, { method: "DELETE", json: {} });
    $("token-made").hidden = true;
    await load();
  } catch (failure) {
    sayFailure(failure);
  }
}

/** Show the tokens of an account and wire the form (once). */
export async function startTokens() {
  $("tokens").hidden = false;
  const form = $("token-form", HTMLFormElement);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("token-error").hidden = true;
    const scopes = [...form.querySelectorAll("input[type=checkbox]")]
      .filter((box) => /** @type {HTMLInputElement} */ (box).checked)
      .map((box) => /** @type {HTMLInputElement} */ (box).value);
    const description = $("token-description", HTMLInputElement).value;
    try {
      /** @type {{token: string}} */
      const made = await api(TOKENS_ROUTE, { json: { description, scopes } });
      $("token-secret", HTMLInputElement).value = made.token;
      $("token-made").hidden = false;
      $("token-description", HTMLInputElement).value = "";
      await load();
    } catch (failure) {
      sayFailure(failure);
    }
  });
  $("token-copy", HTMLButtonElement).addEventListener("click", () => {
    const secret = $("token-secret", HTMLInputElement);
    secret.select();
    if (navigator.clipboard) navigator.clipboard.writeText(secret.value).catch(() => {});
  });
  onLanguageChange(drawList);
  await load();
}
