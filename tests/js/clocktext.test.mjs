// The clocks' and time controls' texts (static/clocktext.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  clockFace,
  correspondenceText,
  realtimeText,
  timeControlChoices,
  timeControlOf,
  timeControlText,
} from "../../src/stairgames/web/static/clocktext.js";

test("real time shows tenths under ten seconds, then minutes and hours", () => {
  assert.equal(realtimeText(9_349), "9.3");
  assert.equal(realtimeText(0), "0.0");
  assert.equal(realtimeText(10_000), "0:10");
  assert.equal(realtimeText(61_001), "1:02"); // a second begun counts whole
  assert.equal(realtimeText(3_723_000), "1:02:03");
});

test("correspondence shows days and hours, then hours and minutes", () => {
  assert.equal(correspondenceText(2 * 86_400_000 + 3 * 3_600_000), "2 d 3 h left");
  assert.equal(correspondenceText(5 * 3_600_000 + 12 * 60_000 + 59_000), "5 h 12 min left");
});

test("the running seat's clock counts down from the view, the others' stand", () => {
  const clock = { kind: "realtime", running: 0, remaining_ms: [30_000, 25_000] };
  assert.deepEqual(clockFace(clock, 0, 15_000), { text: "0:15", running: true, low: true });
  assert.deepEqual(clockFace(clock, 1, 15_000), { text: "0:25", running: false, low: false });
  assert.equal(clockFace(clock, 0, 60_000).text, "0.0"); // never below zero
});

test("a correspondence clock shows the running seat's deadline only", () => {
  const clock = { kind: "correspondence", running: 1, deadline_ms: 7_200_000, now_ms: 0 };
  assert.deepEqual(clockFace(clock, 1, 3_600_000 + 60_000), {
    text: "0 h 59 min left",
    running: true,
    low: true,
  });
  assert.equal(clockFace(clock, 0, 0).text, "");
});

test("the game's own real-time default comes first, once", () => {
  const values = timeControlChoices({ realtime_default: [10, 5] }).map(([value]) => value);
  assert.deepEqual(values.slice(0, 3), ["none", "realtime:10:5", "realtime:1:0"]);
  assert.equal(values.filter((v) => v === "realtime:10:5").length, 1);
  assert.equal(values.at(-1), "correspondence:7");
  assert.equal(timeControlChoices(null)[1][0], "realtime:5:3");
});

test("a choice becomes the API's time control and is said back", () => {
  assert.deepEqual(timeControlOf("realtime:5:3"), { kind: "realtime", minutes: 5, increment: 3 });
  assert.deepEqual(timeControlOf("correspondence:2"), { kind: "correspondence", days: 2 });
  assert.equal(timeControlOf("none"), undefined);
  assert.equal(timeControlOf(""), undefined);
  assert.equal(timeControlText({ kind: "realtime", minutes: 0.5, increment: 0 }), "½+0");
  assert.equal(timeControlText({ kind: "correspondence", days: 2 }), "2 days a move");
  assert.equal(timeControlText(null), "no clock");
});
