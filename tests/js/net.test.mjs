// The page's requests (static/net.js): api's replies and errors, and errorText.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { ApiError, api, errorText, failureText } from "../../src/stairgames/web/static/net.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** fetch answering `status` with `body` (a string as it is, else JSON); records calls. */
function answer(status, body) {
  const calls = [];
  globalThis.fetch = async (path, init) => {
    calls.push({ path, init });
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, { status });
  };
  return calls;
}

test("api gives the reply's JSON; json is sent as a POST's JSON body", async () => {
  const calls = answer(200, { match: "m1" });
  assert.deepEqual(await api("/api/matches", { json: { game: "stairs" } }), { match: "m1" });
  assert.equal(calls[0].path, "/api/matches");
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers["content-type"], "application/json");
  assert.equal(calls[0].init.body, '{"game":"stairs"}');
});

test("api asks with GET and the headers given", async () => {
  const calls = answer(200, { seats: [0] });
  await api("/api/my/seats/m1", { headers: { "x-seat-token": "secret" } });
  assert.equal(calls[0].init.method, "GET");
  assert.deepEqual(calls[0].init.headers, { "x-seat-token": "secret" });
  assert.equal(calls[0].init.body, undefined);
});

test("a refusal throws an ApiError carrying the server's error", async () => {
  const error = { code: "match_not_found", id: "no such match {match!r}", args: { match: "m9" } };
  answer(404, { error });
  const failure = await api("/api/matches/m9").catch((e) => e);
  assert.ok(failure instanceof ApiError);
  assert.equal(failure.status, 404);
  assert.equal(failure.code, "match_not_found");
  assert.deepEqual(failure.error, error);
  assert.equal(failure.unreachable, false);
  assert.equal(failureText(failure), "no such match 'm9'");
});

test("a refusal without JSON carries no error: something went wrong", async () => {
  answer(502, "<html>Bad gateway</html>");
  const failure = await api("/api/games").catch((e) => e);
  assert.equal(failure.status, 502);
  assert.equal(failure.error, null);
  assert.equal(failure.code, "");
  assert.equal(failureText(failure), "Something went wrong.");
});

test("no answer at all is an unreachable server", async () => {
  globalThis.fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  const failure = await api("/api/me").catch((e) => e);
  assert.ok(failure instanceof ApiError);
  assert.equal(failure.unreachable, true);
  assert.equal(failureText(failure), "The server cannot be reached.");
});

test("errorText: the server's text, else its id with arguments, else a fallback", () => {
  assert.equal(errorText({ text: "Zeile 3: unbekannt", id: "ignored" }), "Zeile 3: unbekannt");
  assert.equal(errorText({ id: "{name} is taken", args: { name: "Kato" } }), "Kato is taken");
  assert.equal(errorText({ message: "plain message" }), "plain message");
  assert.equal(errorText({}), "Something went wrong.");
  assert.equal(errorText(null), "Something went wrong.");
  assert.equal(failureText(new Error("not a request")), "Something went wrong.");
});
