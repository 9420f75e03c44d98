// What a listed game came to for one player (pure: no DOM): My games' and a profile's
// rows say it in words ("Won", "Lost", "Draw", "Aborted", "Going on") and the date it
// was made in the reader's language.

/**
 * How a listed game ended: its winners, and whether it was aborted (no first move, or
 * left for too long).
 *
 * @typedef {{winners: number[], aborted?: boolean}} ListedResult
 */

/**
 * A game of a player's list: the seats the player holds, whether it is over, its result.
 *
 * @typedef {{seats: number[], over: boolean, result: ListedResult | null}} ListedGame
 */

/**
 * The game's outcome for the player holding its `seats`.
 *
 * @param {ListedGame} game
 * @returns {"going_on" | "aborted" | "draw" | "won" | "shared" | "lost"}
 */
export function outcomeOf(game) {
  if (!game.over || !game.result) return "going_on";
  if (game.result.aborted) return "aborted";
  const winners = game.result.winners;
  if (!winners.length) return "draw";
  if (!winners.some((w) => game.seats.includes(w))) return "lost";
  return winners.length > 1 ? "shared" : "won";
}

const N_ = (/** @type {string} */ id) => id;

/** Each outcome's words (English message ids). */
export const OUTCOME_WORDS = {
  going_on: N_("Going on"),
  aborted: N_("Aborted"),
  draw: N_("Draw"),
  won: N_("Won"),
  shared: N_("Shared win"),
  lost: N_("Lost"),
};

/**
 * The day a game was made, as the reader writes a date ("5 Dec 2026", "2026年12月5日").
 *
 * @param {string} created an ISO 8601 date and time
 * @param {string} language "en" or "ja"
 * @returns {string}
 */
export function dayText(created, language) {
  const day = new Date(created);
  if (Number.isNaN(day.getTime())) return "";
  const locale = language === "ja" ? "ja-JP" : "en-GB";
  return day.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}
