// The analysis board (issue 31), /analysis?game=G&options={...}&position=TEXT&moves=[...]:
// a board of any position of any game where a person moves freely for both sides (the
// legal moves, the chance outcomes too, come from the server's engine), with the
// engine's evaluation, its move (drawn on the board: the `hint` option of the games'
// board.js) and best line, proven values where the game's exact means reach (Stairs on
// small boards: "light wins in 14 with b1-b2", the quickest win; Ishigaki Race: the
// chance after stopping and after rolling), all updating as they go. The address always holds the position and
// the moves explored, so it can be shared; a position text can be pasted; "Play on
// against the computer" starts a match from the position shown (games without hidden
// cards). Every text the server sent is put in the page with textContent.

import { ngettext, t } from "./i18n.js";
import { ensurePlayer } from "./player.js";
import { $, button } from "./dom.js";
import { ApiError, api, errorText, failureText } from "./net.js";
import { gameWords, lineText, moveText, wordButtons } from "./pagetext.js";

const N_ = (id) => id; // marks a message id translated later with t()
const MOST_ACTIONS_LISTED = 12;

const board = {
  games: [],
  saveTokens: null,
  go: null,
  game: null,
  options: {},
  position: null,
  moves: [],
  answer: null,
  seq: 0,
  memory: {},
  draw: null,
  drawFor: null,
  wired: false,
  busy: false,
};

export function hideAnalysisBoard() {
  $("analysis-board").hidden = true;
}

export function showAnalysisBoard(games, saveTokens, go) {
  Object.assign(board, { games: games.filter((g) => g.web !== false), saveTokens, go });
  wire();
  $("analysis-board").hidden = false;
  document.title = `${t("Analysis board")} · stairgames`;
  const params = new URLSearchParams(location.search);
  const names = board.games.map((g) => g.name);
  board.game = names.includes(params.get("game")) ? params.get("game") : names[0];
  board.options = parsed(params.get("options"), {});
  if (typeof board.options !== "object" || Array.isArray(board.options)) board.options = {};
  board.position = params.get("position") || null;
  const moves = parsed(params.get("moves"), []);
  board.moves = Array.isArray(moves) ? moves.filter((m) => typeof m === "string") : [];
  board.answer = null;
  board.memory = {};
  fillForm();
  load();
}

function parsed(text, fallback) {
  if (!text) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function wire() {
  if (board.wired) return;
  board.wired = true;
  $("ab-form").addEventListener("submit", (event) => {
    event.preventDefault();
    board.game = $("ab-game", HTMLSelectElement).value;
    const text = $("ab-text", HTMLTextAreaElement).value.trim();
    board.position = text || null;
    board.options = {}; // the position says its own options (a Stairs board's size)
    board.moves = [];
    board.memory = {};
    load();
  });
  $("ab-back", HTMLButtonElement).addEventListener("click", () => goTo(board.moves.length - 1));
  $("ab-reset", HTMLButtonElement).addEventListener("click", () => goTo(0));
  $("ab-play-move").addEventListener("submit", (event) => {
    event.preventDefault();
    const move = $("ab-move-input", HTMLInputElement).value.trim();
    if (move) explore(move);
    $("ab-move-input", HTMLInputElement).value = "";
  });
  $("ab-copy", HTMLButtonElement).addEventListener("click", () => {
    $("ab-link", HTMLInputElement).value = location.href;
    $("ab-link", HTMLInputElement).hidden = false;
    $("ab-link", HTMLInputElement).select();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
  });
  $("ab-play-on", HTMLButtonElement).addEventListener("click", playOn);
}

function fillForm() {
  const select = $("ab-game", HTMLSelectElement);
  select.replaceChildren(
    ...board.games.map((g) => new Option(t(g.title), g.name, false, g.name === board.game)),
  );
  $("ab-text", HTMLTextAreaElement).value = board.position || "";
  const level = $("ab-level", HTMLSelectElement);
  const game = board.games.find((g) => g.name === board.game);
  const levels = game?.levels || ["medium"];
  level.replaceChildren(...levels.map((l) => new Option(t(l), l, false, l === "medium")));
}

// Keep the position and the moves explored in the address (a link to share).
function remember() {
  const params = new URLSearchParams({ game: board.game, options: JSON.stringify(board.options) });
  if (board.position) params.set("position", board.position);
  if (board.moves.length) params.set("moves", JSON.stringify(board.moves));
  history.replaceState({}, "", `/analysis?${params}`);
}

function explore(move) {
  board.moves = [...board.moves, move];
  board.memory = {};
  load(move);
}

function goTo(count) {
  board.moves = board.moves.slice(0, Math.max(0, count));
  board.memory = {};
  load();
}

// POST /api/analysis/position: the position, its legal moves and board, and its value.
async function load(played = null) {
  const seq = ++board.seq;
  $("ab-error").textContent = "";
  $("ab-eval").replaceChildren(text(t("The engine is thinking…"), "thinking"));
  let data;
  try {
    data = await api("/api/analysis/position", {
      json: {
        game: board.game,
        options: board.options,
        position: board.position,
        moves: board.moves,
      },
    });
  } catch (failure) {
    if (seq !== board.seq) return;
    if (!(failure instanceof ApiError) || failure.unreachable) {
      $("ab-error").textContent = t("The server cannot be reached.");
      return;
    }
    $("ab-error").textContent = errorText(failure.error);
    if (played !== null) board.moves = board.moves.slice(0, -1); // the move refused
    if (board.answer) render(false);
    else $("ab-eval").replaceChildren();
    return;
  }
  if (seq !== board.seq) return;
  board.answer = data;
  board.options = data.options || {};
  remember();
  render(played !== null);
}

async function drawFor(game) {
  if (board.drawFor !== game) {
    const module = await import(`/games/${game}/board.js`);
    board.draw = module.draw;
    board.drawFor = game;
    $("ab-notes").replaceChildren();
  }
  return board.draw;
}

async function render(animate) {
  const answer = board.answer;
  $("ab-title").textContent = t(answer.title);
  $("ab-game", HTMLSelectElement).value = answer.game;
  renderTurn(answer);
  renderEvaluation(answer);
  renderMoves();
  renderChoices(answer);
  $("ab-current", HTMLTextAreaElement).value = answer.current || "";
  $("ab-back", HTMLButtonElement).disabled = !board.moves.length;
  $("ab-reset", HTMLButtonElement).disabled = !board.moves.length;
  $("ab-play-on", HTMLButtonElement).hidden = answer.hidden_information || answer.over;
  $("ab-play-on-note").hidden = !answer.hidden_information;
  if (!answer.board) {
    $("ab-board").replaceChildren();
    return;
  }
  const draw = await drawFor(answer.game);
  if (board.answer !== answer) return;
  const best = answer.evaluation?.best;
  draw($("ab-board"), answer.board, {
    legal: answer.legal,
    lastMove: board.moves[board.moves.length - 1] || null,
    over: answer.over,
    play: explore,
    t,
    ngettext,
    memory: board.memory,
    you: null,
    animate,
    notes: $("ab-notes"),
    hint: best ? { move: best, instead: false } : null,
  });
}

function seatName(answer, seat) {
  return t(answer.seats[seat] || String(seat));
}

function renderTurn(answer) {
  let said;
  if (answer.over) said = t("Game over");
  else if (answer.chance) said = t("Chance: choose what the dice or the cards give");
  else said = t("{name} to move", { name: seatName(answer, answer.to_act) });
  $("ab-turn").textContent = said;
}

function percent(share) {
  return `${Math.round(100 * share)}%`;
}

function text(said, className = "") {
  const p = document.createElement("p");
  if (className) p.className = className;
  p.textContent = said;
  return p;
}

function renderEvaluation(answer) {
  const box = $("ab-eval");
  if (answer.over) {
    const result = answer.result || {};
    box.replaceChildren(
      text(
        result.reason_id
          ? t(result.reason_id, result.reason_args || {})
          : result.reason || t("Game over"),
        "ab-result",
      ),
    );
    return;
  }
  const found = answer.evaluation;
  if (!found) {
    box.replaceChildren(text(t("The engine could not value this position.")));
    return;
  }
  const lines = [];
  const measure = t(found.measure || N_("winning chance"));
  const perfect = found.perfect;
  if (perfect) {
    lines.push(text(perfectText(answer, found, perfect), "ab-perfect"));
  }
  const how = found.proven
    ? t("proven")
    : t("the search's estimate, ±{points} points", {
        points: Math.max(1, Math.round(100 * found.uncertainty)),
      });
  lines.push(text(t("The {measure} of each seat ({how}):", { measure, how })));
  const list = document.createElement("ul");
  list.className = "ab-shares";
  found.shares.forEach((share, seat) => {
    const item = document.createElement("li");
    item.textContent = t("{label}: {value}", {
      label: seatName(answer, seat),
      value: percent(share),
    });
    if (seat === answer.to_act) item.className = "to-act";
    list.append(item);
  });
  lines.push(list);
  if (found.best) {
    lines.push(text(t("The engine's move: {move}", { move: wordOf(found.best) }), "ab-best"));
  }
  if (found.line && found.line.length > 1) {
    const { words, seats } = wordsAndSeats();
    const line = lineText(found.line, words, seats);
    lines.push(text(t("Best line: {line}", { line }), "ab-line"));
  }
  const actions = found.actions || [];
  if (actions.length && actions.length <= MOST_ACTIONS_LISTED) {
    const seat = answer.to_act ?? 0;
    lines.push(
      text(
        answer.chance
          ? t("The {measure} of {name} after each outcome (exact):", {
              measure,
              name: seatName(answer, seat),
            })
          : t("The {measure} of {name} after each move (exact):", {
              measure,
              name: seatName(answer, seat),
            }),
      ),
    );
    const each = document.createElement("ul");
    each.className = "ab-actions";
    for (const action of actions) {
      const item = document.createElement("li");
      const shares = action.shares.map((share, s) => `${seatName(answer, s)} ${percent(share)}`);
      item.textContent = t("{label}: {value}", {
        label: wordOf(action.move),
        value: shares.join(" · "),
      });
      item.dataset.move = action.move;
      each.append(item);
    }
    lines.push(each);
  }
  lines.push(
    text(
      t("Budget: {iterations} search iterations a position (seed {seed}).", {
        iterations: found.budget.iterations,
        seed: found.budget.seed,
      }),
      "analysis-budget",
    ),
  );
  box.replaceChildren(...lines);
}

// "light wins in 14 with b1-b2": the distance to the win under best play (the winner's
// quickest win, the loser's longest defence). Where the server's search could not settle
// it within its budget: "wins in at most 22" (a bound from above), or no number at all.
function perfectText(answer, found, perfect) {
  if (perfect.winner === null || perfect.winner === undefined) {
    return t("A draw with perfect play, with {move} (proven)", { move: wordOf(found.best) });
  }
  const name = seatName(answer, perfect.winner);
  const other = seatName(answer, answer.to_act);
  const move = wordOf(found.best);
  const moves = perfect.winner === answer.to_act;
  if (Number.isInteger(perfect.plies)) {
    const plies = perfect.plies;
    return moves
      ? t("{name} wins in {plies} with {move} (proven)", { name, plies, move })
      : t("{name} wins in {plies}, whatever {other} plays (proven)", { name, plies, other });
  }
  if (Number.isInteger(perfect.plies_at_most)) {
    const plies = perfect.plies_at_most;
    return moves
      ? t("{name} wins in at most {plies} with {move} (proven)", { name, plies, move })
      : t("{name} wins in at most {plies}, whatever {other} plays (proven)", {
          name,
          plies,
          other,
        });
  }
  return moves
    ? t("{name} wins with {move} (proven)", { name, move })
    : t("{name} wins, whatever {other} plays (proven)", { name, other });
}

// The moves the board's game says in words (its `move_words`), and its seats' names.
function wordsAndSeats() {
  const game = board.games.find((g) => g.name === board.game);
  return { words: gameWords(game), seats: board.answer?.seats || game?.seat_names || [] };
}

// A move as people read it: its game's words ("Pass", "Die 3", "Red starts"), or its
// notation.
function wordOf(move) {
  const { words, seats } = wordsAndSeats();
  return moveText(move, words, seats);
}

// The moves explored from the position: each a button back to the position after it.
function renderMoves() {
  const list = $("ab-moves");
  list.replaceChildren(
    ...board.moves.map((move, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.textContent = wordOf(move);
      if (index === board.moves.length - 1) button.setAttribute("aria-current", "step");
      button.addEventListener("click", () => goTo(index + 1));
      item.append(button);
      return item;
    }),
  );
  $("ab-no-moves").hidden = board.moves.length > 0;
}

// Buttons for what the board does not draw: the chance outcomes (a die, a card), and the
// moves that are words.
function renderChoices(answer) {
  const box = $("ab-choices");
  const buttons = [];
  for (const outcome of answer.outcomes || []) {
    const text = t("{outcome} ({chance})", {
      outcome: wordOf(outcome.move),
      chance: percent(outcome.probability),
    });
    buttons.push(button(text, () => explore(outcome.move)));
  }
  const { words } = wordsAndSeats();
  const { turn, controls } = wordButtons(words, answer.legal || []);
  for (const word of [...turn, ...controls]) {
    buttons.push(button(t(word.label), () => explore(word.move)));
  }
  box.replaceChildren(...buttons);
}

// A match from the position shown: the seat to act (the first at chance) is this
// browser's, every other seat the computer's at the level chosen.
async function playOn() {
  const answer = board.answer;
  if (!answer?.current || board.busy) return;
  board.busy = true;
  const mine = answer.to_act ?? 0;
  const level = $("ab-level", HTMLSelectElement).value || "medium";
  const seats = answer.seats.map((_, seat) => (seat === mine ? "human" : `computer:${level}`));
  try {
    await ensurePlayer(); // the seat made for this browser is its player's
    const data = await api("/api/matches", {
      json: { game: answer.game, options: answer.options, seats, position: answer.current },
    });
    board.saveTokens(data.match, data.seats);
    board.go(`/m/${data.match}`);
  } catch (failure) {
    $("ab-error").textContent = failureText(failure);
  } finally {
    board.busy = false;
  }
}
