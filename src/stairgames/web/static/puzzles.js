// The puzzles (issue 52): /puzzles (a puzzle near the player's puzzle rating, of a game
// chosen or of any), /puzzles/{id} (one puzzle, its link), /puzzles/daily (today's) and
// /puzzles/streak (rising difficulty until a miss), and the home page's "Puzzle of the
// day". The game's own board.js draws the position (draw(svg, board, ui), as the match
// page does); every move is sent to the server, which judges it from the puzzle's proven
// tree (POST /api/puzzles/{id}/moves): right (the defender's reply follows), solved, or
// wrong with the proof line; "Show the solution" gives up (POST /api/puzzles/{id}/give-up,
// asking first where the attempt is rated). Once the attempt ends its solution can be
// stepped through (each position's board comes with it: solution_boards) and the
// rating change is shown. Every text the server sent is put in the page with textContent.

import { ngettext, onLanguageChange, say, t } from "./i18n.js";
import { $, button } from "./dom.js";
import { ApiError, api, failureText } from "./net.js";
import { gameWords, lineText, wordButtons } from "./pagetext.js";
import { signed } from "./ratingtext.js";

/**
 * A puzzle as the server sends it (server/puzzles/contract.py, PuzzleOut, DailyPuzzle
 * and PuzzlePage): never its answers before the attempt ended.
 *
 * @typedef {object} PuzzleOut
 * @property {string} id
 * @property {string} game
 * @property {string} title a message id
 * @property {Record<string, unknown>} options
 * @property {string} position
 * @property {number} solver
 * @property {string} solver_name a message id ("light")
 * @property {string} goal
 * @property {unknown} goal_text a text to say (i18n.js say)
 * @property {string[]} themes message ids
 * @property {number} rating
 * @property {unknown} board the game's drawing data
 * @property {string[]} legal
 * @property {string[]} played
 * @property {boolean} rated whether giving up costs the requester rating
 * @property {number} plays
 * @property {number | null} success_rate
 * @property {string} [date] the daily puzzle's day
 * @property {Record<string, unknown>} [source]
 * @property {{ended: boolean, solved: boolean | null, rating_change: RatingChange | null}
 *   | null} [attempt]
 * @property {string[] | null} [solution]
 * @property {unknown[] | null} [solution_boards] the start, then after each move
 */

/** @typedef {{before: number, after: number}} RatingChange */

/**
 * @typedef {object} Proof
 * @property {string} move
 * @property {number | null} winner
 * @property {number | null} plies
 * @property {string[]} line
 */

/**
 * The verdict on a move, or on giving up (MoveAnswer).
 *
 * @typedef {object} MoveAnswer
 * @property {"right" | "solved" | "wrong" | "gave_up"} outcome
 * @property {unknown} message a text to say
 * @property {string | null} reply
 * @property {unknown} board
 * @property {string[]} legal
 * @property {string[]} played
 * @property {RatingChange | null} rating_change
 * @property {string[] | null} solution
 * @property {unknown[] | null} solution_boards the start, then after each move
 * @property {Proof | null} proof
 */

/** @typedef {"next" | "daily" | "streak" | "one"} Mode */

const N_ = (/** @type {string} */ id) => id; // marks a message id translated later
const SOURCE_WORDS = /** @type {Record<string, string>} */ ({
  "self-play": N_("a game of the computer players"),
  record: N_("a recorded game"),
  site: N_("a game played on this site"),
});

/**
 * @type {{
 *   games: import("./types.js").Game[], go: (path: string) => void, open: boolean,
 *   wired: boolean, mode: Mode, game: string, puzzle: PuzzleOut | null, board: unknown,
 *   legal: string[], played: string[], ended: boolean, solved: boolean | null,
 *   verdict: MoveAnswer | null, rating: RatingChange | null, solution: string[] | null,
 *   step: number, boards: Map<number, unknown>, streak: number, streakOver: boolean,
 *   best: number | null, myRatings: Record<string, {shown: string}>, memory: Record<string, any>,
 *   draw: import("./types.js").Draw | null, drawFor: string | null, seq: number,
 *   busy: boolean, ownMove: string | null
 * }}
 */
const pz = {
  games: [],
  go: () => {},
  open: false,
  wired: false,
  mode: "next",
  game: "any",
  puzzle: null,
  board: null,
  legal: [],
  played: [],
  ended: false,
  solved: null,
  verdict: null,
  rating: null,
  solution: null,
  step: 0,
  boards: new Map(),
  streak: 0,
  streakOver: false,
  best: null,
  myRatings: {},
  memory: {},
  draw: null,
  drawFor: null,
  seq: 0,
  busy: false,
  ownMove: null,
};

/**
 * The mode and puzzle an address asks for: /puzzles, /puzzles/daily, /puzzles/streak,
 * /puzzles/{id}.
 *
 * @param {string} path
 * @returns {{mode: Mode, id: string | null}}
 */
export function puzzleRoute(path) {
  const rest = path.replace(/^\/puzzles\/?/, "");
  if (rest === "") return { mode: "next", id: null };
  if (rest === "daily") return { mode: "daily", id: null };
  if (rest === "streak") return { mode: "streak", id: null };
  return { mode: "one", id: decodeURIComponent(rest) };
}

/**
 * Open the puzzles page for the address shown; `games` is /api/games' list, `go(path)`
 * the page's own navigation.
 *
 * @param {import("./types.js").Game[]} games
 * @param {(path: string) => void} go
 */
export function showPuzzles(games, go) {
  Object.assign(pz, { games, go, open: true });
  wire();
  $("puzzles").hidden = false;
  document.title = `${t("Puzzles")} · stairgames`;
  const { mode, id } = puzzleRoute(location.pathname);
  const asked = new URLSearchParams(location.search).get("game");
  pz.mode = mode;
  pz.game = asked && puzzleGames().some((g) => g.name === asked) ? asked : "any";
  pz.streak = 0;
  pz.streakOver = false;
  pz.best = null;
  fillChooser();
  loadMyRatings();
  if (mode === "one" && id !== null) openPuzzle(`/api/puzzles/${encodeURIComponent(id)}`);
  else nextPuzzle(null);
}

export function hidePuzzles() {
  pz.open = false;
  pz.seq += 1; // an answer still on its way is dropped
  $("puzzles").hidden = true;
}

/** @returns {import("./types.js").Game[]} the games that have puzzles */
function puzzleGames() {
  return pz.games.filter((g) => g.web !== false && g.puzzles === true);
}

function wire() {
  if (pz.wired) return;
  pz.wired = true;
  const select = $("pz-game", HTMLSelectElement);
  select.addEventListener("change", () => {
    pz.game = select.value;
    if (pz.mode === "streak") endStreak();
    pz.streak = 0;
    pz.streakOver = false;
    const mode = pz.mode === "streak" ? "streak" : "";
    const query = pz.game === "any" ? "" : `?game=${encodeURIComponent(pz.game)}`;
    history.replaceState({}, "", `/puzzles${mode ? `/${mode}` : ""}${query}`);
    if (pz.mode !== "streak") pz.mode = "next";
    nextPuzzle(null);
  });
  $("pz-choose").addEventListener("submit", (event) => event.preventDefault());
  $("pz-play-move").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("pz-move-input", HTMLInputElement);
    const move = input.value.trim();
    input.value = "";
    if (move) play(move);
  });
  for (const [id, path] of [
    ["pz-mode-puzzles", "/puzzles"],
    ["pz-mode-daily", "/puzzles/daily"],
    ["pz-mode-streak", "/puzzles/streak"],
  ]) {
    $(id).addEventListener("click", (event) => {
      event.preventDefault();
      if (pz.mode === "streak") endStreak();
      pz.go(path);
    });
  }
  const giveUpButton = button(t("Show the solution"), () => giveUp());
  giveUpButton.id = "pz-give-up";
  $("pz-next").before(giveUpButton);
  $("pz-next", HTMLButtonElement).addEventListener("click", () => {
    if (pz.mode === "daily" || pz.mode === "one") {
      pz.mode = "next";
      history.pushState({}, "", "/puzzles");
    }
    if (pz.mode === "streak" && pz.streakOver) {
      pz.streak = 0;
      pz.streakOver = false;
      pz.best = null;
      nextPuzzle(null);
      return;
    }
    nextPuzzle(pz.puzzle?.id ?? null);
  });
  $("pz-link").addEventListener("click", (event) => {
    if (!pz.puzzle) return;
    event.preventDefault();
    pz.go(`/puzzles/${pz.puzzle.id}`);
  });
  $("pz-first", HTMLButtonElement).addEventListener("click", () => stepTo(0));
  $("pz-back", HTMLButtonElement).addEventListener("click", () => stepTo(Math.max(0, pz.step - 1)));
  $("pz-forward", HTMLButtonElement).addEventListener("click", () => stepTo(pz.step + 1));
  $("pz-last", HTMLButtonElement).addEventListener("click", () => stepTo(pz.solution?.length ?? 0));
  document.addEventListener("keydown", (event) => {
    if (!pz.open || !pz.ended || !pz.solution) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") stepTo(pz.step - 1);
    else if (event.key === "ArrowRight") stepTo(pz.step + 1);
    else return;
    event.preventDefault();
  });
}

function fillChooser() {
  const select = $("pz-game", HTMLSelectElement);
  select.replaceChildren(
    new Option(t("Any game"), "any", false, pz.game === "any"),
    ...puzzleGames().map((g) => new Option(t(g.title), g.name, false, g.name === pz.game)),
  );
  $("pz-choose").hidden = pz.mode === "daily" || pz.mode === "one";
  for (const [id, mode] of [
    ["pz-mode-puzzles", "next"],
    ["pz-mode-daily", "daily"],
    ["pz-mode-streak", "streak"],
  ]) {
    if (pz.mode === mode) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
}

// GET /api/puzzles/me: the player's puzzle ratings by game (none for a visitor).
async function loadMyRatings() {
  try {
    const me = await api("/api/puzzles/me");
    pz.myRatings = me?.ratings ?? {};
  } catch {
    pz.myRatings = {};
  }
  if (pz.open) renderRating();
}

/** @param {string | null} after the puzzle just done, for the streak's next */
function nextPuzzle(after) {
  const game = encodeURIComponent(pz.game);
  if (pz.mode === "daily") openPuzzle("/api/puzzles/daily");
  else if (pz.mode === "streak") {
    openPuzzle(`/api/puzzles/streak?game=${game}&after=${encodeURIComponent(after ?? "")}`);
  } else openPuzzle(`/api/puzzles/next?game=${game}`);
}

/** @param {string} path */
async function openPuzzle(path) {
  const seq = ++pz.seq;
  $("pz-error").textContent = "";
  /** @type {PuzzleOut} */
  let data;
  try {
    data = await api(path);
  } catch (failure) {
    if (seq !== pz.seq) return;
    $("pz-error").textContent = failureText(failure);
    return;
  }
  if (seq !== pz.seq || !pz.open) return;
  pz.puzzle = data;
  pz.board = data.board;
  pz.legal = data.legal;
  pz.played = data.played;
  pz.memory = {};
  pz.verdict = null;
  pz.rating = data.attempt?.rating_change ?? null;
  pz.ended = Boolean(data.attempt?.ended);
  pz.solved = data.attempt?.solved ?? null;
  pz.solution = data.solution ?? null;
  pz.ownMove = null;
  pz.boards = boardsOf(data.solution_boards);
  pz.step = 0;
  if (pz.ended && pz.solution) {
    pz.legal = [];
    pz.board = pz.boards.get(0) ?? pz.board;
  }
  render(false);
}

/** @param {string} move */
async function play(move) {
  const puzzle = pz.puzzle;
  if (!puzzle || pz.ended || pz.busy) return;
  pz.busy = true;
  $("pz-error").textContent = "";
  const seq = pz.seq;
  /** @type {MoveAnswer} */
  let answer;
  try {
    answer = await api(`/api/puzzles/${puzzle.id}/moves`, {
      json: { played: pz.played, move },
    });
  } catch (failure) {
    pz.busy = false;
    if (seq !== pz.seq) return;
    $("pz-error").textContent = failureText(failure);
    pz.memory = {};
    render(false);
    return;
  } finally {
    pz.busy = false;
  }
  if (seq !== pz.seq || pz.puzzle !== puzzle) return;
  pz.verdict = answer;
  pz.board = answer.board;
  pz.legal = answer.outcome === "right" ? answer.legal : [];
  pz.played = answer.played;
  pz.memory = {};
  if (answer.outcome !== "right") finish(answer, move);
  render(true);
}

// POST /api/puzzles/{id}/give-up: the attempt ends, not solved, and its solution is shown
// (asked first where it is a player's first attempt: it counts as a miss).
async function giveUp() {
  const puzzle = pz.puzzle;
  if (!puzzle || pz.ended || pz.busy) return;
  if (puzzle.rated && !confirm(t("Show the solution? The puzzle then counts as not solved."))) {
    return;
  }
  pz.busy = true;
  $("pz-error").textContent = "";
  const seq = pz.seq;
  /** @type {MoveAnswer} */
  let answer;
  try {
    answer = await api(`/api/puzzles/${puzzle.id}/give-up`, { json: { played: pz.played } });
  } catch (failure) {
    if (seq !== pz.seq) return;
    $("pz-error").textContent = failureText(failure);
    return;
  } finally {
    pz.busy = false;
  }
  if (seq !== pz.seq || pz.puzzle !== puzzle) return;
  pz.verdict = answer;
  pz.board = answer.board;
  pz.legal = [];
  pz.played = answer.played;
  pz.memory = {};
  finish(answer, null);
  render(false);
}

/**
 * The attempt ended: the solution to step through, the rating change, the streak.
 *
 * @param {MoveAnswer} answer
 * @param {string | null} move the solver's last move (none when given up)
 */
function finish(answer, move) {
  pz.ended = true;
  pz.solved = answer.outcome === "solved";
  pz.solution = answer.solution;
  pz.rating = answer.rating_change;
  pz.boards = boardsOf(answer.solution_boards);
  // the position the attempt ended on: a step of the solution where the moves played
  // are its own (solved by its line; given up on it), else the position after the
  // person's own move (wrong, or solved another way), on no step (-1) until they step;
  // given up off the line: the solution's start
  const line = pz.solution ?? [];
  const onLine = pz.played.every((played, index) => line[index] === played);
  pz.ownMove = onLine ? null : move;
  if (onLine) pz.step = pz.played.length;
  else pz.step = move === null ? 0 : -1;
  if (pz.step >= 0) pz.board = pz.boards.get(pz.step) ?? pz.board;
  if (pz.mode === "streak") {
    if (pz.solved) pz.streak += 1;
    else {
      pz.streakOver = true;
      endStreak();
    }
  }
  if (pz.rating) loadMyRatings();
}

// POST /api/puzzles/streak/end: the streak's count kept as the player's best where it is.
async function endStreak() {
  const count = pz.streak;
  const game = pz.game;
  if (count === 0) {
    pz.best = null;
    return;
  }
  try {
    const ended = await api("/api/puzzles/streak/end", { json: { game, count } });
    pz.best = ended?.best ?? null;
  } catch {
    pz.best = null;
  }
  if (pz.open) renderStreak();
}

/**
 * The solution's boards by step (0: the puzzle's start).
 *
 * @param {unknown[] | null | undefined} boards
 * @returns {Map<number, unknown>}
 */
function boardsOf(boards) {
  return new Map((boards ?? []).map((board, step) => [step, board]));
}

/**
 * Show the position after `index` moves of the solution (0: the puzzle's start), its
 * board the one the server sent with the solution.
 *
 * @param {number} index
 */
function stepTo(index) {
  const puzzle = pz.puzzle;
  const line = pz.solution;
  if (!puzzle || !line) return;
  const step = Math.max(0, Math.min(line.length, index));
  pz.step = step;
  pz.board = pz.boards.get(step) ?? null;
  pz.memory = {};
  render(false);
}

// ----- drawing ---------------------------------------------------------------------

/**
 * @param {string} game
 * @returns {Promise<import("./types.js").Draw>}
 */
async function drawFor(game) {
  if (pz.drawFor !== game || pz.draw === null) {
    const module = await import(`/games/${game}/board.js`);
    pz.draw = /** @type {import("./types.js").Draw} */ (module.draw);
    pz.drawFor = game;
    $("pz-notes").replaceChildren();
  }
  return pz.draw;
}

/** @param {boolean} animate */
async function render(animate) {
  const puzzle = pz.puzzle;
  if (!puzzle || !pz.open) return;
  fillChooser();
  $("pz-title").textContent = t("{game}: puzzle {id}", { game: t(puzzle.title), id: puzzle.id });
  $("pz-goal").textContent = capitalised(say(puzzle.goal_text));
  const link = $("pz-link", HTMLAnchorElement);
  link.href = `/puzzles/${puzzle.id}`;
  link.hidden = pz.mode === "one";
  $("pz-next", HTMLButtonElement).textContent =
    pz.mode === "streak" && pz.streakOver ? t("A new streak") : t("Next puzzle");
  $("pz-next", HTMLButtonElement).classList.toggle("pz-primary", pz.ended);
  const giveUpButton = $("pz-give-up", HTMLButtonElement);
  giveUpButton.textContent = t("Show the solution");
  giveUpButton.hidden = pz.ended;
  renderVerdict();
  renderFacts();
  renderRating();
  renderStreak();
  renderMoves();
  renderSteps();
  renderAnalysisLink();
  renderWords();
  if (!pz.board) {
    $("pz-board").replaceChildren();
    return;
  }
  let draw;
  try {
    draw = await drawFor(puzzle.game);
  } catch {
    $("pz-board").replaceChildren();
    return;
  }
  if (pz.puzzle !== puzzle) return;
  const shown = pz.ended && pz.solution && pz.step >= 0 ? pz.solution.slice(0, pz.step) : pz.played;
  draw(/** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("pz-board"))), pz.board, {
    legal: pz.ended ? [] : pz.legal,
    lastMove: shown.length ? shown[shown.length - 1] : null,
    over: pz.ended,
    play,
    t,
    ngettext,
    memory: pz.memory,
    you: puzzle.solver,
    animate,
    notes: $("pz-notes"),
  });
}

/**
 * @param {string} text
 * @returns {string}
 */
function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function renderWords() {
  const puzzle = pz.puzzle;
  const box = $("pz-words");
  $("pz-play-move").hidden = !puzzle || pz.ended;
  if (!puzzle || pz.ended) {
    box.replaceChildren();
    return;
  }
  const game = pz.games.find((g) => g.name === puzzle.game);
  const { turn } = wordButtons(gameWords(/** @type {any} */ (game)), pz.legal);
  box.replaceChildren(
    ...turn.map((word) => button(capitalised(t(word.label)), () => play(word.move))),
  );
}

function renderVerdict() {
  const box = $("pz-verdict");
  const verdict = pz.verdict;
  /** @type {HTMLElement[]} */
  const lines = [];
  if (verdict) {
    const said = say(verdict.message);
    if (verdict.outcome === "right") {
      lines.push(paragraph(said, "pz-right"));
      if (verdict.reply) {
        lines.push(paragraph(t("The reply: {move}", { move: moveWords([verdict.reply]) })));
      }
    } else if (verdict.outcome === "solved") {
      lines.push(paragraph(said, "pz-solved"));
    } else if (verdict.outcome === "gave_up") {
      lines.push(paragraph(said, "pz-wrong"));
    } else {
      lines.push(paragraph(t("Wrong: {message}.", { message: said }), "pz-wrong"));
      const proof = verdict.proof;
      if (proof?.line.length) {
        lines.push(
          paragraph(t("The proof: {line}", { line: moveWords([proof.move, ...proof.line]) })),
        );
      }
    }
  } else if (pz.ended) {
    lines.push(
      paragraph(
        pz.solved ? t("You solved this puzzle.") : t("You did not solve this puzzle."),
        pz.solved ? "pz-solved" : "pz-wrong",
      ),
    );
  }
  if (pz.ended && pz.solution) {
    lines.push(paragraph(t("The solution: {line}", { line: moveWords(pz.solution) })));
  }
  if (pz.rating) {
    const { before, after } = pz.rating;
    lines.push(
      paragraph(
        t("Your puzzle rating: {before} → {after} ({change})", {
          before,
          after,
          change: signed(after - before),
        }),
        "pz-rating-change",
      ),
    );
  }
  box.replaceChildren(...lines);
  box.hidden = lines.length === 0;
}

/**
 * Moves as the move list says them (the games' moves in words: "Stop", "Roll").
 *
 * @param {string[]} moves
 * @returns {string}
 */
function moveWords(moves) {
  const puzzle = pz.puzzle;
  const game = pz.games.find((g) => g.name === puzzle?.game);
  return lineText(moves, gameWords(/** @type {any} */ (game)), game?.seat_names ?? []);
}

/**
 * @param {string} text
 * @param {string} [className]
 * @returns {HTMLParagraphElement}
 */
function paragraph(text, className = "") {
  const node = document.createElement("p");
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

function renderFacts() {
  const puzzle = pz.puzzle;
  if (!puzzle) return;
  /** @type {[string, string, string?][]} a fact's name, its value, where it links */
  const facts = [[t("Difficulty"), String(puzzle.rating)]];
  if (puzzle.themes.length) {
    const names = pz.games.find((g) => g.name === puzzle.game)?.puzzle_themes ?? {};
    const themes = puzzle.themes.map((theme) => (theme in names ? t(names[theme]) : theme));
    facts.push([t("Themes"), themes.join(t(", "))]);
  }
  facts.push([
    t("Played"),
    ngettext("{count} time", "{count} times", puzzle.plays, { count: puzzle.plays }),
  ]);
  if (puzzle.success_rate !== null) {
    facts.push([t("Solved"), `${Math.round(100 * puzzle.success_rate)}%`]);
  }
  const kind = puzzle.source?.kind;
  if (typeof kind === "string" && kind in SOURCE_WORDS) {
    const match = puzzle.source?.match;
    const game = typeof match === "string" && /^[A-Za-z0-9_-]+$/.test(match) ? match : null;
    facts.push([
      t("From"),
      t(SOURCE_WORDS[kind]),
      kind === "site" && game ? `/m/${game}` : undefined,
    ]);
  }
  if (puzzle.date) facts.push([t("Day"), puzzle.date]);
  $("pz-facts").replaceChildren(
    ...facts.flatMap(([name, value, href]) => {
      const term = document.createElement("dt");
      term.textContent = name;
      const detail = document.createElement("dd");
      if (href) {
        const link = document.createElement("a");
        link.href = href;
        link.textContent = value;
        link.addEventListener("click", (event) => {
          event.preventDefault();
          pz.go(href);
        });
        detail.append(link);
      } else detail.textContent = value;
      return [term, detail];
    }),
  );
}

function renderRating() {
  const puzzle = pz.puzzle;
  const rating = puzzle ? pz.myRatings[puzzle.game] : undefined;
  const game = pz.games.find((g) => g.name === puzzle?.game);
  $("pz-rating").textContent =
    rating && game
      ? t("Your puzzle rating in {game}: {rating}", { game: t(game.title), rating: rating.shown })
      : "";
}

function renderStreak() {
  const box = $("pz-streak");
  if (pz.mode !== "streak") {
    box.textContent = "";
    return;
  }
  const count = ngettext("{count} solved", "{count} solved", pz.streak, { count: pz.streak });
  let said = t("Streak: {count}", { count });
  if (pz.streakOver) {
    said = t("The streak ended: {count}", { count });
    if (pz.best !== null) said += ` ${t("Your best: {best}", { best: pz.best })}`;
  }
  box.textContent = said;
}

function renderMoves() {
  const list = $("pz-moves");
  const line = pz.ended && pz.solution ? pz.solution : pz.played;
  list.replaceChildren(
    ...line.map((move, index) => {
      const item = document.createElement("li");
      const text = moveWords([move]);
      if (pz.ended && pz.solution) {
        const step = button(text, () => stepTo(index + 1));
        step.className = "move pz-step";
        if (index + 1 === pz.step) {
          step.setAttribute("aria-current", "step");
          step.classList.add("current");
        }
        item.append(step);
      } else item.textContent = text;
      if (index % 2 === 1) item.classList.add("pz-reply");
      return item;
    }),
  );
}

function renderSteps() {
  const line = pz.solution;
  const shown = pz.ended && line !== null && line.length > 0;
  $("pz-steps").hidden = !shown;
  if (!shown || !line) return;
  $("pz-step").textContent =
    pz.step < 0 && pz.ownMove
      ? t("Your move: {move}", { move: moveWords([pz.ownMove]) })
      : t("Move {n} of {total}", { n: pz.step, total: line.length });
  $("pz-first", HTMLButtonElement).disabled = pz.step === 0;
  $("pz-back", HTMLButtonElement).disabled = pz.step === 0;
  $("pz-forward", HTMLButtonElement).disabled = pz.step === line.length;
  $("pz-last", HTMLButtonElement).disabled = pz.step === line.length;
  for (const [index, item] of [...$("pz-moves").querySelectorAll(".pz-step")].entries()) {
    if (index + 1 === pz.step) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
    item.classList.toggle("current", index + 1 === pz.step);
  }
}

function renderAnalysisLink() {
  const puzzle = pz.puzzle;
  const link = $("pz-analysis", HTMLAnchorElement);
  link.hidden = !puzzle || !pz.ended;
  if (!puzzle || !pz.ended) return;
  const params = new URLSearchParams({
    game: puzzle.game,
    options: JSON.stringify(puzzle.options),
    position: puzzle.position,
  });
  const moves = pz.solution && pz.step >= 0 ? pz.solution.slice(0, pz.step) : pz.played;
  if (moves.length) params.set("moves", JSON.stringify(moves));
  link.href = `/analysis?${params}`;
}

// ----- the home page's "Puzzle of the day" -------------------------------------------

/** @type {PuzzleOut | null} */
let daily = null;

/**
 * Show today's puzzle on the home page (hidden where the server has none).
 *
 * @param {import("./types.js").Game[]} games
 */
export async function showDailyCard(games) {
  if (games.length) pz.games = games;
  const card = $("daily-card");
  if (!daily) {
    try {
      daily = await api("/api/puzzles/daily");
    } catch (failure) {
      card.hidden = true;
      if (!(failure instanceof ApiError)) throw failure;
      return;
    }
  }
  const puzzle = daily;
  if (!puzzle) return;
  const game = games.find((g) => g.name === puzzle.game);
  $("daily-goal").textContent = capitalised(say(puzzle.goal_text));
  $("daily-about").textContent = t("{game} · difficulty {rating}", {
    game: game ? t(game.title) : puzzle.game,
    rating: puzzle.rating,
  });
  card.hidden = false;
  try {
    const module = await import(`/games/${puzzle.game}/board.js`);
    module.draw($("daily-board"), puzzle.board, {
      legal: [],
      lastMove: null,
      play: () => {},
      t,
      ngettext,
      memory: {},
      you: puzzle.solver,
      animate: false,
      notes: document.createElement("div"),
    });
    outOfTabOrder($("daily-board"));
  } catch {
    $("daily-board").replaceChildren(); // no picture rather than half of one
  }
}

/**
 * The daily card's board is a picture, hidden from assistive technology: nothing in it
 * may take the keyboard's focus (a board draws its squares focusable for play).
 * @param {Element} picture
 */
function outOfTabOrder(picture) {
  for (const element of picture.querySelectorAll("[tabindex]")) {
    element.setAttribute("tabindex", "-1");
  }
}

onLanguageChange(() => {
  if (pz.open) render(false);
  if (daily && !$("daily-card").hidden) showDailyCard(pz.games);
});
