// "My games" (/my): the player's games, those waiting for them first, then the others
// going on, then the finished ones with their results, a page at a time; each opens the
// match (its replay, once over). A game going on against the computer may be resigned
// or hidden from here; the hidden ones are listed apart ("Hidden games"), each with a
// button that shows it again. The list is read again as the player's channel tells of
// a change (told.js).
import { onLanguageChange, t } from "./i18n.js";
import { showWaiting, shownName } from "./player.js";
import { $, button, has } from "./dom.js";
import { api, failureText } from "./net.js";
import { OUTCOME_WORDS, outcomeOf } from "./outcome.js";
import { onTold } from "./told.js";

/**
 * A game of GET /api/my/games: the seats the player holds in it, its players.
 *
 * @typedef {object} MyGame
 * @property {string} match
 * @property {string} game
 * @property {number[]} seats
 * @property {{seat: number, name: string | null, kind: string}[]} players
 * @property {boolean} your_turn
 * @property {boolean} over
 * @property {{winners: number[], aborted?: boolean} | null} result
 */

/**
 * GET /api/my/games?page=N: a page of the player's games.
 *
 * @typedef {{games: MyGame[], page: number, pages: number, waiting?: number,
 *   hidden?: number}} MyGames
 */

/**
 * `hidden`: the hidden games are listed (else the others).
 *
 * @type {{page: number, data: MyGames | null, games: import("./types.js").Game[],
 *   go: (path: string) => void, open: boolean, hidden: boolean}}
 */
const mine = { page: 1, data: null, games: [], go: () => {}, open: false, hidden: false };

/**
 * @param {string} name
 * @returns {string}
 */
function titleOf(name) {
  const game = mine.games.find((g) => g.name === name);
  return game ? t(game.title) : name;
}

/**
 * @param {MyGame} game
 * @returns {string}
 */
function opponents(game) {
  return game.players
    .filter((p) => !game.seats.includes(p.seat))
    .map((p) => shownName(p.name) || (p.kind === "computer" ? t("the computer") : t("a free seat")))
    .join(t(", "));
}

/**
 * @param {MyGame} game
 * @returns {string}
 */
function status(game) {
  if (game.your_turn) return t("Your move");
  if (!game.over) return t("Waiting for the others");
  return t(OUTCOME_WORDS[outcomeOf(game)]);
}

/**
 * Whether the game goes on with a computer in every seat the player does not hold: one
 * they may resign or hide from here.
 *
 * @param {MyGame} game
 * @returns {boolean}
 */
function againstTheComputer(game) {
  const others = game.players.filter((p) => !game.seats.includes(p.seat));
  return !game.over && others.length > 0 && others.every((p) => p.kind === "computer");
}

/**
 * Ask the server to `hide`, `show` or `resign` the game, then read the list again.
 *
 * @param {MyGame} game
 * @param {"hide" | "show" | "resign"} action
 */
async function act(game, action) {
  try {
    await api(`/api/my/games/${encodeURIComponent(game.match)}/${action}`, { json: {} });
  } catch (failure) {
    $("my-games-error").textContent = failureText(failure);
    return;
  }
  load();
}

/**
 * The buttons of a row: Resign and Hide for a game going on against the computer, Show
 * for a hidden game.
 *
 * @param {MyGame} game
 * @returns {HTMLButtonElement[]}
 */
function actions(game) {
  const shown = [];
  if (againstTheComputer(game)) {
    const resign = button(t("Resign"), () => {
      if (confirm(t("Resign this game?"))) act(game, "resign");
    });
    resign.className = "my-game-resign";
    shown.push(resign);
  }
  if (mine.hidden) {
    const show = button(t("Show"), () => act(game, "show"));
    show.className = "my-game-show";
    shown.push(show);
  } else if (againstTheComputer(game)) {
    const hide = button(t("Hide"), () => act(game, "hide"));
    hide.className = "my-game-hide";
    shown.push(hide);
  }
  return shown;
}

/**
 * @param {MyGame} game
 * @returns {HTMLLIElement}
 */
function row(game) {
  const item = document.createElement("li");
  item.className = `my-game${game.your_turn ? " your-turn" : ""}`;
  const link = document.createElement("a");
  link.href = `/m/${game.match}`;
  link.textContent = titleOf(game.game);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    mine.go(`/m/${game.match}`);
  });
  const details = document.createElement("span");
  details.textContent = ` · ${t("against {names}", { names: opponents(game) })} · ${status(game)}`;
  item.append(link, details, ...actions(game));
  return item;
}

function render() {
  const data = mine.data;
  if (!data) return;
  $("my-games-list").replaceChildren(...data.games.map(row));
  $("my-games-empty").hidden = data.games.length > 0;
  $("my-games-page").textContent =
    data.pages > 1 ? t("Page {page} of {pages}", { page: data.page, pages: data.pages }) : "";
  $("my-games-previous", HTMLButtonElement).hidden = data.page <= 1;
  $("my-games-next", HTMLButtonElement).hidden = data.page >= data.pages;
  const toggle = $("my-games-hidden-toggle", HTMLButtonElement);
  toggle.hidden = !mine.hidden && !data.hidden;
  toggle.textContent = mine.hidden
    ? t("Back to My games")
    : t("Hidden games ({count})", { count: data.hidden ?? 0 });
  toggle.setAttribute("aria-pressed", String(mine.hidden));
}

async function load() {
  try {
    /** @type {MyGames} */
    const data = await api(`/api/my/games?page=${mine.page}${mine.hidden ? "&hidden=true" : ""}`);
    mine.data = data;
    $("my-games-error").textContent = "";
    showWaiting(data.waiting ?? 0);
  } catch {
    mine.data = { games: [], page: 1, pages: 1, hidden: 0 };
    $("my-games-error").textContent = t("Choose a name to keep your games.");
  }
  render();
}

/**
 * Show the player's games; `games` is /api/games' list, `go(path)` the page's own.
 *
 * @param {import("./types.js").Game[]} games
 * @param {(path: string) => void} go
 */
export function showMyGames(games, go) {
  Object.assign(mine, { games, go, open: true, page: 1, hidden: false });
  $("my-games").hidden = false;
  load();
}

export function hideMyGames() {
  mine.open = false;
  $("my-games").hidden = true;
}

/** The button that lists the hidden games, or the others again (made here, once). */
function addHiddenToggle() {
  const toggle = button("", () => {
    Object.assign(mine, { hidden: !mine.hidden, page: 1 });
    load();
  });
  toggle.id = "my-games-hidden-toggle";
  toggle.hidden = true;
  const paragraph = document.createElement("p");
  paragraph.append(toggle);
  $("my-games-list").before(paragraph);
}

function start() {
  if (!has("my-games")) return;
  addHiddenToggle();
  $("my-games-previous", HTMLButtonElement).addEventListener("click", () => {
    mine.page -= 1;
    load();
  });
  $("my-games-next", HTMLButtonElement).addEventListener("click", () => {
    mine.page += 1;
    load();
  });
  onLanguageChange(() => {
    if (mine.open) render();
  });
  // live: read the list again when the count changes or a game ends (told.js)
  onTold((message) => {
    if (mine.open && (message.type === "me" || message.type === "ended")) load();
  });
}

start();
