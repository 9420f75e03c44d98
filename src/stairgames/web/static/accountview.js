// Pure: the choices of the account page and of the pages of the links in mails (confirm
// an address, unsubscribe, reset a password): the language a page speaks, what the
// account page shows of an account, and which of the server's errors a failure is.
// account.js puts them on the page.

import { ApiError } from "./net.js";

/**
 * The account as `GET /api/account` (and the routes that change it) answers: the player,
 * whether the server sends mail, and the player's address.
 *
 * @typedef {object} Account
 * @property {boolean} [account] whether the player has a password
 * @property {boolean} [mail] whether this server sends e-mail
 * @property {{address: string, confirmed: boolean, notifications: boolean,
 *   language: string} | null} [email]
 * @property {boolean} [sent] (setting an address) whether a confirmation mail was sent
 */

/**
 * The server's errors these pages tell apart from the others (each shown in a paragraph
 * of its own), by their stable codes (server/base/error_codes.py); every other failure is
 * said as the server says it (`failureText`).
 */
export const ERRORS = {
  invalidLink: "link_invalid",
  notAnAddress: "bad_address",
  noMail: "no_mail",
};

/**
 * Whether `failure` is the server's error of the code `expected` (one of {@link ERRORS}).
 *
 * @param {unknown} failure what a request threw
 * @param {string} expected
 * @returns {boolean}
 */
export function isError(failure, expected) {
  if (!(failure instanceof ApiError)) return false;
  const error = /** @type {{code?: unknown} | null} */ (failure.error);
  return error?.code === expected;
}

/**
 * The language a page speaks: the one its address asks (`?lang=`), else the one this
 * browser chose before, else the one the server suggests (the language of the address
 * its link's reader, or this browser's player, gave), else `fallback` (the browser's).
 * Each is taken only where it is one of `languages`.
 *
 * @param {{asked?: string | null, saved?: string | null, suggested?: string | null}} choices
 * @param {Record<string, string>} languages the site's, by code
 * @param {string} fallback
 * @returns {string}
 */
export function pageLanguage(choices, languages, fallback) {
  for (const code of [choices.asked, choices.saved, choices.suggested]) {
    if (code && Object.hasOwn(languages, code)) return code;
  }
  return fallback;
}

/**
 * What the account page shows of `account` (`null`: no player, or the server did not
 * answer): each element's id and whether it shows. A player without a password is
 * offered "Forgot your password?"; a player with one, their address and notifications
 * (or that the server sends no e-mail, where it sends none and they gave no address).
 *
 * @param {Account | null} account
 * @returns {Record<string, boolean>}
 */
export function accountShown(account) {
  if (!account?.account) {
    return {
      "no-account": true,
      forgot: true,
      email: false,
      "no-mail": false,
    };
  }
  const email = account.email ?? null;
  return {
    "no-account": false,
    forgot: false,
    email: Boolean(account.mail) || email !== null,
    "no-mail": !account.mail && email === null,
    unconfirmed: email !== null && !email.confirmed,
    confirmed: email?.confirmed === true,
    remove: email !== null,
    "notifications-label": email !== null,
  };
}
