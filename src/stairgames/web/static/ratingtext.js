// A rated game's ratings as the game page shows them, with no DOM: pure, so tests/js/
// runs it in Node. The server sends each seat's rating as shown ("1578?": "?" while
// provisional, server/people/ratings.py's scale) and, once the game is over and rated,
// the points it changed.

/**
 * A change of rating: "+12", "−12" (a minus sign), "±0".
 *
 * @param {number} change
 * @returns {string}
 */
export function signed(change) {
  if (change > 0) return `+${change}`;
  return change < 0 ? `−${-change}` : "±0";
}

/**
 * A seat's rating, with the change the game made once it is over: "1578? (+78)",
 * "1500?"; "" for a seat of a game that is not rated.
 *
 * @param {{rating?: string | null, rating_change?: number | null}} seat
 * @returns {string}
 */
export function ratingText(seat) {
  if (!seat.rating) return "";
  const change = seat.rating_change;
  return typeof change === "number" ? `${seat.rating} (${signed(change)})` : seat.rating;
}

/**
 * The seats whose rating a finished game changed, each with its name as `nameOf` says
 * it: "Ann 1578? (+78) · Bob 1422? (−78)" ("" when the game changed none).
 *
 * @param {{rating?: string | null, rating_change?: number | null}[]} seats
 * @param {(seat: any) => string} nameOf the name of a seat (a view's, its player's name)
 * @returns {string}
 */
export function ratingChanges(seats, nameOf) {
  return seats
    .filter((seat) => seat.rating && typeof seat.rating_change === "number")
    .map((seat) => `${nameOf(seat)} ${ratingText(seat)}`)
    .join(" · ");
}
