// A move queued while the opponent thinks (static/premove.js): kept while they have the
// move, played on arrival if legal, else dropped; never kept past the game's end.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Premove, mayPremove } from "../../src/stairgames/web/static/premove.js";

const theirs = {
  you: 0,
  to_act: 1,
  result: null,
  legal: [],
  premoves: ["d3-c4", "b3-a4"],
  history: ["a1-a2"],
};
const mine = {
  you: 0,
  to_act: 0,
  result: null,
  legal: ["d3-c4"],
  premoves: [],
  history: ["a1-a2", "f6-f5"],
};

test("nothing queued: nothing to send or drop", () => {
  assert.deepEqual(new Premove().settle(mine), { send: null, dropped: null });
});

test("a queued move waits while the opponent has the move, then goes once if legal", () => {
  const premove = new Premove();
  premove.queue("d3-c4", 1);
  assert.deepEqual(premove.settle(theirs), { send: null, dropped: null });
  assert.deepEqual(premove.settle(mine), { send: "d3-c4", dropped: null });
  assert.deepEqual(premove.settle(mine), { send: null, dropped: null });
});

test("a move no longer legal, or a game over, drops it; a cancelled one is never sent", () => {
  const premove = new Premove();
  premove.queue("b3-a4", 1);
  assert.deepEqual(premove.settle(mine), { send: null, dropped: "b3-a4" });
  premove.queue("d3-c4", 1);
  assert.deepEqual(premove.settle({ ...theirs, result: { winners: [1] } }), {
    send: null,
    dropped: "d3-c4",
  });
  premove.queue("d3-c4", 1);
  premove.cancel();
  assert.deepEqual(premove.settle(mine), { send: null, dropped: null });
  premove.queue("d3-c4", 1); // the move before it taken back: my turn again, dropped
  assert.deepEqual(premove.settle({ ...mine, history: [] }), { send: null, dropped: "d3-c4" });
});

test("a seat may queue only while its opponent is to move in a game going on", () => {
  assert.equal(mayPremove(theirs, false), true);
  assert.equal(mayPremove(theirs, true), false); // a past position shown
  assert.equal(mayPremove(mine, false), false);
  assert.equal(mayPremove({ ...theirs, you: null }, false), false);
  assert.equal(mayPremove({ ...theirs, premoves: [] }, false), false);
  assert.equal(mayPremove({ ...theirs, result: { winners: [0] } }, false), false);
});
