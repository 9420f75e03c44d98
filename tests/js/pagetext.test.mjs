// The home and match pages' texts (static/pagetext.js): option labels, players and
// minutes, the moves that are words, and the move list's rounds.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  capitalise,
  isEditable,
  isWord,
  minutesText,
  moveRounds,
  moveText,
  optionLabel,
  playersText,
} from "../../src/stairgames/web/static/pagetext.js";

test("an option's label is its message id, or its name where none is written", () => {
  assert.equal(optionLabel("pie_rule"), "Pie rule (the second player may swap colours)");
  assert.equal(optionLabel("size"), "Board size (3 to 8 squares a side)");
  assert.equal(optionLabel("steps"), "steps");
  assert.equal(optionLabel("toString"), "toString"); // not the prototype's
});

test("the form edits options with choices or of a simple type, never the goal", () => {
  assert.equal(isEditable({ name: "pie_rule", type: "bool" }), true);
  assert.equal(isEditable({ name: "variant", type: "str", choices: ["basic", "advanced"] }), true);
  assert.equal(isEditable({ name: "steps", type: "tuple[int, ...]" }), false);
  assert.equal(isEditable({ name: "limit", type: "int | None", choices: [] }), false);
  assert.equal(isEditable({ name: "goal", type: "int" }), false);
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
