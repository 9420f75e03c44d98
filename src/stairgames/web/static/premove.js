// Premove (issue 54; docs/web.md, "Premove"): while the opponent of a game played live
// thinks, one move may be queued on the board; it is sent the moment the state that gives
// this seat the move arrives, if it is legal then, else dropped with a word. The page
// keeps it (as lichess does): the server plays nothing by itself, it only lists in each
// view the moves that may be legal at this seat's next turn (`premoves`), which the board
// offers meanwhile. A click on the queued move (or another queued) cancels it.

/**
 * @typedef {object} PremoveView
 * @property {number | null} you
 * @property {number | null} to_act
 * @property {unknown} result
 * @property {string[]} [legal]
 * @property {string[]} [history]
 * @property {string[]} [premoves]
 */

/**
 * @typedef {object} Settled
 * @property {string | null} send the queued move, to play now
 * @property {string | null} dropped the queued move, not legal now
 */

/** At most one move queued: the last one chosen. */
export class Premove {
  constructor() {
    /** @type {string | null} */
    this.move = null;
    /** the moves played when it was queued */
    this.moves = 0;
  }

  /**
   * @param {string} move
   * @param {number} moves the moves played so far
   */
  queue(move, moves) {
    this.move = move;
    this.moves = moves;
  }

  cancel() {
    this.move = null;
  }

  /**
   * A new state arrived: what to do with the queued move (kept while the opponent
   * still has the move; dropped once the game is over, or a move was taken back).
   *
   * @param {PremoveView} view
   * @returns {Settled}
   */
  settle(view) {
    const move = this.move;
    if (move === null) return { send: null, dropped: null };
    if (view.result !== null || (view.history || []).length < this.moves) {
      this.move = null;
      return { send: null, dropped: move };
    }
    if (view.you === null || view.to_act !== view.you) return { send: null, dropped: null };
    this.move = null;
    if ((view.legal || []).includes(move)) return { send: move, dropped: null };
    return { send: null, dropped: move };
  }
}

/**
 * Whether this seat may queue a move now: it plays, its opponent is to move in a game
 * going on, and the view lists the moves it may queue.
 *
 * @param {PremoveView} view
 * @param {boolean} replaying a past position is shown
 */
export function mayPremove(view, replaying) {
  return (
    !replaying &&
    view.you !== null &&
    view.result === null &&
    view.to_act !== null &&
    view.to_act !== view.you &&
    (view.premoves || []).length > 0
  );
}

/**
 * Show the queued move (or nothing) in `line`, a click on it cancelling it.
 *
 * @param {HTMLElement} line
 * @param {string | null} move
 * @param {(id: string, args?: Record<string, unknown>) => string} t
 * @param {() => void} cancel
 */
export function showPremove(line, move, t, cancel) {
  line.hidden = move === null;
  if (move === null) {
    line.replaceChildren();
    return;
  }
  const undo = document.createElement("button");
  undo.type = "button";
  undo.className = "premove-cancel";
  undo.textContent = t("Premove: {move} (click to cancel)", { move });
  undo.addEventListener("click", cancel);
  line.replaceChildren(undo);
}

/**
 * What the page says of a queued move dropped: not legal when its turn came.
 *
 * @param {string} move
 * @param {(id: string, args?: Record<string, unknown>) => string} t
 */
export function droppedText(move, t) {
  return t("Your premove {move} was not legal then: not played", { move });
}

/** The line that shows the queued move, made once, under the turn's line. */
export function premoveLine() {
  const made = document.getElementById("premove");
  if (made) return made;
  const line = document.createElement("p");
  line.id = "premove";
  line.className = "premove";
  line.hidden = true;
  document.getElementById("turn")?.after(line);
  return line;
}
