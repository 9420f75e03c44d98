// A move made while disconnected (static/pending.js): sent once back if the game did not
// move on, else dropped.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PendingMove } from "../../src/stairgames/web/static/pending.js";

const move = { type: "move", move: "d3-c4" };

test("nothing kept: nothing to send or drop", () => {
  assert.deepEqual(new PendingMove().settle({ event: 3, result: null }), {
    send: null,
    dropped: null,
  });
});

test("a move kept is sent once, when the game is still at its event", () => {
  const pending = new PendingMove();
  pending.keep(move, 3);
  assert.deepEqual(pending.settle({ event: 3, result: null }), { send: move, dropped: null });
  assert.deepEqual(pending.settle({ event: 3, result: null }), { send: null, dropped: null });
});

test("a game that moved on, or ended, drops the move kept", () => {
  const pending = new PendingMove();
  pending.keep(move, 3);
  assert.deepEqual(pending.settle({ event: 4, result: null }), { send: null, dropped: move });
  pending.keep(move, 3);
  assert.deepEqual(pending.settle({ event: 3, result: { winners: [0] } }), {
    send: null,
    dropped: move,
  });
});

test("the later of two moves kept is the one sent", () => {
  const pending = new PendingMove();
  pending.keep({ type: "move", move: "a1-b2" }, 3);
  pending.keep(move, 3);
  assert.equal(pending.settle({ event: 3, result: null }).send, move);
});
