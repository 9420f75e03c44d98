// The service worker's push and notification click (issue 54), run in a fake worker
// scope: a push message becomes a notification of this site's page, and a click focuses
// the tab on that page or opens one; never another site's address.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

const SOURCE = readFileSync(
  new URL("../../src/stairgames/web/static/sw.js", import.meta.url),
  "utf8",
);
const ORIGIN = "https://stairgames.example";

function workerScope(windows = []) {
  const handlers = {};
  const shown = [];
  const opened = [];
  const scope = {
    URL,
    Response: class {},
    location: { origin: ORIGIN },
    addEventListener: (name, handler) => {
      handlers[name] = handler;
    },
    registration: {
      showNotification: async (title, options) => shown.push({ title, options }),
    },
    clients: {
      matchAll: async () => windows,
      openWindow: async (href) => opened.push(href),
    },
  };
  scope.self = scope;
  vm.runInNewContext(SOURCE, scope);
  const dispatch = async (name, event) => {
    let done = Promise.resolve();
    handlers[name]({ ...event, waitUntil: (promise) => (done = promise) });
    await done;
  };
  return { dispatch, shown, opened };
}

function pushed(message) {
  return { data: { json: () => message, text: () => JSON.stringify(message) } };
}

test("a push message becomes a notification of the page it names", async () => {
  const worker = workerScope();
  await worker.dispatch(
    "push",
    pushed({ title: "Your turn", body: "Stairs against Ann", url: "/m/abc", tag: "abc" }),
  );
  assert.equal(worker.shown.length, 1);
  const [{ title, options }] = worker.shown;
  assert.equal(title, "Your turn");
  assert.equal(options.body, "Stairs against Ann");
  assert.equal(options.tag, "abc");
  assert.equal(options.data.url, "/m/abc");
});

test("a push message naming another site opens the home page instead", async () => {
  for (const url of ["https://evil.example/x", "//evil.example/x", "javascript:alert(1)", 7]) {
    const worker = workerScope();
    await worker.dispatch("push", pushed({ title: "t", url }));
    assert.equal(worker.shown[0].options.data.url, "/", String(url));
  }
});

test("a click focuses the tab already on the page, or opens one", async () => {
  let focused = 0;
  let closed = 0;
  const tab = { url: `${ORIGIN}/m/abc`, focus: async () => (focused += 1) };
  const other = { url: `${ORIGIN}/lobby`, focus: async () => assert.fail("not this tab") };
  const notification = { data: { url: "/m/abc" }, close: () => (closed += 1) };
  const worker = workerScope([other, tab]);
  await worker.dispatch("notificationclick", { notification });
  assert.equal(focused, 1);
  assert.equal(closed, 1);
  assert.deepEqual(worker.opened, []);

  const none = workerScope([other]);
  await none.dispatch("notificationclick", { notification });
  assert.deepEqual(none.opened, [`${ORIGIN}/m/abc`]);
});

test("a click on a notification naming another site opens the home page", async () => {
  const worker = workerScope();
  const notification = { data: { url: "//evil.example/m/abc" }, close: () => {} };
  await worker.dispatch("notificationclick", { notification });
  assert.deepEqual(worker.opened, [`${ORIGIN}/`]);
});
