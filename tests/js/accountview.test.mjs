// The account page's and the mail links' pages' choices (static/accountview.js): their
// language, what the account page shows, which server error a failure is.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  accountShown,
  ERRORS,
  isError,
  pageLanguage,
} from "../../src/stairgames/web/static/accountview.js";
import { ApiError } from "../../src/stairgames/web/static/net.js";

const LANGUAGES = { en: "English", ja: "日本語" };

test("a page speaks the language its address asks, then the browser's saved one", () => {
  const all = { asked: "ja", saved: "en", suggested: "en" };
  assert.equal(pageLanguage(all, LANGUAGES, "en"), "ja");
  assert.equal(pageLanguage({ ...all, asked: null }, LANGUAGES, "ja"), "en");
});

test("without a choice of its own a page speaks the reader's, else the browser's", () => {
  assert.equal(pageLanguage({ suggested: "ja" }, LANGUAGES, "en"), "ja");
  assert.equal(pageLanguage({ suggested: null }, LANGUAGES, "ja"), "ja");
  assert.equal(pageLanguage({}, LANGUAGES, "en"), "en");
});

test("a language the site does not speak is passed over", () => {
  const choices = { asked: "fr", saved: "toString", suggested: "ja" };
  assert.equal(pageLanguage(choices, LANGUAGES, "en"), "ja");
});

test("a browser without an account is offered the forgotten password only", () => {
  for (const account of [null, { account: false, mail: true, email: null }]) {
    const shown = accountShown(account);
    assert.equal(shown["no-account"], true);
    assert.equal(shown.forgot, true);
    assert.equal(shown.email, false);
  }
});

test("an account without an address may give one, where the server sends mail", () => {
  const shown = accountShown({ account: true, mail: true, email: null });
  assert.deepEqual(
    Object.keys(shown).filter((id) => shown[id]),
    ["email"],
  );
  const noMail = accountShown({ account: true, mail: false, email: null });
  assert.equal(noMail.email, false);
  assert.equal(noMail["no-mail"], true);
});

test("an address shows whether it is confirmed, its removal and its notifications", () => {
  const email = { address: "kato@example.org", confirmed: false, notifications: true };
  const waiting = accountShown({ account: true, mail: true, email });
  assert.equal(waiting.unconfirmed, true);
  assert.equal(waiting.confirmed, false);
  assert.equal(waiting.remove, true);
  assert.equal(waiting["notifications-label"], true);
  const done = accountShown({ account: true, mail: true, email: { ...email, confirmed: true } });
  assert.equal(done.unconfirmed, false);
  assert.equal(done.confirmed, true);
  // a server that stopped sending mail still shows the address given before
  const stopped = accountShown({ account: true, mail: false, email });
  assert.equal(stopped.email, true);
  assert.equal(stopped["no-mail"], false);
});

test("a failure is told apart by the server's error code, not by its text", () => {
  const error = { code: "link_invalid", id: "this link is no longer valid", message: "x" };
  const invalid = new ApiError(400, error);
  assert.equal(isError(invalid, ERRORS.invalidLink), true);
  assert.equal(isError(invalid, ERRORS.notAnAddress), false);
  const reworded = new ApiError(400, { ...error, id: "link_invalid", code: "refused" });
  assert.equal(isError(reworded, ERRORS.invalidLink), false);
  assert.equal(isError(new ApiError(0, null), ERRORS.invalidLink), false);
  assert.equal(isError(new Error("link_invalid"), ERRORS.invalidLink), false);
});
