// The match and home pages' texts worked out from the server's data, with no DOM: the
// options' labels, rating pools, a game's players and minutes, the moves each game says
// in words (its `move_words`: this page names none) and the move list's rounds. Pure
// (tests/js/ runs it in Node); t() gives each text in the page's language.

import { language, ngettext, t } from "./i18n.js";

/**
 * N_ marks a message id translated later with t() (tests/test_web_ui.py collects them).
 *
 * @param {string} id
 * @returns {string}
 */
const N_ = (id) => id;

/**
 * A move a game says in words (its registration's `move_words`, through GET /api/games):
 * the notation, or a pattern with `{number}` (said as it is) or `{seat}` (a seat's
 * number, said as its name); its label (a message id with those names); whether the
 * page offers it as a button (`control`: among the match's controls, the element whose
 * id is the move), whether the move list shows it as a note under the move before it;
 * what the page says when it is a player's only move (`forced`) and while it is the last
 * move (`told`: to its player, to the others with `{name}`).
 *
 * @typedef {object} MoveWord
 * @property {string} move
 * @property {string} label
 * @property {boolean} [button]
 * @property {boolean} [control]
 * @property {boolean} [note]
 * @property {string} [forced]
 * @property {string[]} [told]
 */

/**
 * The moves a game says in words (none for a game not listed).
 *
 * @param {{name: string, move_words?: MoveWord[]} | undefined | null} game
 * @returns {MoveWord[]}
 */
export function gameWords(game) {
  return game?.move_words || [];
}

/**
 * The word a move is, with the values its pattern took; null for a move in notation.
 *
 * @param {MoveWord[]} words
 * @param {string} move
 * @returns {{word: MoveWord, values: Record<string, string>} | null}
 */
export function wordOf(words, move) {
  for (const word of words) {
    if (word.move === move) return { word, values: {} };
    const names = [...word.move.matchAll(/\{(\w+)\}/g)].map((found) => found[1]);
    if (!names.length) continue;
    const parts = word.move
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
    const found = new RegExp(`^${parts.join("(\\d+)")}$`).exec(move);
    if (!found) continue;
    /** @type {Record<string, string>} */
    const values = {};
    names.forEach((name, index) => {
      values[name] = found[index + 1];
    });
    return { word, values };
  }
  return null;
}

/**
 * Whether a move is one of the game's words (pass, swap, ...) rather than a board move.
 *
 * @param {MoveWord[]} words
 * @param {string} move
 * @returns {boolean}
 */
export function isWord(words, move) {
  return wordOf(words, move) !== null;
}

/**
 * Whether the move list shows a move as a note under the move before it (an offer to end
 * the game, its answer) rather than as a move of the pairs.
 *
 * @param {MoveWord[]} words
 * @param {string} move
 * @returns {boolean}
 */
export function isNote(words, move) {
  return Boolean(wordOf(words, move)?.word.note);
}

/**
 * A move as people read it: a word translated (a pattern's `{seat}` said as the seat's
 * name), a board move as its notation.
 *
 * @param {string} move
 * @param {MoveWord[]} words
 * @param {string[]} [seatNames] the game's seats, by number (message ids)
 * @returns {string}
 */
export function moveText(move, words, seatNames = []) {
  const found = wordOf(words, move);
  if (!found) return move;
  /** @type {Record<string, string>} */
  const values = { ...found.values };
  if (Object.hasOwn(values, "seat")) {
    const name = seatNames[Number(values.seat)];
    if (name !== undefined) values.seat = t(name);
  }
  return capitalise(t(found.word.label, values));
}

/**
 * A line of moves (the engine's best line) as people read it: notation with spaces
 * ("c3-d4 d4-c3"), moves in words with commas ("Roll the second die, Die 1").
 *
 * @param {string[]} moves
 * @param {MoveWord[]} words
 * @param {string[]} [seatNames]
 * @returns {string}
 */
export function lineText(moves, words, seatNames = []) {
  const said = moves.some((move) => isWord(words, move));
  return moves.map((move) => moveText(move, words, seatNames)).join(said ? t(", ") : " ");
}

/**
 * The words a player at turn may play as buttons of their own: those with the moves of
 * the turn, and those among the controls.
 *
 * @param {MoveWord[]} words
 * @param {string[]} legal
 * @returns {{turn: {move: string, label: string}[], controls: {move: string, label: string}[]}}
 */
export function wordButtons(words, legal) {
  /** @type {{move: string, label: string}[]} */
  const turn = [];
  /** @type {{move: string, label: string}[]} */
  const controls = [];
  for (const move of legal) {
    const found = wordOf(words, move);
    if (!found || found.word.button === false) continue;
    (found.word.control ? controls : turn).push({ move, label: found.word.label });
  }
  return { turn, controls };
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
    .map((option) => optionText(option, values[option.name]))
    .join(" · ");
}

/**
 * A value of a rating pool's name as Python wrote it (server/people/ratings.py pool_of:
 * "6", "basic", "True"): a number, a flag or the text.
 *
 * @param {string} text
 * @returns {unknown}
 */
function poolValue(text) {
  if (text === "True" || text === "False") return text === "True";
  return text !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
}

/**
 * A rating pool (GET /api/players' `ratings` key: "stairs size=6", "twenty_seven
 * variant=basic", "ishigaki_race") in the reader's language: the game's title, then the
 * options that make the pool as each option tells itself, joined as the lobby's rows
 * join them ("Stairs · 6×6 board"; Japanese "ステアー · 6×6の盤"); a game not listed is
 * its pool as it is.
 *
 * @param {string} pool
 * @param {{name: string, title: string, options?: GameOption[]}[]} games GET /api/games
 * @returns {string}
 */
export function poolText(pool, games) {
  const [name, ...settings] = pool.split(" ").filter(Boolean);
  const game = games.find((g) => g.name === name);
  if (!game) return pool;
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const setting of settings) {
    const at = setting.indexOf("=");
    if (at > 0) values[setting.slice(0, at)] = poolValue(setting.slice(at + 1));
  }
  const options = (game.options || []).filter((option) => Object.hasOwn(values, option.name));
  const said = options.map((option) => optionText(option, values[option.name]));
  return [t(game.title), ...said].join(" · ");
}

/**
 * An option set to a value as the option tells itself ("6×6 board"), else "label: value".
 *
 * @param {GameOption} option
 * @param {unknown} value
 * @returns {string}
 */
function optionText(option, value) {
  const text = optionValueText(option, value);
  if (option.summary) return t(option.summary, { value: text });
  return t("{label}: {value}", { label: t(optionLabel(option)), value: text });
}

/**
 * "1 player", "2 players", "2–4 players"; empty where the listing says no count.
 *
 * @param {{min_players?: number, max_players?: number}} game
 * @returns {string}
 */
export function playersText(game) {
  const low = game.min_players;
  const high = game.max_players;
  if (!low) return "";
  return low === high
    ? ngettext("{count} player", "{count} players", low, { count: low })
    : t("{low}–{high} players", { low, high });
}

/**
 * "about 1 minute", "about 20 minutes", "20–40 minutes"; empty where the listing says none.
 *
 * @param {unknown} minutes [low, high]
 * @returns {string}
 */
export function minutesText(minutes) {
  if (!Array.isArray(minutes)) return "";
  const [low, high] = minutes;
  return low === high
    ? ngettext("about {minutes} minute", "about {minutes} minutes", low, { minutes: low })
    : t("{low}–{high} minutes", { low, high });
}

/**
 * A move of the move list: its index in the history, and the notes under it (the indexes
 * of the moves after it that the game shows as notes: an offer and its answer).
 *
 * @typedef {object} ListedMove
 * @property {number} index
 * @property {number[]} notes
 */

/**
 * The move list's rows. Two-player games whose moves are notation pair the moves of a
 * round ("1. c3-d4 d4-c3"); a game that tells its moves (`told`: the server's narration)
 * or has more seats shows one a row. A move the game declares a note (an offer and its
 * answer) is no move of the pairs: it goes under the move before it, so that each
 * seat's moves stay in its column.
 *
 * @param {string[]} history the moves' notation
 * @param {number} seats
 * @param {boolean} told
 * @param {MoveWord[]} [words]
 * @returns {ListedMove[][]}
 */
export function moveRounds(history, seats, told, words = []) {
  const step = !told && seats === 2 ? 2 : 1;
  /** @type {ListedMove[][]} */
  const rounds = [];
  /** @type {ListedMove | null} */
  let last = null;
  history.forEach((move, index) => {
    if (last && isNote(words, move)) {
      last.notes.push(index);
      return;
    }
    last = { index, notes: [] };
    const round = rounds[rounds.length - 1];
    if (round && round.length < step) round.push(last);
    else rounds.push([last]);
  });
  return rounds;
}
