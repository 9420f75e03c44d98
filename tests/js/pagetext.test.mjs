// The home and match pages' texts (static/pagetext.js): options' labels and summaries, players and
// minutes, the moves that are words, and the move list's rounds.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { setLanguage } from "../../src/stairgames/web/static/i18n.js";
import {
  capitalise,
  isEditable,
  gameWords,
  isNote,
  isWord,
  lineText,
  minutesText,
  moveRounds,
  moveText,
  optionLabel,
  optionsSummary,
  optionValue,
  optionValueText,
  playersText,
  poolText,
  sameValue,
  wordButtons,
  wordOf,
} from "../../src/stairgames/web/static/pagetext.js";

test("an option's label is the one its game declared, or its name", () => {
  assert.equal(optionLabel({ name: "depth", type: "int", default: 1, label: "Depth" }), "Depth");
  assert.equal(optionLabel({ name: "steps", type: "int", default: 1 }), "steps");
});

test("the forms offer every option but those the game keeps at their default", () => {
  assert.equal(isEditable({ name: "steps", type: "tuple[int, ...]", default: [] }), true);
  assert.equal(isEditable({ name: "seed", type: "int", default: 0, offered: false }), false);
});

test("values equal by value: a list is not changed by being another list", () => {
  assert.equal(sameValue([5, 9, 13], [5, 9, 13]), true);
  assert.equal(sameValue([5, 9], [5, 9, 13]), false);
  assert.equal(sameValue(null, undefined), true);
});

const OPTIONS = [
  { name: "squares", type: "tuple", default: [5, 9], kind: "list", label: "Squares" },
  { name: "wall", type: "bool", default: false, kind: "flag", summary: "wall: {value}" },
  {
    name: "level",
    type: "choice",
    default: "low",
    kind: "choice",
    summary: "{value} level",
    choice_labels: { low: "low", high: "the high one" },
  },
];

test("a set of options tells only what differs from the defaults, as each option says", () => {
  assert.equal(optionsSummary(OPTIONS, { squares: [5, 9], wall: false, level: "low" }), "");
  assert.equal(
    optionsSummary(OPTIONS, { squares: [], wall: true, level: "high" }),
    "Squares: none · wall: yes · the high one level",
  );
  assert.equal(optionValueText(OPTIONS[0], [3, 4]), "3, 4");
});

test("a challenge of the default list, sent as a new list, changes nothing", () => {
  const squares = { name: "squares", type: "tuple", default: [5, 9, 13], kind: "list" };
  assert.equal(optionsSummary([squares], { squares: [5, 9, 13] }), "");
  assert.equal(optionsSummary([squares], { squares: [5, 9] }), "squares: 5, 9");
  assert.equal(optionsSummary([squares], {}), ""); // not set: the default
});

test("an input's value is the option's: a tick, a number, a list, a choice as written", () => {
  const of = (kind, extra = {}) => ({ name: "x", type: "", default: null, kind, ...extra });
  assert.equal(optionValue(of("flag"), { value: "on", checked: false }), false);
  assert.equal(optionValue(of("number"), { value: " 12 " }), 12);
  assert.deepEqual(optionValue(of("list"), { value: "5, 9,,13 " }), [5, 9, 13]);
  assert.deepEqual(optionValue(of("list"), { value: "" }), []);
  assert.equal(optionValue(of("choice", { choices: [3, 4] }), { value: "4" }), 4);
  assert.equal(optionValue(of("text"), { value: "red,blue" }), "red,blue");
  assert.equal(optionValue(of("text"), { value: "" }), "");
});

test("an input that may be empty, left empty, keeps the option's default", () => {
  const of = (kind, extra = {}) => ({ name: "x", type: "", default: null, kind, ...extra });
  assert.equal(optionValue(of("seat"), { value: "" }), undefined);
  assert.equal(optionValue(of("seat"), { value: "1" }), 1);
  assert.equal(optionValue(of("file"), { value: "" }), undefined);
  assert.equal(optionValue(of("number", { optional: true }), { value: "" }), undefined);
});

// a page's language in Node: its catalog answered by a stub fetch, no document to fill
const realFetch = globalThis.fetch;
after(() => {
  globalThis.fetch = realFetch;
});

async function speak(lang, messages) {
  globalThis.fetch = async () => new Response(JSON.stringify({ lang, messages }));
  globalThis.localStorage ??= /** @type {Storage} */ ({ setItem() {}, getItem: () => null });
  globalThis.document ??= /** @type {any} */ ({ documentElement: {}, querySelectorAll: () => [] });
  await setLanguage(lang);
}

test("a set of options is told in the reader's language, values and joins too", async () => {
  await speak("ja", {
    yes: "はい",
    none: "なし",
    ", ": "、",
    "{label}: {value}": "{label}：{value}",
    Squares: "マス",
    "wall: {value}": "壁：{value}",
    "the high one": "高いほう",
    "{value} level": "{value}のレベル",
  });
  try {
    assert.equal(
      optionsSummary(OPTIONS, { squares: [3, 4], wall: true, level: "high" }),
      "マス：3、4 · 壁：はい · 高いほうのレベル",
    );
    assert.equal(optionValueText(OPTIONS[0], []), "なし");
    assert.equal(optionLabel(OPTIONS[0]), "Squares"); // the id: t() translates it where shown
  } finally {
    await speak("en", {});
  }
});

test("players and minutes: one number or a range, nothing where unknown", () => {
  assert.equal(playersText({ min_players: 1, max_players: 1 }), "1 player");
  assert.equal(minutesText([1, 1]), "about 1 minute");
  assert.equal(playersText({ min_players: 2, max_players: 2 }), "2 players");
  assert.equal(playersText({ min_players: 2, max_players: 4 }), "2–4 players");
  assert.equal(playersText({}), "");
  assert.equal(minutesText([20, 20]), "about 20 minutes");
  assert.equal(minutesText([10, 30]), "10–30 minutes");
  assert.equal(minutesText(undefined), "");
});

// A game's words as GET /api/games lists them (core/registry.py's MoveWord).
const WORDS = [
  { move: "pass", label: "Pass", button: true, control: false, note: false },
  { move: "offer", label: "Offer a draw", button: true, control: true, note: true },
  { move: "decline", label: "Decline the draw", button: true, control: false, note: true },
  { move: "stop", label: "Stop", button: false, control: false, note: false },
  { move: "die:{number}", label: "Die {number}", button: false, control: false, note: false },
  { move: "start:{seat}", label: "{seat} starts", button: false, control: false, note: false },
];

test("moves that are words are said as their game declared, board moves as notation", () => {
  assert.equal(moveText("pass", WORDS), "Pass");
  assert.equal(moveText("offer", WORDS), "Offer a draw");
  assert.equal(moveText("c3-d4", WORDS), "c3-d4");
  assert.equal(moveText("pass", []), "pass"); // a game that declares no words
  assert.equal(isWord(WORDS, "pass"), true);
  assert.equal(isWord(WORDS, "constructor"), false);
  assert.equal(isNote(WORDS, "decline"), true);
  assert.equal(isNote(WORDS, "pass"), false);
  assert.equal(gameWords({ name: "x" }).length, 0);
  assert.equal(gameWords({ name: "x", move_words: WORDS }), WORDS);
});

test("a pattern says its number, and a seat by its name", () => {
  assert.equal(moveText("die:3", WORDS), "Die 3");
  assert.equal(moveText("start:1", WORDS, ["red", "blue"]), "Blue starts");
  assert.equal(moveText("start:7", WORDS, ["red", "blue"]), "7 starts");
  assert.equal(isWord(WORDS, "die:x"), false);
  assert.equal(isWord(WORDS, "die:3:4"), false);
  assert.deepEqual(wordOf(WORDS, "die:12")?.values, { number: "12" });
});

test("a line of moves: notation with spaces, words with commas", () => {
  assert.equal(lineText(["c3-d4", "d4-c3"], WORDS), "c3-d4 d4-c3");
  assert.equal(lineText(["stop", "die:1", "die:6"], WORDS), "Stop, Die 1, Die 6");
});

test("the words of a turn are buttons with the moves or among the controls", () => {
  const { turn, controls } = wordButtons(WORDS, ["c3-d4", "pass", "offer", "stop", "die:2"]);
  assert.deepEqual(turn, [{ move: "pass", label: "Pass" }]);
  assert.deepEqual(controls, [{ move: "offer", label: "Offer a draw" }]);
});

test("moves in Japanese: the label translated, the seat's name too", async () => {
  await speak("ja", { "Die {number}": "出目{number}", "{seat} starts": "{seat}が先手", red: "赤" });
  try {
    assert.equal(moveText("die:5", WORDS), "出目5");
    assert.equal(moveText("start:0", WORDS, ["red", "blue"]), "赤が先手");
  } finally {
    await speak("en", {});
  }
});

test("a sentence starts with a capital; an empty text stays empty", () => {
  assert.equal(capitalise("dark resigns"), "Dark resigns");
  assert.equal(capitalise(""), "");
  assert.equal(capitalise("黒の勝ち"), "黒の勝ち");
});

/** The rounds as lists of indexes, each move's notes after a slash: [[0, "1/2,3"], ...]. */
function rows(history, seats, told, words = WORDS) {
  return moveRounds(history, seats, told, words).map((round) =>
    round.map((m) => (m.notes.length ? `${m.index}/${m.notes.join(",")}` : m.index)),
  );
}

test("two players' moves pair into rounds, the last one alone when odd", () => {
  assert.deepEqual(rows(["a", "b", "c", "d", "e"], 2, false), [[0, 1], [2, 3], [4]]);
  assert.deepEqual(rows([], 2, false), []);
});

test("a told game, or one of more seats, shows one move a row", () => {
  assert.deepEqual(rows(["a", "b", "c"], 2, true), [[0], [1], [2]]);
  assert.deepEqual(rows(["a", "b", "c"], 4, false), [[0], [1], [2]]);
});

test("an offer and its answer are notes under the move before them, not moves of the pairs", () => {
  // 1. e1-e2 d6-d5 2. e2-e3 (dark offers, light declines) d5-d4 3. pass
  const history = ["e1-e2", "d6-d5", "e2-e3", "offer", "decline", "d5-d4", "pass"];
  assert.deepEqual(rows(history, 2, false), [[0, 1], ["2/3,4", 5], [6]]);
  // a game that declares no notes pairs every move, as before
  assert.deepEqual(rows(history, 2, false, []), [[0, 1], [2, 3], [4, 5], [6]]);
  // a note with no move before it is a move of its own
  assert.deepEqual(rows(["offer", "decline", "a"], 2, false), [["0/1", 2]]);
});

// Games as GET /api/games lists them, with the options that make rating pools.
const POOL_GAMES = [
  {
    name: "stairs",
    title: "Stairs",
    options: [
      { name: "pie_rule", kind: "flag", default: false, summary: "pie rule: {value}" },
      { name: "size", kind: "number", default: 6, summary: "{value}×{value} board" },
    ],
  },
  {
    name: "twenty_seven",
    title: "27",
    options: [
      {
        name: "variant",
        kind: "choice",
        default: "basic",
        summary: "{value} variant",
        choice_labels: { basic: "basic" },
      },
    ],
  },
  { name: "ishigaki_race", title: "Ishigaki Race", options: [] },
];

test("a rating pool is its game's title and its options as each says itself", () => {
  assert.equal(poolText("stairs size=6", POOL_GAMES), "Stairs · 6×6 board");
  assert.equal(poolText("twenty_seven variant=basic", POOL_GAMES), "27 · basic variant");
  assert.equal(poolText("ishigaki_race", POOL_GAMES), "Ishigaki Race");
  assert.equal(poolText("stairs pie_rule=True", POOL_GAMES), "Stairs · pie rule: yes");
  assert.equal(poolText("unknown_game size=3", POOL_GAMES), "unknown_game size=3");
});

test("a rating pool in Japanese: the translated title and the option's summary", async () => {
  await speak("ja", {
    Stairs: "ステアー",
    "{value}×{value} board": "{value}×{value}の盤",
    27: "27",
    basic: "基本",
    "{value} variant": "{value}バリアント",
  });
  try {
    assert.equal(poolText("stairs size=6", POOL_GAMES), "ステアー · 6×6の盤");
    assert.equal(poolText("twenty_seven variant=basic", POOL_GAMES), "27 · 基本バリアント");
  } finally {
    await speak("en", {});
  }
});

test("counts in Japanese take the catalog's one plural form", async () => {
  await speak("ja", {
    "{count} player": ["{count}人"],
    "about {minutes} minute": ["約{minutes}分"],
  });
  try {
    assert.equal(playersText({ min_players: 1, max_players: 1 }), "1人");
    assert.equal(playersText({ min_players: 3, max_players: 3 }), "3人");
    assert.equal(minutesText([1, 1]), "約1分");
  } finally {
    await speak("en", {});
  }
});
