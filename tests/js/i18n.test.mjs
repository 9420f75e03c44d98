// Plurals in the page (static/i18n.js ngettext, and say for a server's count): the
// catalog's forms for the page's language, English's singular for one.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ngettext, say, setLanguage, t } from "../../src/stairgames/web/static/i18n.js";

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

test("English says the singular for one and the plural for every other count", () => {
  const days = (n) => ngettext("{days} day a move", "{days} days a move", n, { days: n });
  assert.equal(days(1), "1 day a move");
  assert.equal(days(2), "2 days a move");
  assert.equal(days(0), "0 days a move");
});

test("Japanese says its one form for every count", async () => {
  await speak("ja", { "{days} day a move": ["一手{days}日"] });
  try {
    for (const n of [0, 1, 14]) {
      assert.equal(
        ngettext("{days} day a move", "{days} days a move", n, { days: n }),
        `一手${n}日`,
      );
    }
  } finally {
    await speak("en", {});
  }
});

test("a catalog of two forms says the first for one, the second otherwise", async () => {
  await speak("ja", { "{count} disc": ["{count} Scheibe", "{count} Scheiben"] });
  try {
    assert.equal(ngettext("{count} disc", "{count} discs", 1, { count: 1 }), "1 Scheibe");
    assert.equal(ngettext("{count} disc", "{count} discs", 3, { count: 3 }), "3 Scheiben");
  } finally {
    await speak("en", {});
  }
});

test("a message missing from the catalog is said in English, in the right form", async () => {
  await speak("ja", { other: "ほか" });
  try {
    assert.equal(ngettext("{count} disc", "{count} discs", 1, { count: 1 }), "1 disc");
    assert.equal(ngettext("{count} disc", "{count} discs", 2, { count: 2 }), "2 discs");
    assert.equal(t("other"), "ほか");
  } finally {
    await speak("en", {});
  }
});

test("a count the server sends (text_json's Count) takes the same forms", async () => {
  const node = (n) => ({ id: "{count} point", plural: "{count} points", n, args: { count: n } });
  assert.equal(say(node(1)), "1 point");
  assert.equal(say(node(3)), "3 points");
  await speak("ja", { "{count} point": ["{count}点"] });
  try {
    assert.equal(say(node(1)), "1点");
    const sentence = { id: "{name} has {points}", args: { name: "赤", points: node(3) } };
    assert.equal(say(sentence), "赤 has 3点"); // a count inside a sentence
  } finally {
    await speak("en", {});
  }
});
