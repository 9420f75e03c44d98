// Stepping through a game (static/replay.js): the position shown, the boards kept.
import assert from "node:assert/strict";
import { test } from "node:test";
import { keyOf, Replay, stepOfKey } from "../../src/stairgames/web/static/replay.js";

/** A view of `moves` moves at `event`, its board named by its position. */
function view(moves, { event = moves, result = null, you = 0, match = "m1" } = {}) {
  const history = Array.from({ length: moves }, (_, i) => `move${i + 1}`);
  return { match, you, result, event, history, board: `board${moves}` };
}

test("each view's board is kept at its position; a new viewer starts afresh", () => {
  const replay = new Replay();
  replay.note(null, view(0));
  replay.note(view(0), view(1));
  assert.deepEqual(replay.boards, ["board0", "board1"]);
  replay.note(view(1), view(1, { you: 1 }));
  assert.deepEqual([...replay.boards], [undefined, "board1"]); // (a hole: not seen)
  assert.equal(replay.key, keyOf(view(1, { you: 1 })));
});

test("a takeback drops the boards after the position", () => {
  const replay = new Replay();
  replay.note(null, view(2, { event: 2 }));
  replay.boards[1] = "board1";
  replay.note(view(2), view(1, { event: 3 }));
  assert.deepEqual([...replay.boards], [undefined, "board1"]); // (a hole: not seen)
});

test("a new event of a game going on brings the live position back", () => {
  const replay = new Replay();
  replay.note(null, view(3));
  replay.show(1, 3);
  assert.equal(replay.note(view(3), view(3)), false); // the same event: stays
  assert.equal(replay.at, 1);
  assert.equal(replay.note(view(3), view(4)), true);
  assert.equal(replay.at, null);
});

test("a finished game's later events leave the replay where it is", () => {
  const replay = new Replay();
  const over = { winners: [0] };
  replay.note(null, view(3, { result: over }));
  replay.show(1, 3);
  assert.equal(replay.note(view(3, { result: over }), view(3, { event: 9, result: over })), false);
  assert.equal(replay.at, 1);
});

test("a step is clamped to the game and passes positions without a board", () => {
  const replay = new Replay();
  replay.boards = ["b0", undefined, "b2", undefined, "b4"];
  assert.equal(replay.target(-3, 4), 0);
  assert.equal(replay.target(99, 4), 4);
  assert.equal(replay.target(1, 4, 1), 2);
  assert.equal(replay.target(3, 4, -1), 2);
  assert.equal(replay.target(3, 4, 1), 4); // on to the live one
  replay.boards = [undefined, undefined, "b2"];
  assert.equal(replay.target(1, 2, -1), null); // nothing to show
});

test("showing the live position, or past it, is no replay", () => {
  const replay = new Replay();
  replay.show(4, 4);
  assert.equal(replay.at, null);
  assert.equal(replay.shown(4), 4);
  replay.boards = ["b0", "b1"];
  replay.show(1, 4);
  assert.equal(replay.shown(4), 1);
  assert.equal(replay.board("live"), "b1");
  assert.equal(replay.live(), true);
  assert.equal(replay.live(), false);
  assert.equal(replay.board("live"), "live");
});

test("the server's frames fill the missing boards, the live one last", () => {
  const replay = new Replay();
  replay.boards = [undefined, "seen1", undefined];
  assert.equal(replay.missing(2), true);
  replay.fill([{ board: "f0" }, { board: "f1" }, { board: "f2" }, { board: "f3" }], 2, "live");
  assert.deepEqual(replay.boards, ["f0", "f1", "live"]);
  assert.equal(replay.missing(2), false);
});

test("arrows, Home and End step; with a modifier, or another key, nothing", () => {
  const plain = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };
  assert.equal(stepOfKey({ ...plain, key: "ArrowLeft" }), -1);
  assert.equal(stepOfKey({ ...plain, key: "ArrowRight" }), 1);
  assert.equal(stepOfKey({ ...plain, key: "Home" }), "first");
  assert.equal(stepOfKey({ ...plain, key: "End" }), "last");
  assert.equal(stepOfKey({ ...plain, key: "ArrowLeft", altKey: true }), null);
  assert.equal(stepOfKey({ ...plain, key: "a" }), null);
  assert.equal(stepOfKey({ ...plain, key: "toString" }), null);
});
