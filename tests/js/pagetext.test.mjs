// The home and match pages' texts (static/pagetext.js): options' labels and summaries, players and
// minutes, the moves that are words, and the move list's rounds.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { setLanguage } from "../../src/stairgames/web/static/i18n.js";
import {
  capitalise,
  isEditable,
  isWord,
  minutesText,
  moveRounds,
  moveText,
  optionLabel,
  optionsSummary,
  optionValue,
  optionValueText,
  playersText,
  sameValue,
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
  assert.equal(playersText({ min_players: 2, max_players: 2 }), "2 players");
  assert.equal(playersText({ min_players: 2, max_players: 4 }), "2–4 players");
  assert.equal(playersText({}), "");
  assert.equal(minutesText([20, 20]), "about 20 minutes");
  assert.equal(minutesText([10, 30]), "10–30 minutes");
  assert.equal(minutesText(undefined), "");
});

test("moves that are words are said, board moves kept as their notation", () => {
  assert.equal(moveText("pass"), "Pass");
  assert.equal(moveText("offer"), "Offer to end by agreement");
  assert.equal(moveText("c3-d4"), "c3-d4");
  assert.equal(isWord("swap"), true);
  assert.equal(isWord("constructor"), false);
});

test("a sentence starts with a capital; an empty text stays empty", () => {
  assert.equal(capitalise("dark resigns"), "Dark resigns");
  assert.equal(capitalise(""), "");
  assert.equal(capitalise("黒の勝ち"), "黒の勝ち");
});

test("two players' moves pair into rounds, the last one alone when odd", () => {
  assert.deepEqual(moveRounds(5, 2, false), [[0, 1], [2, 3], [4]]);
  assert.deepEqual(moveRounds(0, 2, false), []);
});

test("a told game, or one of more seats, shows one move a row", () => {
  assert.deepEqual(moveRounds(3, 2, true), [[0], [1], [2]]);
  assert.deepEqual(moveRounds(3, 4, false), [[0], [1], [2]]);
});
