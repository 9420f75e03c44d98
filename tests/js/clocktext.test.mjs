// The clocks' and time controls' texts (static/clocktext.js).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { setLanguage } from "../../src/stairgames/web/static/i18n.js";
import {
  CORRESPONDENCE_DAYS,
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
  assert.equal(values.at(-1), "correspondence:14");
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

test("correspondence offers 1, 2, 3, 7 and 14 days a move, as docs/web.md says", () => {
  assert.deepEqual(CORRESPONDENCE_DAYS, [1, 2, 3, 7, 14]);
  const said = Object.fromEntries(timeControlChoices(null));
  assert.equal(said["correspondence:1"], "Correspondence, 1 day a move");
  assert.equal(said["correspondence:14"], "Correspondence, 14 days a move");
});

test("one day a move is a day, not days", () => {
  assert.equal(timeControlText({ kind: "correspondence", days: 1 }), "1 day a move");
  assert.equal(timeControlText({ kind: "correspondence", days: 14 }), "14 days a move");
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

test("the days a move in Japanese: the catalog's one plural form for every count", async () => {
  await speak("ja", {
    "{days} day a move": ["一手{days}日"],
    "Correspondence, {days} day a move": ["通信対局、一手{days}日"],
  });
  try {
    assert.equal(timeControlText({ kind: "correspondence", days: 1 }), "一手1日");
    assert.equal(timeControlText({ kind: "correspondence", days: 14 }), "一手14日");
    const said = Object.fromEntries(timeControlChoices(null));
    assert.equal(said["correspondence:14"], "通信対局、一手14日");
  } finally {
    await speak("en", {});
  }
});
