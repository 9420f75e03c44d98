// The match and home pages' texts worked out from the server's data, with no DOM: the
// options' labels, a game's players and minutes, the moves that are words and the move
// list's rounds. Pure (tests/js/ runs it in Node); t() gives each text in the page's
// language.

import { language, t } from "./i18n.js";

/**
 * N_ marks a message id translated later with t() (tests/test_web_ui.py collects them).
 *
 * @param {string} id
 * @returns {string}
 */
const N_ = (id) => id;

/** Moves that are words, as their buttons say them. @type {Record<string, string>} */
export const WORDS = {
  pass: N_("Pass"),
  swap: N_("Swap colours"),
  accept: N_("Accept the offer"),
  decline: N_("Decline the offer"),
};

/** Moves that are words, as the move list says them. @type {Record<string, string>} */
export const MOVE_WORDS = { ...WORDS, offer: N_("Offer to end by agreement") };

/**
 * Whether a move is one of the words (pass, swap, ...) rather than a board move.
 *
 * @param {string} move
 * @returns {boolean}
 */
export function isWord(move) {
  return Object.hasOwn(MOVE_WORDS, move);
}

/**
 * A move as the move list says it: a word translated, a board move as its notation.
 *
 * @param {string} move
 * @returns {string}
 */
export function moveText(move) {
  return isWord(move) ? t(MOVE_WORDS[move]) : move;
}

/**
 * A sentence as it starts a line: "Dark resigns", "Red 6, blue 7: blue wins" (scripts
 * without capitals, Japanese, are left as they are).
 *
 * @param {string} text
 * @returns {string}
 */
export function capitalise(text) {
  return text ? text.charAt(0).toLocaleUpperCase(language()) + text.slice(1) : text;
}

/**
 * A game option's label on the home page's form (its name where none is written).
 *
 * @param {string} name
 * @returns {string} the message id, for t()
 */
export function optionLabel(name) {
  /** @type {Record<string, string>} */
  const labels = {
    pie_rule: N_("Pie rule (the second player may swap colours)"),
    agreement: N_("Offer to end by agreement"),
    variant: N_("Variant"),
    players: N_("Players"),
    crumbling_wall: N_("Crumbling wall (the −2 steps)"),
    size: N_("Board size (3 to 8 squares a side)"),
  };
  return Object.hasOwn(labels, name) ? labels[name] : name;
}

/**
 * Whether the home page's form can edit an option: one with choices or of a simple
 * type. Those it cannot (a tuple of steps, "int | None", Ishigaki's goal, whose "−2"
 * steps must fit it) keep their default.
 *
 * @param {{name: string, type: string, choices?: unknown[] | null}} option
 * @returns {boolean}
 */
export function isEditable(option) {
  const simple = ["bool", "int", "str", "choice"].includes(option.type);
  return Boolean(option.choices?.length || simple) && option.name !== "goal";
}

/**
 * "2 players", "2–4 players"; empty where the listing says no count.
 *
 * @param {{min_players?: number, max_players?: number}} game
 * @returns {string}
 */
export function playersText(game) {
  const low = game.min_players;
  const high = game.max_players;
  if (!low) return "";
  return low === high
    ? t("{count} players", { count: low })
    : t("{low}–{high} players", { low, high });
}

/**
 * "about 20 minutes", "20–40 minutes"; empty where the listing says none.
 *
 * @param {unknown} minutes [low, high]
 * @returns {string}
 */
export function minutesText(minutes) {
  if (!Array.isArray(minutes)) return "";
  const [low, high] = minutes;
  return low === high
    ? t("about {minutes} minutes", { minutes: low })
    : t("{low}–{high} minutes", { low, high });
}

/**
 * The move list's rows: the indexes of the moves each shows. Two-player games whose
 * moves are notation pair the moves of a round ("1. c3-d4 d4-c3"); a game that tells
 * its moves (`told`: the server's narration) or has more seats shows one a row.
 *
 * @param {number} count the number of moves
 * @param {number} seats
 * @param {boolean} told
 * @returns {number[][]}
 */
export function moveRounds(count, seats, told) {
  const step = !told && seats === 2 ? 2 : 1;
  const rounds = [];
  for (let first = 0; first < count; first += step) {
    rounds.push([first, first + 1].slice(0, step).filter((i) => i < count));
  }
  return rounds;
}
