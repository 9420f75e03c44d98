// Stepping through a game, during it and after (issue 31): the move list is the
// navigator. A click on a move (or ←/→, Home/End while the focus is in no text field and
// not on the board) shows the board as it was after that move, the move marked, and a
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
// app.js owns the state it draws from: app.replayAt (the position shown, null: the live
// one) and app.boards (the boards of every position for app.boardsKey's viewer).

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const hooks = { app: null, render: null, query: null, headers: null };
let loading = null; // the replay being fetched: {key, promise}

// Called once by app.js: what to draw with and how a request names its seat.
export function initStepping({ app, render, seatQuery, seatHeaders }) {
  Object.assign(hooks, { app, render, query: seatQuery, headers: seatHeaders });
  $("board").before(banner());
  $("replay-first").addEventListener("click", () => stepTo(0));
  $("replay-back").addEventListener("click", () => stepBy(-1));
  $("replay-next").addEventListener("click", () => stepBy(1));
  $("replay-last").addEventListener("click", () => stepTo(Infinity));
  // a move of the list (a button, data-ply: the position after it)
  $("moves").addEventListener("click", (event) => {
    const move = event.target.closest("[data-ply]");
    if (move) stepTo(Number(move.dataset.ply));
  });
  document.addEventListener("keydown", onKey);
}

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

// Whose boards app.boards holds: the match, the viewer (a seat, null: a spectator) and
// whether the game was over (a finished game's replay is asked again, in full).
function keyOf(view) {
  return `${view.match}:${view.you}:${view.result !== null}`;
}

// A view arrived (app.js's receive, before it becomes app.view): its board is kept as
// this viewer's board of its position, and during a game a new event brings the live
// position back. (A finished game's later events, a rematch asked, leave the replay
// where it is.)
export function noteView(older, view) {
  const app = hooks.app;
  const key = keyOf(view);
  if (app.boardsKey !== key) {
    app.boardsKey = key;
    app.boards = [];
  }
  app.boards[view.history.length] = view.board;
  app.boards.length = view.history.length + 1;
  const newEvent = !older || older.match !== view.match || older.event !== view.event;
  if (newEvent && app.replayAt !== null && (!older || older.result === null)) {
    app.replayAt = null;
    app.memory = {};
  }
}

// Fills app.boards from the server's replay for this viewer where a position has no
// board yet (asked once per event while it answers: a newer view brings the live
// position back anyway).
async function loadBoards(view) {
  const app = hooks.app;
  const key = keyOf(view);
  const total = view.history.length;
  let missing = false;
  for (let at = 0; at <= total; at++) if (!app.boards[at]) missing = true;
  if (!missing) return;
  if (!loading || loading.key !== `${key}:${view.event}`) {
    loading = { key: `${key}:${view.event}`, promise: fetchFrames(view) };
  }
  const asked = loading;
  const frames = await asked.promise;
  if (!frames && loading === asked) loading = null; // asked again at the next step
  const now = app.view;
  if (!frames || !now || keyOf(now) !== key || now.event !== view.event) return;
  frames.forEach((frame, at) => {
    if (at <= total) app.boards[at] = frame.board;
  });
  app.boards[total] = now.board; // the live one, as the view has it
}

async function fetchFrames(view) {
  const seat = view.you;
  try {
    const response = await fetch(`/api/matches/${view.match}/replay${hooks.query(seat)}`, {
      headers: hooks.headers(seat),
    });
    if (!response.ok) return null;
    // {"match", "event", "over", "frames": [{"move", "board"}, ...]}: the board of every
    // position so far, the first before any move.
    const data = await response.json();
    return Array.isArray(data.frames) && data.event === view.event ? data.frames : null;
  } catch {
    return null; // the boards seen meanwhile stay
  }
}

// Show the position after `ply` moves (0: the start; the number of moves or more: the
// live position).
export async function stepTo(ply, direction = 1) {
  const app = hooks.app;
  const view = app.view;
  if (!view || !$("pass-cover").hidden) return;
  const total = view.history.length;
  let at = Math.max(0, Math.min(total, ply));
  if (at >= total) {
    backToLive(false);
    return;
  }
  const inList = $("moves").contains(document.activeElement);
  await loadBoards(view);
  const now = app.view;
  if (!now || now.match !== view.match || now.event !== view.event) return; // live again
  while (at > 0 && at < total && !app.boards[at]) at += direction;
  if (at < total && !app.boards[at]) return; // no board to show (the server did not answer)
  app.replayAt = at >= total ? null : at;
  app.memory = {};
  hooks.render(true);
  if (inList) focusShown();
}

export function stepBy(delta) {
  const app = hooks.app;
  if (!app.view) return;
  const at = app.replayAt === null ? app.view.history.length : app.replayAt;
  stepTo(at + delta, delta < 0 ? -1 : 1);
}

// Back to the live position (the banner's button, End, Last).
export function backToLive(focus) {
  const app = hooks.app;
  const inList = $("moves").contains(document.activeElement);
  const wasStepping = app.replayAt !== null;
  app.replayAt = null;
  if (wasStepping) {
    app.memory = {};
    hooks.render(false);
  }
  if (focus || inList) focusShown();
}

function focusShown() {
  const shown = $("moves").querySelector('[aria-current="step"]');
  if (shown) shown.focus({ preventScroll: true });
}

// ←/→ one move, Home the start, End the live position; not while typing (the chat's
// text box), not on the board (its squares take the arrows), not with a modifier
// (Alt+← is the browser's Back).
function onKey(event) {
  const steps = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  if (!(event.key in steps) || event.defaultPrevented) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const app = hooks.app;
  if (!app.view || $("match").hidden || !$("pass-cover").hidden) return;
  if (!app.view.history.length || typingIn(event.target)) return;
  if ($("board").contains(event.target) || $("board-notes").contains(event.target)) return;
  event.preventDefault();
  const step = steps[event.key];
  if (step === "first") stepTo(0);
  else if (step === "last") backToLive(false);
  else stepBy(step);
}

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
export function renderStepping(view) {
  const app = hooks.app;
  const total = view.history.length;
  const at = app.replayAt === null ? total : app.replayAt;
  $("replay").hidden = total === 0;
  $("replay-step").textContent = t("Move {n} of {total}", { n: at, total });
  $("moves").classList.toggle("stepping", app.replayAt !== null);
  const box = $("step-banner");
  box.hidden = app.replayAt === null;
  if (box.hidden) return;
  $("step-text").textContent =
    at === 0 ? t("Viewing the start of the game") : t("Viewing move {n}", { n: at });
  $("step-live").textContent = view.result !== null ? t("Back to the end") : t("Back to the game");
}
