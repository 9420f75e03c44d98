// The state of stepping through a game (static/stepping.js draws it; app.js reads it):
// which position is shown and the boards of every position for one viewer. Pure: no
// DOM, no request, so tests/js/ runs it in Node.

/**
 * @typedef {object} ViewKeyParts
 * @property {string} match
 * @property {number | null} you
 * @property {unknown} result null while the game goes on.
 * @property {number} event
 * @property {string[]} history
 * @property {unknown} board
 */

/**
 * Whose boards a Replay holds: the match, the viewer (a seat, null: a spectator) and
 * whether the game was over (a finished game's replay is asked again, in full).
 *
 * @param {ViewKeyParts} view
 * @returns {string}
 */
export function keyOf(view) {
  return `${view.match}:${view.you}:${view.result !== null}`;
}

/** What stepping shows: `at` (null: the live position) and the boards it can show. */
export class Replay {
  constructor() {
    /** @type {number | null} the position shown (after `at` moves); null: the live one */
    this.at = null;
    /** @type {unknown[]} the board of each position, the start first; holes: not seen */
    this.boards = [];
    /** @type {string | null} keyOf the view the boards belong to */
    this.key = null;
  }

  /** A new match (or none): nothing seen, the live position shown. */
  reset() {
    this.at = null;
    this.boards = [];
    this.key = null;
  }

  /**
   * A view arrived (before it becomes the page's view): its board is kept as this
   * viewer's board of its position, and during a game a new event brings the live
   * position back (a finished game's later events, a rematch asked, leave the replay
   * where it is). Whether it went back to the live position.
   *
   * @param {ViewKeyParts | null} older the view shown until now
   * @param {ViewKeyParts} view
   * @returns {boolean}
   */
  note(older, view) {
    const key = keyOf(view);
    if (this.key !== key) {
      this.key = key;
      this.boards = [];
    }
    this.boards[view.history.length] = view.board;
    this.boards.length = view.history.length + 1;
    const newEvent = !older || older.match !== view.match || older.event !== view.event;
    if (newEvent && this.at !== null && (!older || older.result === null)) {
      this.at = null;
      return true;
    }
    return false;
  }

  /**
   * The number of moves of the position shown, `total` for the live one.
   *
   * @param {number} total
   * @returns {number}
   */
  shown(total) {
    return this.at === null ? total : this.at;
  }

  /**
   * Whether some position up to `total` has no board yet.
   *
   * @param {number} total
   * @returns {boolean}
   */
  missing(total) {
    for (let at = 0; at <= total; at++) if (!this.boards[at]) return true;
    return false;
  }

  /**
   * The server's replay frames put where no board is, up to `total` (the live board
   * last, as the view has it).
   *
   * @param {{board: unknown}[]} frames
   * @param {number} total
   * @param {unknown} live
   */
  fill(frames, total, live) {
    frames.forEach((frame, at) => {
      if (at <= total) this.boards[at] = frame.board;
    });
    this.boards[total] = live;
  }

  /**
   * The position to show when asked for the one after `ply` moves of `total`: clamped
   * to the game, moved on in `direction` past positions without a board; `total` for
   * the live one; null when there is no board to show.
   *
   * @param {number} ply
   * @param {number} total
   * @param {number} [direction] 1 or -1
   * @returns {number | null}
   */
  target(ply, total, direction = 1) {
    let at = Math.max(0, Math.min(total, ply));
    while (at > 0 && at < total && !this.boards[at]) at += direction;
    if (at < total && !this.boards[at]) return null;
    return at;
  }

  /**
   * Show the position after `at` moves (`total` or more: the live one).
   *
   * @param {number} at
   * @param {number} total
   */
  show(at, total) {
    this.at = at >= total ? null : at;
  }

  /**
   * Back to the live position; whether an earlier one was shown.
   *
   * @returns {boolean}
   */
  live() {
    const was = this.at !== null;
    this.at = null;
    return was;
  }

  /**
   * The board of the position shown (the view's own while live).
   *
   * @param {unknown} live
   * @returns {unknown}
   */
  board(live) {
    return this.at === null ? live : this.boards[this.at];
  }
}

/** @typedef {-1 | 1 | "first" | "last"} Step */

/**
 * What a key does while stepping: ← and → one move, Home the start, End the live
 * position; null for any other key or with a modifier (Alt+← is the browser's Back).
 *
 * @param {{key: string, altKey: boolean, ctrlKey: boolean, metaKey: boolean,
 *   shiftKey: boolean}} event
 * @returns {Step | null}
 */
export function stepOfKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  /** @type {Record<string, Step>} */
  const steps = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  return Object.hasOwn(steps, event.key) ? steps[event.key] : null;
}
