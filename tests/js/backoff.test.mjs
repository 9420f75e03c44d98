// The reconnection back-off (static/backoff.js): longer after each failure, jittered,
// capped, and reset only by a good message.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Backoff, FIRST_MS, MOST_MS } from "../../src/stairgames/web/static/backoff.js";

test("each failure doubles the cap until the most; the wait is within its half and cap", () => {
  const low = new Backoff(() => 0);
  const high = new Backoff(() => 0.999999);
  const lows = Array.from({ length: 10 }, () => low.next());
  const highs = Array.from({ length: 10 }, () => high.next());
  assert.deepEqual(lows.slice(0, 4), [FIRST_MS / 2, FIRST_MS, FIRST_MS * 2, FIRST_MS * 4]);
  for (let i = 1; i < 10; i++) assert.ok(lows[i] >= lows[i - 1]);
  assert.equal(lows.at(-1), MOST_MS / 2);
  assert.equal(highs.at(-1), MOST_MS - 1);
  for (const [i, wait] of highs.entries()) assert.ok(wait >= lows[i] && wait <= MOST_MS);
});

test("opening a socket is no success: only a good message starts again from the first", () => {
  const backoff = new Backoff(() => 0.5);
  const waits = [backoff.next(), backoff.next(), backoff.next()];
  assert.ok(waits[2] > waits[0]);
  backoff.succeeded();
  assert.equal(backoff.next(), waits[0]);
});

test("two pages cut off at once wait differently (jitter)", () => {
  const values = [0.1, 0.9];
  const pages = values.map((v) => new Backoff(() => v));
  for (const page of pages) page.next();
  const [one, two] = pages.map((page) => page.next());
  assert.notEqual(one, two);
});

test("many failures never overflow the cap", () => {
  const backoff = new Backoff(() => 0.999999);
  for (let i = 0; i < 2000; i++) assert.ok(backoff.next() < MOST_MS);
});
