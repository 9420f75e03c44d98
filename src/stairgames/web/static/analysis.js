// The computer's analysis of a finished game (issue 31), on the match page: the button
// "Analyse this game", its progress (the server's "analysis" messages over the match's
// WebSocket), then a graph of the winning chance (City of Stairs: the expected share of
// the win) of the viewer's seat, or the first seat's, along the game, drawn here as SVG:
// each point is a button that shows the position after its move. The move list marks
// the moves that lost much (?! inaccuracy, ? mistake, ?? blunder); for the move shown the
// panel says what it cost, the engine's better move and its best line, and the board
// draws the better move (the `hint` option of the games' board.js: Stairs and 27 draw an
// arrow; Ishigaki Race a badge "better" by the dice and, for stopping, an arrow to where
// the ninja would land; City of Stairs a ghost of the card on its cell or the stroll's
// button, tagged "better").
//
// Everything the server sent is put in the page as text (textContent), never as markup.
// app.js calls initAnalysis once, renderAnalysis with every render, analysisMessage for
// each "analysis" message and analysisHint for the board's drawing options; moving to a
// move goes through static/stepping.js's stepTo.

import { ngettext, t } from "./i18n.js";
import { gameWords, lineText, moveText } from "./pagetext.js";
import { stepTo } from "./stepping.js";

import { $ } from "./dom.js";
import { ApiError, api, errorText } from "./net.js";
const NS = "http://www.w3.org/2000/svg";
const N_ = (id) => id; // marks a message id translated later with t()
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARK_NAMES = { inaccuracy: N_("inaccuracy"), mistake: N_("mistake"), blunder: N_("blunder") };
const WIDTH = 640;
const HEIGHT = 170;
const PAD = { left: 38, right: 12, top: 12, bottom: 26 };

const state = {
  app: null,
  go: null,
  match: null,
  status: null,
  data: null,
  error: null,
  asked: false,
  poll: null,
};

export function initAnalysis({ app, go }) {
  state.app = app;
  state.go = go;
  $("analysis-start", HTMLButtonElement).addEventListener("click", start);
  $("analysis-explore", HTMLButtonElement).addEventListener("click", explore);
}

// The moves the analysed game says in words, and its seats' names (a pattern's {seat}).
function wordsAndSeats() {
  const view = state.app?.view;
  const game = view ? state.app.games.find((g) => g.name === view.game) : undefined;
  return { words: gameWords(game), seats: state.data?.seats || [] };
}

// A move as people read it: its game's words ("Offer to end by agreement", "Die 3"), or
// its notation.
function said(move) {
  const { words, seats } = wordsAndSeats();
  return moveText(move, words, seats);
}

// A new match on the page: what the server has of its analysis is asked once it is over.
function reset(match) {
  clearTimeout(state.poll);
  Object.assign(state, { match, status: null, data: null, error: null, asked: false, poll: null });
}

async function fetchStatus(match) {
  try {
    const data = await api(`/api/matches/${match}/analysis`);
    if (state.match !== match) return;
    take(data);
  } catch {
    // the button stays: it asks again
  }
  redraw();
}

// {"status": "running", "done", "total"} | {"status": "done", "analysis"} |
// {"status": "failed", "error"}: from GET, POST or a WebSocket message.
function take(message) {
  if (message.status === "done" && message.analysis) {
    state.status = "done";
    state.data = message.analysis;
    state.error = null;
  } else if (message.status === "failed") {
    state.status = "none";
    state.error = message.error || null;
  } else if (message.status === "running") {
    state.status = "running";
    state.done = message.done;
    state.total = message.total;
    pollLater();
  } else if (message.status === "none") {
    state.status = "none";
  }
}

// While an analysis runs (perhaps in another server process, whose progress does not
// reach this page's WebSocket), its state is asked for again now and then.
function pollLater() {
  clearTimeout(state.poll);
  const match = state.match;
  state.poll = setTimeout(() => {
    if (state.match === match && state.status === "running") fetchStatus(match);
  }, 4000);
}

async function start() {
  const match = state.match;
  $("analysis-start", HTMLButtonElement).disabled = true;
  state.error = null;
  try {
    const data = await api(`/api/matches/${match}/analysis`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    if (state.match !== match) return;
    take(data);
  } catch (failure) {
    if (state.match !== match) return;
    const reached = failure instanceof ApiError && !failure.unreachable;
    state.error = reached ? failure.error : { id: N_("The server cannot be reached.") };
  }
  redraw();
}

// A WebSocket message {"type": "analysis", "match", "status", ...}.
export function analysisMessage(message) {
  if (message.match !== state.match) return;
  if (state.status === "done" && message.status === "running") return;
  take(message);
  redraw();
}

function redraw() {
  const view = state.app?.view;
  if (view && view.match === state.match) renderAnalysis(view);
}

// ----- what the page shows ------------------------------------------------------------

export function renderAnalysis(view) {
  if (view.match !== state.match) reset(view.match);
  const box = $("analysis");
  const over = view.result !== null;
  box.hidden = !over;
  if (!over) return;
  if (!state.asked) {
    state.asked = true;
    fetchStatus(view.match);
  }
  const running = state.status === "running";
  const done = state.status === "done" && state.data;
  $("analysis-start", HTMLButtonElement).hidden = Boolean(done) || running || state.status === null;
  $("analysis-start", HTMLButtonElement).disabled = false;
  const progress = $("analysis-progress");
  progress.hidden = !running;
  if (running) {
    const bar = $("analysis-bar", HTMLProgressElement);
    if (state.total) {
      bar.max = state.total;
      bar.value = state.done || 0;
      $("analysis-progress-text").textContent = t("Analysing: move {done} of {total}", {
        done: state.done || 0,
        total: state.total,
      });
    } else {
      bar.removeAttribute("value");
      $("analysis-progress-text").textContent = t("The analysis is starting…");
    }
  }
  $("analysis-error").textContent = state.error ? errorText(state.error) : "";
  $("analysis-result").hidden = !done;
  if (!done) {
    markMoves(null);
    return;
  }
  const seat = seatShown(view);
  drawGraph(view, seat);
  markMoves(state.data);
  describeShown(view, seat);
}

// The seat whose chance the graph follows: the viewer's, else the first.
function seatShown(view) {
  const you = view.you;
  return you !== null && you !== undefined && you < state.data.seats.length ? you : 0;
}

function shownPly(view) {
  const app = state.app;
  return app.replay.shown(view.history.length);
}

function entryAt(ply) {
  return state.data ? state.data.moves.find((move) => move.ply === ply) : undefined;
}

// A share as people read it: "62%".
function percent(share) {
  return `${Math.round(100 * share)}%`;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

// The points of the graph: the start (the first decision's value before it), then each
// decision's value after it, at its ply.
function points(seat) {
  const moves = state.data.moves;
  if (!moves.length) return [];
  const first = moves[0];
  const before = (first.shares_before || [])[seat];
  const list = [{ ply: 0, share: before ?? 0.5, proven: first.proven, move: null }];
  for (const move of moves) {
    const share = (move.shares_after || [])[seat];
    if (share === undefined) continue;
    list.push({ ply: move.ply, share, proven: move.proven, move });
  }
  return list;
}

function drawGraph(view, seat) {
  const svg = $("analysis-graph");
  const data = state.data;
  const plies = Math.max(1, data.plies || view.history.length);
  const x = (ply) => PAD.left + (WIDTH - PAD.left - PAD.right) * (ply / plies);
  const y = (share) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - share);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const seatName = t(data.seats[seat] || String(seat));
  const measure = t(data.measure || N_("winning chance"));
  svg.setAttribute(
    "aria-label",
    t("The {measure} of {name} along the game", { measure, name: seatName }),
  );
  el(
    "rect",
    {
      x: PAD.left,
      y: PAD.top,
      width: WIDTH - PAD.left - PAD.right,
      height: HEIGHT - PAD.top - PAD.bottom,
      class: "graph-field",
    },
    svg,
  );
  for (const share of [0, 0.5, 1]) {
    el(
      "line",
      {
        x1: PAD.left,
        x2: WIDTH - PAD.right,
        y1: y(share),
        y2: y(share),
        class: share === 0.5 ? "graph-even" : "graph-rule",
      },
      svg,
    );
    const label = el(
      "text",
      { x: PAD.left - 5, y: y(share) + 4, "text-anchor": "end", class: "graph-label" },
      svg,
    );
    label.textContent = `${Math.round(share * 100)}%`;
  }
  const list = points(seat);
  if (list.length) {
    const line = list.map((p) => `${x(p.ply).toFixed(1)},${y(p.share).toFixed(1)}`);
    const area =
      `M ${x(list[0].ply)},${y(0)} L ${line.join(" L ")} ` +
      `L ${x(list[list.length - 1].ply)},${y(0)} Z`;
    el("path", { d: area, class: "graph-area" }, svg);
    el("polyline", { points: line.join(" "), class: "graph-line" }, svg);
  }
  const shown = shownPly(view);
  el(
    "line",
    { x1: x(shown), x2: x(shown), y1: PAD.top, y2: HEIGHT - PAD.bottom, class: "graph-now" },
    svg,
  );
  const step = el(
    "text",
    { x: WIDTH - PAD.right, y: HEIGHT - 8, "text-anchor": "end", class: "graph-label" },
    svg,
  );
  step.textContent = t("Move {n} of {total}", { n: shown, total: view.history.length });
  for (const point of list) {
    if (!point.move) continue;
    const move = point.move;
    const mark = move.mark;
    const classes = ["graph-point", point.proven ? "proven" : "estimated"];
    if (mark) classes.push(`mark-${mark}`);
    if (move.ply === shown) classes.push("shown");
    const group = el(
      "g",
      {
        class: classes.join(" "),
        role: "button",
        tabindex: "0",
        "data-ply": move.ply,
        "aria-label": pointLabel(move, point.share, seatName),
      },
      svg,
    );
    // a wide invisible target (a column of the graph) makes a point easy to hit
    const half = Math.max(3, (WIDTH - PAD.left - PAD.right) / plies / 2);
    el(
      "rect",
      {
        x: x(move.ply) - half,
        y: PAD.top,
        width: 2 * half,
        height: HEIGHT - PAD.top - PAD.bottom,
        class: "graph-hit",
      },
      group,
    );
    el(
      "circle",
      { cx: x(move.ply), cy: y(point.share), r: mark ? 5.5 : 3.5, class: "graph-dot" },
      group,
    );
    const tip = el("title", {}, group);
    tip.textContent = pointLabel(move, point.share, seatName);
    const go = () => stepTo(move.ply);
    group.addEventListener("click", go);
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        go();
      }
    });
  }
  const legend = $("analysis-legend");
  legend.textContent = t(
    "The {measure} of {name} after each move: a filled point is proven, a hollow one the search's estimate. Click a point to see its move.",
    { measure, name: seatName },
  );
}

function pointLabel(move, share, seatName) {
  const text = t("Move {n} {move}: {name} {value}", {
    n: move.ply,
    move: said(move.move),
    name: seatName,
    value: percent(share),
  });
  return move.mark ? `${text} ${markText(move.mark)}` : text;
}

// "?? (blunder)": a mark's symbol and name.
function markText(mark) {
  return t("{symbol} ({name})", { symbol: MARKS[mark], name: t(MARK_NAMES[mark]) });
}

// The marks in the move list: ?!, ? or ?? after a move that lost much (the list's moves
// are buttons of static/stepping.js with data-ply, the position after them).
function markMoves(data) {
  for (const old of $("moves").querySelectorAll(".move-mark")) old.remove();
  if (!data) return;
  for (const move of data.moves) {
    if (!move.mark) continue;
    const button = $("moves").querySelector(`[data-ply="${move.ply}"]`);
    if (!button) continue;
    const mark = document.createElement("span");
    mark.className = `move-mark mark-${move.mark}`;
    mark.textContent = MARKS[move.mark];
    mark.title = t(MARK_NAMES[move.mark]);
    button.append(mark);
  }
}

// What the panel says of the move shown: its player's chance before and after, its mark,
// the engine's better move and best line; at the end of the game, each seat's marks.
function describeShown(view, _seat) {
  const box = $("analysis-move");
  const data = state.data;
  const shown = shownPly(view);
  const move = entryAt(shown);
  const lines = [];
  const measure = t(data.measure || N_("winning chance"));
  if (move) {
    const name = t(move.colour || data.seats[move.mover] || "");
    const head = document.createElement("p");
    head.className = "analysis-head";
    const mark = move.mark ? ` ${markText(move.mark)}` : "";
    head.textContent = t("Move {n}: {move}{mark}", { n: move.ply, move: said(move.move), mark });
    if (move.mark) head.classList.add(`mark-${move.mark}`);
    lines.push(head);
    lines.push(
      line(
        t("The {measure} of {name}: {before} before the move, {after} after it ({how})", {
          measure,
          name,
          before: percent(move.before),
          after: percent(move.after),
          how: move.proven
            ? t("proven")
            : t("the search's estimate, ±{points} points", { points: points100(move) }),
        }),
      ),
    );
    if (move.better) {
      lines.push(line(t("Better: {move}", { move: said(move.better) }), "analysis-better"));
    }
    if (move.line && move.line.length > 1) {
      const { words, seats } = wordsAndSeats();
      lines.push(line(t("Best line: {line}", { line: lineText(move.line, words, seats) })));
    }
  } else {
    lines.push(
      line(
        ngettext(
          "{proven} of {count} move proven exactly.",
          "{proven} of {count} moves proven exactly.",
          data.decisions,
          { proven: data.proven, count: data.decisions },
        ),
      ),
    );
    data.seats.forEach((name, index) => {
      const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
      for (const m of data.moves) if (m.mover === index && m.mark) counts[m.mark]++;
      lines.push(
        line(
          t(
            "{name}: {inaccuracies} inaccuracies (?!), {mistakes} mistakes (?), {blunders} blunders (??)",
            {
              name: t(name),
              inaccuracies: counts.inaccuracy,
              mistakes: counts.mistake,
              blunders: counts.blunder,
            },
          ),
        ),
      );
    });
  }
  lines.push(
    line(
      t("Budget: {iterations} search iterations a position (seed {seed}).", {
        iterations: data.budget.iterations,
        seed: data.budget.seed,
      }),
      "analysis-budget",
    ),
  );
  box.replaceChildren(...lines);
  $("analysis-explore", HTMLButtonElement).hidden = false;
}

// The half-width of an estimated loss's 95% interval, in percentage points.
function points100(move) {
  return Math.max(1, Math.round(100 * (move.uncertainty || 0)));
}

function line(text, className = "") {
  const p = document.createElement("p");
  if (className) p.className = className;
  p.textContent = text;
  return p;
}

// The engine's better move for the board's drawing: {move, instead: true, board: the
// board before the move shown} where the move shown is marked, else null.
export function analysisHint(view) {
  if (!state.data || view.match !== state.match || view.result === null) return null;
  const shown = shownPly(view);
  const move = entryAt(shown);
  if (!move?.better) return null;
  const boards = state.app.replay.boards;
  return { move: move.better, instead: true, board: boards[shown - 1] || null };
}

// The analysis board from the position shown: the game's full record (every move as it
// was, public once the game is over) up to that move.
async function explore() {
  const app = state.app;
  const view = app.view;
  if (!view) return;
  const shown = shownPly(view);
  try {
    const record = await api(`/api/matches/${view.match}/record`);
    const params = new URLSearchParams({
      game: record.game,
      options: JSON.stringify(record.options || {}),
      moves: JSON.stringify((record.moves || []).slice(0, shown)),
    });
    if (record.start_position) params.set("position", record.start_position);
    state.go(`/analysis?${params}`);
  } catch {
    // nothing to open
  }
}
