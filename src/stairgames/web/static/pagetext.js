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

/** @typedef {import("./types.js").GameOption} GameOption */

/**
 * What an option of kind "file" says on a form (message ids, for t()): its choice of no
 * file (the default), its file input's label, while an uploaded file is checked, and once
 * it is kept (with `{name}`, the name the file gives itself).
 *
 * @typedef {object} FileWords
 * @property {string} none
 * @property {string} upload
 * @property {string} checking
 * @property {string} ready
 */

/**
 * A file option's words as its game declared them (core/options.py), each it left out
 * the page's own, which name no game.
 *
 * @param {{default_label?: string, upload_label?: string, checking?: string, ready?: string}} option
 * @returns {FileWords}
 */
export function fileWords(option) {
  return {
    none: option.default_label || N_("no file"),
    upload: option.upload_label || N_("Upload a file"),
    checking: option.checking || N_("Checking the file…"),
    ready: option.ready || N_("{name} is ready."),
  };
}

/**
 * A game option's label on a form, as the game declared it (its name where it
 * declared none).
 *
 * @param {GameOption} option
 * @returns {string} the message id, for t()
 */
export function optionLabel(option) {
  return option.label || option.name;
}

/**
 * Whether the forms offer an option (those they do not keep their default).
 *
 * @param {GameOption} option
 * @returns {boolean}
 */
export function isEditable(option) {
  return option.offered !== false;
}

/**
 * Two option values equal by value: a list is the same list of the same numbers.
 *
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function sameValue(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * An option's value as people read it, in the page's language.
 *
 * @param {GameOption} option
 * @param {unknown} value
 * @returns {string}
 */
export function optionValueText(option, value) {
  if (typeof value === "boolean") return t(value ? "yes" : "no");
  if (Array.isArray(value)) return value.length ? value.join(t(", ")) : t("none");
  const labels = option.choice_labels || {};
  const text = String(value);
  return t(Object.hasOwn(labels, text) ? labels[text] : text);
}

/**
 * The value an option's input holds, as the server takes it: a flag's tick, a number,
 * a list of numbers from "5, 9,13", a choice as the game wrote it, a text; `undefined`
 * where an input that may be empty (a seat at random, no file) is (the option then keeps
 * its default).
 *
 * @param {GameOption} option
 * @param {{value: string, checked?: boolean}} input
 * @returns {unknown}
 */
export function optionValue(option, input) {
  if (option.kind === "flag") return Boolean(input.checked);
  const text = input.value.trim();
  const mayBeEmpty = option.optional || option.kind === "seat" || option.kind === "file";
  if (text === "" && mayBeEmpty) return undefined;
  if (option.kind === "number" || option.kind === "seat") return Number(text);
  if (option.kind === "list") {
    return text
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)
      .map(Number);
  }
  if (option.kind === "choice") return (option.choices || []).find((c) => String(c) === text);
  return input.value;
}

/**
 * The options of a set that differ from the game's defaults, as each option tells
 * itself ("4×4 board · pie rule: yes"), in the page's language.
 *
 * @param {GameOption[]} options the game's options
 * @param {Record<string, unknown>} values
 * @returns {string}
 */
export function optionsSummary(options, values) {
  return options
    .filter((option) => Object.hasOwn(values, option.name))
    .filter((option) => !sameValue(values[option.name], option.default))
    .map((option) => {
      const value = optionValueText(option, values[option.name]);
      if (option.summary) return t(option.summary, { value });
      return t("{label}: {value}", { label: t(optionLabel(option)), value });
    })
    .join(" · ");
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
