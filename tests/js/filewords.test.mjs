// What an option of kind "file" says on the home page (static/pagetext.js fileWords): the
// words its game declared in the option listing, else the page's own, which name no game.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileWords } from "../../src/stairgames/web/static/pagetext.js";

test("a file option says the words its game declared", () => {
  const layout = {
    name: "layout",
    kind: "file",
    default_label: "the usual layout",
    upload_label: "Upload a layout",
    checking: "Checking the layout…",
    ready: "Layout {name} is ready.",
  };
  assert.deepEqual(fileWords(layout), {
    none: "the usual layout",
    upload: "Upload a layout",
    checking: "Checking the layout…",
    ready: "Layout {name} is ready.",
  });
});

test("a file option whose game declared no words says the page's own", () => {
  const said = fileWords({ name: "layout", kind: "file", default_label: "", ready: "" });
  assert.deepEqual(said, {
    none: "no file",
    upload: "Upload a file",
    checking: "Checking the file…",
    ready: "{name} is ready.",
  });
});

test("each word left out is the page's own, the others the game's", () => {
  const said = fileWords({ upload_label: "Upload a layout" });
  assert.equal(said.upload, "Upload a layout");
  assert.equal(said.none, "no file");
});
