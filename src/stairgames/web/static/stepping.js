// Stepping through a game, during it and after (issue 31): the move list is the
// navigator. A click on a move (or ←/→, Home/End while the focus is in no text field, nor
// on a board square the keyboard is moving about) shows the board as it was after that move, the move marked, and a
// banner says which move is shown, with a button back to the game; the next event (a
// move arriving) brings the live position back by itself (app.js's receive calls
// noteView). Nothing here changes the game: the position shown is only drawn.
//
// The boards of earlier positions are this viewer's: the views this page received for
// the seat it shows, and where one is missing, GET /api/matches/{id}/replay asked as that
// seat (X-Seat-Token, or ?seat=N for a seat this browser's player holds), which draws each
// earlier position as that seat may see it (City of Stairs: its own departure card only).
// A finished game's replay holds every position in full.
//
// The state (the position shown, the boards of every position for one viewer) is
// app.replay, a Replay (static/replay.js): this module changes it through its methods
// only, and app.js draws from it; clearing the board's selection is app.js's hook.

import { t } from "./i18n.js";
import { $ } from "./dom.js";
import { api } from "./net.js";
import { keyOf, stepOfKey } from "./replay.js";

/**
 * What stepping draws with, given once by app.js.
 *
 * @typedef {object} SteppingHooks
 * @property {import("./types.js").App} app the page's state (read here, and its replay)
 * @property {(animate: boolean) => void} render draws the match page again
 * @property {() => void} clearSelection forgets the board's selection (ui.memory)
 * @property {(seat: number | null) => string} seatQuery how an address names the seat
 * @property {(seat: number | null) => Record<string, string>} seatHeaders its headers
 */

/** @type {SteppingHooks | null} */
let hooks = null;
/** @type {{key: string, promise: Promise<{board: unknown}[] | null>} | null} */
let loading = null; // the replay being fetched
let clickedOnBoard = false; // the last click was on the board, and no key came since

/** @returns {SteppingHooks} */
function wired() {
  if (!hooks) throw new Error("initStepping was not called");
  return hooks;
}

/**
 * Called once by app.js: what to draw with and how a request names its seat.
 *
 * @param {SteppingHooks} given
 */
export function initStepping(given) {
  hooks = given;
  $("board").before(banner());
  $("replay-first", HTMLButtonElement).addEventListener("click", () => stepTo(0));
  $("replay-back", HTMLButtonElement).addEventListener("click", () => stepBy(-1));
  $("replay-next", HTMLButtonElement).addEventListener("click", () => stepBy(1));
  $("replay-last", HTMLButtonElement).addEventListener("click", () => stepTo(Infinity));
  // a move of the list (a button, data-ply: the position after it)
  $("moves").addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const move = target?.closest("[data-ply]");
    if (move instanceof HTMLElement) stepTo(Number(move.dataset.ply));
  });
  document.addEventListener("keydown", onKey);
  // (before the board's squares hear it: one clicked keeps the focus, and the arrows step)
  document.addEventListener("keydown", onBoardKey, true);
  document.addEventListener("pointerdown", (event) => {
    clickedOnBoard = onBoard(event.target);
  });
}

/** @returns {HTMLDivElement} */
function banner() {
  const box = document.createElement("div");
  box.id = "step-banner";
  box.className = "step-banner";
  box.setAttribute("role", "status");
  box.hidden = true;
  const text = document.createElement("span");
  text.id = "step-text";
  const live = document.createElement("button");
  live.type = "button";
  live.id = "step-live";
  live.addEventListener("click", () => backToLive(true));
  box.append(text, live);
  return box;
}

/**
 * A view arrived (app.js's receive, before it becomes app.view): its board is kept as
 * this viewer's board of its position, and during a game a new event brings the live
 * position back. (A finished game's later events, a rematch asked, leave the replay
 * where it is.)
 *
 * @param {import("./types.js").View | null} older
 * @param {import("./types.js").View} view
 */
export function noteView(older, view) {
  const { app, clearSelection } = wired();
  if (app.replay.note(older, view)) clearSelection();
}

// Fills the replay's boards from the server's replay for this viewer where a position
// has no board yet (asked once per event while it answers: a newer view brings the live
// position back anyway).
/** @param {import("./types.js").View} view */
async function loadBoards(view) {
  const { app } = wired();
  const key = keyOf(view);
  const total = view.history.length;
  if (!app.replay.missing(total)) return;
  if (!loading || loading.key !== `${key}:${view.event}`) {
    loading = { key: `${key}:${view.event}`, promise: fetchFrames(view) };
  }
  const asked = loading;
  const frames = await asked.promise;
  if (!frames && loading === asked) loading = null; // asked again at the next step
  const now = app.view;
  if (!frames || !now || keyOf(now) !== key || now.event !== view.event) return;
  app.replay.fill(frames, total, now.board); // the live one last, as the view has it
}

/**
 * GET /api/matches/{id}/replay: {"match", "event", "over", "frames": [{"move",
 * "board"}, ...]}, the board of every position so far, the first before any move;
 * null where it cannot be had for this view's event.
 *
 * @param {import("./types.js").View} view
 * @returns {Promise<{board: unknown}[] | null>}
 */
async function fetchFrames(view) {
  const { seatQuery, seatHeaders } = wired();
  const seat = view.you;
  try {
    const data = await api(`/api/matches/${view.match}/replay${seatQuery(seat)}`, {
      headers: seatHeaders(seat),
    });
    return Array.isArray(data.frames) && data.event === view.event ? data.frames : null;
  } catch {
    return null; // the boards seen meanwhile stay
  }
}

/**
 * Show the position after `ply` moves (0: the start; the number of moves or more: the
 * live position).
 *
 * @param {number} ply
 * @param {number} [direction] where to look for a board when that position has none
 */
export async function stepTo(ply, direction = 1) {
  const { app, render, clearSelection } = wired();
  const view = app.view;
  if (!view || !$("pass-cover").hidden) return;
  const total = view.history.length;
  if (Math.max(0, Math.min(total, ply)) >= total) {
    backToLive(false);
    return;
  }
  const inList = $("moves").contains(document.activeElement);
  await loadBoards(view);
  const now = app.view;
  if (!now || now.match !== view.match || now.event !== view.event) return; // live again
  const at = app.replay.target(ply, total, direction);
  if (at === null) return; // no board to show (the server did not answer)
  app.replay.show(at, total);
  clearSelection();
  render(true);
  if (inList) focusShown();
}

/** @param {number} delta */
export function stepBy(delta) {
  const { app } = wired();
  if (!app.view) return;
  stepTo(app.replay.shown(app.view.history.length) + delta, delta < 0 ? -1 : 1);
}

/**
 * Back to the live position (the banner's button, End, Last).
 *
 * @param {boolean} focus
 */
export function backToLive(focus) {
  const { app, render, clearSelection } = wired();
  const inList = $("moves").contains(document.activeElement);
  if (app.replay.live()) {
    clearSelection();
    render(false);
  }
  if (focus || inList) focusShown();
}

function focusShown() {
  const shown = $("moves").querySelector('[aria-current="step"]');
  if (shown instanceof HTMLElement) shown.focus({ preventScroll: true });
}

// ←/→ one move, Home the start, End the live position, wherever the focus is but in a
// text field (the chat's text box) or on a square the keyboard moved to (the board's
// squares take the arrows then); not with a modifier (Alt+← is the browser's Back).
/** @param {KeyboardEvent} event */
function onKey(event) {
  if (event.defaultPrevented || onBoard(event.target)) return;
  stepFor(event);
}

// On the board: a square focused by a click (a move made with the mouse) leaves the
// arrows to stepping; once the keyboard is used there (Tab onto a square, Enter), its
// squares keep them. Heard before the square, which hears nothing of a key that stepped.
/** @param {KeyboardEvent} event */
function onBoardKey(event) {
  if (!onBoard(event.target)) return;
  if (stepOfKey(event) === null) clickedOnBoard = false; // the keyboard's now
  if (clickedOnBoard && stepFor(event)) event.stopPropagation();
}

/**
 * Steps as the key says, where the page shows a game with moves and nothing is typed;
 * whether it did.
 *
 * @param {KeyboardEvent} event
 * @returns {boolean}
 */
function stepFor(event) {
  const step = stepOfKey(event);
  if (step === null) return false;
  const { app } = wired();
  if (!app.view || $("match").hidden || !$("pass-cover").hidden) return false;
  if (!app.view.history.length || typingIn(event.target)) return false;
  event.preventDefault();
  if (step === "first") stepTo(0);
  else if (step === "last") backToLive(false);
  else stepBy(step);
  return true;
}

/**
 * @param {EventTarget | null} target
 * @returns {boolean}
 */
function onBoard(target) {
  const node = target instanceof Node ? target : null;
  return Boolean(node) && ($("board").contains(node) || $("board-notes").contains(node));
}

/**
 * @param {EventTarget | null} target
 * @returns {boolean}
 */
function typingIn(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(
    target.closest(
      "input, textarea, select, [contenteditable=''], " +
        "[contenteditable='true'], [role='textbox'], [role='slider'], [role='listbox']",
    ),
  );
}

// The banner over the board and the step bar (First, Back, Move n of total, Next, Last),
// drawn with every render: the bar once the game has a move, the banner while an
// earlier position is shown.
/** @param {import("./types.js").View} view */
export function renderStepping(view) {
  const { replay } = wired().app;
  const total = view.history.length;
  const at = replay.shown(total);
  $("replay").hidden = total === 0;
  $("replay-step").textContent = t("Move {n} of {total}", { n: at, total });
  $("moves").classList.toggle("stepping", replay.at !== null);
  const box = $("step-banner");
  box.hidden = replay.at === null;
  if (box.hidden) return;
  $("step-text").textContent =
    at === 0 ? t("Viewing the start of the game") : t("Viewing move {n}", { n: at });
  $("step-live").textContent = view.result !== null ? t("Back to the end") : t("Back to the game");
}
