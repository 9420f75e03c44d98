import assert from "node:assert/strict";
import { test } from "node:test";

import { dayText, OUTCOME_WORDS, outcomeOf } from "../../src/stairgames/web/static/outcome.js";

const game = (seats, over, result) => ({ seats, over, result });

test("a game going on, or over with no result yet, is going on", () => {
  assert.equal(outcomeOf(game([0], false, null)), "going_on");
  assert.equal(outcomeOf(game([0], true, null)), "going_on");
});

test("over: won, a shared win, lost, a draw, aborted, for the seats held", () => {
  assert.equal(outcomeOf(game([0], true, { winners: [0] })), "won");
  assert.equal(outcomeOf(game([1], true, { winners: [0, 1] })), "shared");
  assert.equal(outcomeOf(game([1], true, { winners: [0] })), "lost");
  assert.equal(outcomeOf(game([0], true, { winners: [] })), "draw");
  assert.equal(outcomeOf(game([0], true, { winners: [], aborted: true })), "aborted");
});

test("every outcome has its words", () => {
  for (const outcome of ["going_on", "aborted", "draw", "won", "shared", "lost"]) {
    assert.ok(OUTCOME_WORDS[outcome]);
  }
});

test("the day is written as the reader writes dates; nonsense says nothing", () => {
  assert.equal(dayText("2026-12-05T03:04:05+00:00", "en"), "5 Dec 2026");
  assert.equal(dayText("2026-12-05T03:04:05+00:00", "ja"), "2026年12月5日");
  assert.equal(dayText("not a date", "en"), "");
});
