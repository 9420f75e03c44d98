// The BOT mark (issue 53; docs/bots.md): the server's JSON of a player (a lobby row's
// creator, a seat of a view, a profile) carries `bot: true` for a bot account, and the
// pages show "BOT" before its name, as lichess does.

import { t } from "./i18n.js";

/**
 * The mark for a player whose JSON says `bot` (`null`: a person, or not said).
 *
 * @param {boolean | null | undefined} bot
 * @returns {HTMLElement | null}
 */
export function botMark(bot) {
  if (bot !== true) return null;
  const mark = document.createElement("span");
  mark.className = "bot-mark";
  mark.textContent = t("BOT");
  mark.title = t("a program playing through the API");
  return mark;
}

/**
 * Put the BOT mark (and a space) before the name `node` shows, where `bot` says so.
 *
 * @param {Element} node
 * @param {boolean | null | undefined} bot
 */
export function markBot(node, bot) {
  const mark = botMark(bot);
  if (mark) node.prepend(mark, " ");
}

/**
 * A name as text, "BOT" before it where `bot` says so (lists drawn as text).
 *
 * @param {string} name
 * @param {boolean | null | undefined} bot
 * @returns {string}
 */
export function botName(name, bot) {
  return bot === true ? `${t("BOT")} ${name}` : name;
}
