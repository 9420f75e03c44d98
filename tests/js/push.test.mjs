// push.js's pure part: the server's key (base64url) as the bytes a subscription takes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { base64UrlBytes } from "../../src/stairgames/web/static/push.js";

test("a base64url key becomes its bytes, padding or not", () => {
  assert.deepEqual(Array.from(base64UrlBytes("AQID")), [1, 2, 3]);
  assert.deepEqual(Array.from(base64UrlBytes("-_8")), [251, 255]);
  const key = Buffer.alloc(65, 7);
  key[0] = 4;
  const text = key.toString("base64url");
  assert.deepEqual(Array.from(base64UrlBytes(text)), Array.from(key));
  assert.ok(base64UrlBytes(text).buffer instanceof ArrayBuffer);
});
