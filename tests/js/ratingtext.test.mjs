// A rated game's ratings as the game page shows them (static/ratingtext.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ratingChanges, ratingText, signed } from "../../src/stairgames/web/static/ratingtext.js";

test("a change is signed, with a real minus sign", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(-12), "−12");
  assert.equal(signed(0), "±0");
});

test("a seat shows its rating, and the change once the game changed it", () => {
  assert.equal(ratingText({ rating: "1500?" }), "1500?");
  assert.equal(ratingText({ rating: "1500?", rating_change: null }), "1500?");
  assert.equal(ratingText({ rating: "1578?", rating_change: 78 }), "1578? (+78)");
  assert.equal(ratingText({ rating: "1623", rating_change: 0 }), "1623 (±0)");
  assert.equal(ratingText({}), ""); // a game that is not rated
});

test("the result names each seat whose rating changed", () => {
  const seats = [
    { name: "light", rating: "1422?", rating_change: -78 },
    { name: "dark", rating: "1578?", rating_change: 78 },
  ];
  assert.equal(
    ratingChanges(seats, (s) => s.name),
    "light 1422? (−78) · dark 1578? (+78)",
  );
  assert.equal(
    ratingChanges([{ name: "light", rating: "1500?" }], (s) => s.name),
    "",
  );
  assert.equal(
    ratingChanges([{ name: "light" }], (s) => s.name),
    "",
  );
});
