// Tournaments (issue 53; docs/tournaments.md, "On the site"): /tournaments lists them
// (those not finished, soonest first, then the latest finished: GET /api/tournaments),
// each with a Join button while it may be joined, and a form for an account to create
// one (POST /api/tournaments: its kind, game, the game's options drawn by optionform.js
// as the lobby draws them, clock, start, minutes or rounds, rated, bots); the server's
// refusals are shown in the page's language. /tournaments/{id} shows one (GET
// /api/tournaments/{id}): Join and Leave, the standings and each round's games, read
// again every few seconds while it is not finished, with "Your game" where the reader
// has a game being played in it. Times are shown in the reader's time zone. Every text
// the server sent (names) is put in the page with textContent.

import { language, ngettext, onLanguageChange, t } from "./i18n.js";
import { $, button, has } from "./dom.js";
import { api, failureText } from "./net.js";
import { currentPlayer, ensurePlayer, shownName } from "./player.js";
import { fillTimeControls, timeControlOf, timeControlText } from "./clock.js";
import { markBot } from "./botmark.js";
import { optionInput, optionValues } from "./optionform.js";
import { isEditable, optionsSummary } from "./pagetext.js";

/**
 * A tournament as GET /api/tournaments lists it (server/tournaments/contract.py,
 * TournamentListed).
 *
 * @typedef {object} Tournament
 * @property {string} id
 * @property {string} kind "arena", "swiss" or "tables"
 * @property {string} game
 * @property {Record<string, unknown>} options
 * @property {import("./clocktext.js").TimeControl} time_control
 * @property {string} starts_at ISO 8601, UTC
 * @property {number | null} minutes an arena's
 * @property {number | null} rounds a Swiss's or round tables'
 * @property {boolean} rated
 * @property {boolean} bots
 * @property {string} creator
 * @property {string} status "created", "started" or "finished"
 * @property {number} round the round being played (0 before the first)
 * @property {number} players how many are in it
 */

/**
 * A row of the standings (Standing): `streak` an arena's wins in a row, `rating` at
 * entry, `bot` a bot account (shown with the BOT mark).
 *
 * @typedef {{id: string, name: string, points: number, streak: number, rating: number,
 *   left: boolean, bot?: boolean}} Standing
 */

/**
 * A game of a round (PairingJson): `match` null for a bye (or sitting out), the players'
 * names in seat order, the points by seat once over.
 *
 * @typedef {{round: number, match: string | null, players: string[],
 *   result: number[] | null}} Pairing
 */

/** @typedef {Tournament & {standings: Standing[], pairings: Pairing[]}} TournamentDetail */

const POLL_MS = 3000;
/** An arena's streak from which the player is on fire (docs/tournaments.md). */
const ON_FIRE = 2;
const N_ = (/** @type {string} */ id) => id; // marks a message id translated later
const KIND_NAMES = /** @type {Record<string, string>} */ ({
  arena: N_("Arena"),
  swiss: N_("Swiss"),
  tables: N_("Round tables"),
});

/**
 * The page's state: the list or the tournament shown (`id`), the timer reading it again.
 *
 * @type {{open: boolean, games: import("./types.js").Game[], go: (path: string) => void,
 *   list: Tournament[] | null, id: string | null, shown: TournamentDetail | null,
 *   timer: ReturnType<typeof setTimeout> | undefined}}
 */
const page = {
  open: false,
  games: [],
  go: () => {},
  list: null,
  id: null,
  shown: null,
  timer: undefined,
};

// ----- texts ------------------------------------------------------------------------

/**
 * @param {string} name
 * @returns {import("./types.js").Game | undefined}
 */
function gameOf(name) {
  return page.games.find((g) => g.name === name);
}

/**
 * "Stairs · Swiss"
 *
 * @param {Tournament} tournament
 * @returns {string}
 */
function titleText(tournament) {
  const game = gameOf(tournament.game);
  return t("{game} · {kind}", {
    game: game ? t(game.title) : tournament.game,
    kind: t(KIND_NAMES[tournament.kind] ?? tournament.kind),
  });
}

/**
 * A moment in the reader's time zone, in the page's language.
 *
 * @param {string | number} moment ISO 8601, or milliseconds since the epoch
 * @returns {string}
 */
export function momentText(moment) {
  const date = new Date(moment);
  if (Number.isNaN(date.getTime())) return String(moment);
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(
    date,
  );
}

/**
 * "60 minutes", "4 rounds"
 *
 * @param {Tournament} tournament
 * @returns {string}
 */
function lengthText(tournament) {
  if (tournament.kind === "arena") {
    const count = tournament.minutes ?? 0;
    return ngettext("{count} minute", "{count} minutes", count, { count });
  }
  const count = tournament.rounds ?? 0;
  return ngettext("{count} round", "{count} rounds", count, { count });
}

/**
 * When an arena ends (milliseconds since the epoch), or null.
 *
 * @param {Tournament} tournament
 * @returns {number | null}
 */
function arenaEnd(tournament) {
  if (tournament.kind !== "arena" || tournament.minutes === null) return null;
  return new Date(tournament.starts_at).getTime() + tournament.minutes * 60_000;
}

/**
 * @param {Tournament} tournament
 * @returns {string}
 */
function statusText(tournament) {
  if (tournament.status === "finished") return t("Finished");
  if (tournament.status === "created") return t("Not started yet");
  const end = arenaEnd(tournament);
  if (end !== null) return t("Under way until {time}", { time: momentText(end) });
  return t("Round {round} of {rounds}", { round: tournament.round, rounds: tournament.rounds });
}

/**
 * The facts of a tournament, joined: its game's options that differ from the defaults,
 * clock, start, length, rated, bots.
 *
 * @param {Tournament} tournament
 * @returns {string[]}
 */
function facts(tournament) {
  const game = gameOf(tournament.game);
  return [
    game ? optionsSummary(game.options, tournament.options) : "",
    timeControlText(tournament.time_control),
    t("from {time}", { time: momentText(tournament.starts_at) }),
    lengthText(tournament),
    tournament.rated ? t("rated") : t("casual"),
    tournament.bots ? t("bots may play") : t("no bots"),
  ].filter(Boolean);
}

/**
 * Points as the standings show them: 1, 1.5, 14.
 *
 * @param {number} points
 * @returns {string}
 */
function pointsText(points) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: 1 }).format(points);
}

/**
 * Whether joining is open: before the start, or while an arena runs.
 *
 * @param {Tournament} tournament
 * @returns {boolean}
 */
function joinable(tournament) {
  return (
    tournament.status === "created" ||
    (tournament.status === "started" && tournament.kind === "arena")
  );
}

/**
 * A link that opens a page of the site without reloading it.
 *
 * @param {string} href
 * @param {string} text
 * @returns {HTMLAnchorElement}
 */
function pageLink(href, text) {
  const link = document.createElement("a");
  link.href = href;
  link.textContent = text;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    page.go(href);
  });
  return link;
}

// ----- the list -----------------------------------------------------------------------

/**
 * @param {Tournament} tournament
 * @returns {HTMLLIElement}
 */
function listRow(tournament) {
  const item = document.createElement("li");
  item.className = `tn-item tn-${tournament.status}`;
  item.dataset.tournament = tournament.id;
  const title = pageLink(
    `/tournaments/${encodeURIComponent(tournament.id)}`,
    titleText(tournament),
  );
  title.className = "tn-title";
  const details = document.createElement("span");
  details.className = "tn-details";
  const count = tournament.players;
  details.textContent = [
    ...facts(tournament),
    ngettext("{count} player", "{count} players", count, { count }),
    t("by {name}", { name: shownName(tournament.creator) }),
    statusText(tournament),
  ].join(" · ");
  item.append(title, " ", details);
  if (joinable(tournament)) {
    const join = button(t("Join"), () => enter(tournament.id, "tn-list-error"));
    join.className = "tn-join";
    item.append(" ", join);
  }
  return item;
}

function renderList() {
  const list = page.list ?? [];
  $("tn-list").replaceChildren(...list.map(listRow));
  $("tn-none").hidden = page.list === null || list.length > 0;
}

async function loadList() {
  try {
    /** @type {{tournaments: Tournament[]}} */
    const data = await api("/api/tournaments");
    page.list = data.tournaments;
    $("tn-list-error").textContent = "";
  } catch (failure) {
    $("tn-list-error").textContent = failureText(failure);
  }
  renderList();
}

// ----- the form -----------------------------------------------------------------------

/**
 * The seat counts a game offers: its option sets' (seats_by_players), else its seats.
 *
 * @param {import("./types.js").Game} game
 * @returns {number[]}
 */
function seatCounts(game) {
  const counts = Object.keys(game.seats_by_players ?? {}).map(Number);
  return counts.length ? counts : [game.seat_names.length];
}

/**
 * The seat counts a kind plays: 2 for an arena or a Swiss, 3 or 4 at round tables.
 *
 * @param {string} kind
 * @returns {number[]}
 */
function countsOfKind(kind) {
  return kind === "tables" ? [3, 4] : [2];
}

/**
 * The options the form offers: every one the game offers but the number of seats (the
 * form's "Players at a table"), the first player (the pairing decides it) and an
 * uploaded file (a tournament plays the game's own).
 *
 * @param {import("./types.js").Game | undefined} game
 * @returns {import("./types.js").GameOption[]}
 */
function formOptions(game) {
  if (!game) return [];
  return game.options.filter(
    (option) =>
      isEditable(option) && !option.seats_from && option.kind !== "seat" && option.kind !== "file",
  );
}

/**
 * A moment as a datetime-local input holds it (the reader's time zone): "2027-01-15T09:30".
 *
 * @param {Date} date
 * @returns {string}
 */
function localInput(date) {
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}` +
    `T${two(date.getHours())}:${two(date.getMinutes())}`
  );
}

function renderForm() {
  const kinds = $("tn-kind", HTMLSelectElement);
  const kind = kinds.value || "arena";
  kinds.replaceChildren(
    ...Object.entries(KIND_NAMES).map(([value, name]) => new Option(t(name), value)),
  );
  kinds.value = kind;
  const wanted = countsOfKind(kind);
  const playable = page.games.filter(
    (g) => g.web !== false && seatCounts(g).some((n) => wanted.includes(n)),
  );
  const select = $("tn-game", HTMLSelectElement);
  const chosen = select.value;
  select.replaceChildren(...playable.map((g) => new Option(t(g.title), g.name)));
  if (playable.some((g) => g.name === chosen)) select.value = chosen;
  const game = gameOf(select.value);
  const counts = game ? seatCounts(game).filter((n) => wanted.includes(n)) : [];
  const count = $("tn-count", HTMLSelectElement);
  const previous = count.value;
  count.replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
  if (counts.includes(Number(previous))) count.value = previous;
  $("tn-count-label").hidden = counts.length < 2;
  const box = $("tn-options");
  const drawnFor = `${game ? game.name : ""} ${language()}`;
  if (box.dataset.drawnFor !== drawnFor) {
    box.replaceChildren(...formOptions(game).map(optionInput));
    box.dataset.drawnFor = drawnFor;
  }
  fillTimeControls($("tn-clock", HTMLSelectElement), game);
  $("tn-minutes-label").hidden = kind !== "arena";
  $("tn-rounds-label").hidden = kind === "arena";
  const start = $("tn-start", HTMLInputElement);
  if (!start.value) start.value = localInput(new Date(Date.now() + 60 * 60_000));
}

/**
 * The body of POST /api/tournaments from the form.
 *
 * @returns {Record<string, unknown>}
 */
function formBody() {
  const kind = $("tn-kind", HTMLSelectElement).value;
  const name = $("tn-game", HTMLSelectElement).value;
  const game = gameOf(name);
  const options = optionValues($("tn-options"), formOptions(game));
  const counted = game?.options.find((option) => option.seats_from);
  if (counted && Object.keys(game?.seats_by_players ?? {}).length) {
    options[counted.name] = Number($("tn-count", HTMLSelectElement).value);
  }
  const start = $("tn-start", HTMLInputElement).value;
  const moment = start ? new Date(start) : null; // the reader's time zone
  const length = kind === "arena" ? "tn-minutes" : "tn-rounds";
  return {
    kind,
    game: name,
    options,
    time_control: timeControlOf($("tn-clock", HTMLSelectElement).value) ?? null,
    starts_at: moment && !Number.isNaN(moment.getTime()) ? moment.toISOString() : start,
    [kind === "arena" ? "minutes" : "rounds"]: Number($(length, HTMLInputElement).value),
    rated: $("tn-rated", HTMLInputElement).checked,
    bots: $("tn-bots", HTMLInputElement).checked,
  };
}

/** @param {SubmitEvent} event */
async function create(event) {
  event.preventDefault();
  const error = $("tn-form-error");
  /** @type {{id: string}} */
  let made;
  try {
    made = await api("/api/tournaments", { json: formBody() });
  } catch (failure) {
    error.textContent = failureText(failure);
    return;
  }
  error.textContent = "";
  page.go(`/tournaments/${encodeURIComponent(made.id)}`);
}

// ----- joining and leaving --------------------------------------------------------------

/**
 * Join the tournament (making this browser a player first where it is none), then show
 * it; a refusal is said in the element `errorId`.
 *
 * @param {string} id
 * @param {string} errorId
 */
async function enter(id, errorId) {
  if (!(await ensurePlayer())) {
    $(errorId).textContent = t("The server cannot be reached.");
    return;
  }
  try {
    await api(`/api/tournaments/${encodeURIComponent(id)}/join`, { json: {} });
  } catch (failure) {
    $(errorId).textContent = failureText(failure);
    return;
  }
  $(errorId).textContent = "";
  if (page.id === id) loadOne();
  else page.go(`/tournaments/${encodeURIComponent(id)}`);
}

async function leave() {
  const id = page.id;
  if (id === null) return;
  try {
    await api(`/api/tournaments/${encodeURIComponent(id)}/leave`, { json: {} });
  } catch (failure) {
    $("tr-error").textContent = failureText(failure);
    return;
  }
  $("tr-error").textContent = "";
  loadOne();
}

// ----- one tournament -------------------------------------------------------------------

/**
 * The reader's row of the standings, where they are in it.
 *
 * @param {TournamentDetail} tournament
 * @returns {Standing | undefined}
 */
function myStanding(tournament) {
  const me = currentPlayer();
  return me.id === null ? undefined : tournament.standings.find((s) => s.id === String(me.id));
}

/**
 * The game of the reader's being played in the tournament, where there is one.
 *
 * @param {TournamentDetail} tournament
 * @returns {Pairing | undefined}
 */
function myGame(tournament) {
  const me = currentPlayer().name;
  if (me === null || tournament.status === "finished") return undefined;
  return tournament.pairings.find(
    (game) => game.match !== null && game.result === null && game.players.includes(me),
  );
}

/**
 * @param {Standing} standing
 * @param {number} index
 * @param {boolean} arena
 * @returns {HTMLTableRowElement}
 */
function standingRow(standing, index, arena) {
  const row = document.createElement("tr");
  row.className = standing.left ? "tr-left" : "";
  row.dataset.player = standing.name;
  const rank = document.createElement("td");
  rank.textContent = String(index + 1);
  const name = document.createElement("td");
  const profile = pageLink(`/p/${encodeURIComponent(standing.name)}`, shownName(standing.name));
  markBot(profile, standing.bot);
  name.append(profile);
  if (standing.left) name.append(" ", t("(left)"));
  const points = document.createElement("td");
  points.className = "tr-points";
  points.textContent = pointsText(standing.points);
  const streak = document.createElement("td");
  streak.className = "tr-streak";
  streak.hidden = !arena;
  const onFire = standing.streak >= ON_FIRE;
  streak.textContent = onFire ? `🔥 ${standing.streak}` : String(standing.streak);
  if (onFire) streak.title = t("On fire: every result counts double");
  const rating = document.createElement("td");
  rating.textContent = String(standing.rating);
  row.append(rank, name, points, streak, rating);
  return row;
}

/**
 * A game of a round: its players (with their points once over) and a link to its match;
 * a bye or a round sat out says so.
 *
 * @param {Pairing} game
 * @param {string} kind
 * @returns {HTMLLIElement}
 */
function gameRow(game, kind) {
  const item = document.createElement("li");
  item.className = "tr-game";
  const names = game.players.map((name, seat) => {
    const shown = shownName(name);
    return game.result ? `${shown} ${pointsText(game.result[seat] ?? 0)}` : shown;
  });
  if (game.match === null) {
    const [name] = names;
    item.textContent =
      kind === "tables"
        ? t("{name} sits this round out", { name })
        : t("{name} has the bye", { name });
    return item;
  }
  item.dataset.match = game.match;
  const link = pageLink(`/m/${encodeURIComponent(game.match)}`, names.join(" – "));
  const state = document.createElement("span");
  state.className = "tr-game-state";
  state.textContent = game.result ? t("over") : t("being played");
  item.append(link, " · ", state);
  return item;
}

/**
 * Each round's games, the latest round first.
 *
 * @param {TournamentDetail} tournament
 * @returns {HTMLElement[]}
 */
function roundBlocks(tournament) {
  /** @type {Map<number, Pairing[]>} */
  const rounds = new Map();
  for (const game of tournament.pairings) {
    const games = rounds.get(game.round) ?? [];
    games.push(game);
    rounds.set(game.round, games);
  }
  return [...rounds.entries()]
    .sort(([a], [b]) => b - a)
    .map(([round, games]) => {
      const block = document.createElement("section");
      block.className = "tr-round";
      block.dataset.round = String(round);
      const heading = document.createElement("h3");
      heading.textContent = t("Round {round}", { round });
      const list = document.createElement("ul");
      list.className = "tr-games";
      list.append(...games.map((game) => gameRow(game, tournament.kind)));
      block.append(heading, list);
      return block;
    });
}

function renderOne() {
  const tournament = page.shown;
  if (!tournament) return;
  $("tr-title").textContent = titleText(tournament);
  $("tr-facts").textContent = [
    ...facts(tournament),
    t("by {name}", { name: shownName(tournament.creator) }),
  ].join(" · ");
  $("tr-status").textContent = statusText(tournament);
  const mine = myStanding(tournament);
  const entered = mine !== undefined && !mine.left;
  $("tr-join", HTMLButtonElement).hidden = entered || !joinable(tournament);
  $("tr-leave", HTMLButtonElement).hidden = !entered || tournament.status === "finished";
  const playing = myGame(tournament);
  const yours = $("tr-your-game", HTMLAnchorElement);
  yours.hidden = !playing;
  if (playing?.match) yours.href = `/m/${encodeURIComponent(playing.match)}`;
  $("tr-controls").hidden = [...$("tr-controls").children].every(
    (control) => control instanceof HTMLElement && control.hidden,
  );
  const arena = tournament.kind === "arena";
  $("tr-streak-head").hidden = !arena;
  $("tr-standings").replaceChildren(
    ...tournament.standings.map((standing, index) => standingRow(standing, index, arena)),
  );
  $("tr-nobody").hidden = tournament.standings.length > 0;
  $("tr-rounds").replaceChildren(...roundBlocks(tournament));
  $("tr-no-games").hidden = tournament.pairings.length > 0;
}

// Read the tournament shown; again in a few seconds while it is not finished.
async function loadOne() {
  const id = page.id;
  if (id === null) return;
  clearTimeout(page.timer);
  try {
    /** @type {TournamentDetail} */
    const shown = await api(`/api/tournaments/${encodeURIComponent(id)}`);
    if (page.id !== id || !page.open) return;
    page.shown = shown;
    $("tr-error").textContent = "";
  } catch (failure) {
    if (page.id !== id || !page.open) return;
    $("tr-error").textContent = failureText(failure);
  }
  renderOne();
  if (page.shown?.status !== "finished") page.timer = setTimeout(loadOne, POLL_MS);
}

// ----- showing the pages ------------------------------------------------------------------

/**
 * The tournament a path names (/tournaments/{id}), or null (the list).
 *
 * @param {string} path
 * @returns {string | null}
 */
export function tournamentOfPath(path) {
  const found = /^\/tournaments\/([^/]+)\/?$/.exec(path);
  return found ? decodeURIComponent(found[1]) : null;
}

/**
 * Show the list (/tournaments) or one tournament (/tournaments/{id}); `games` is
 * /api/games' list, `go(path)` the page's own.
 *
 * @param {import("./types.js").Game[]} games
 * @param {(path: string) => void} go
 */
export function showTournaments(games, go) {
  const id = tournamentOfPath(location.pathname);
  Object.assign(page, { games, go, open: true, id, shown: null });
  clearTimeout(page.timer);
  $("tournaments").hidden = id !== null;
  $("tournament").hidden = id === null;
  if (id === null) {
    renderForm();
    loadList();
    return;
  }
  for (const target of ["tr-title", "tr-facts", "tr-status", "tr-error"]) {
    $(target).textContent = "";
  }
  $("tr-standings").replaceChildren();
  $("tr-rounds").replaceChildren();
  for (const control of ["tr-join", "tr-leave", "tr-your-game"]) $(control).hidden = true;
  loadOne();
}

export function hideTournaments() {
  page.open = false;
  page.id = null;
  clearTimeout(page.timer);
  $("tournaments").hidden = true;
  $("tournament").hidden = true;
  // (no second set of the game's options on the page while another form shows them)
  $("tn-options").replaceChildren();
  delete $("tn-options").dataset.drawnFor;
}

function start() {
  if (!has("tournaments")) return;
  $("tn-form").addEventListener("submit", create);
  for (const id of ["tn-kind", "tn-game", "tn-count"]) $(id).addEventListener("change", renderForm);
  $("tr-join", HTMLButtonElement).addEventListener("click", () => {
    if (page.id !== null) enter(page.id, "tr-error");
  });
  $("tr-leave", HTMLButtonElement).addEventListener("click", leave);
  $("tr-your-game", HTMLAnchorElement).addEventListener("click", (event) => {
    event.preventDefault();
    page.go($("tr-your-game", HTMLAnchorElement).pathname);
  });
  $("tr-back", HTMLAnchorElement).addEventListener("click", (event) => {
    event.preventDefault();
    page.go("/tournaments");
  });
  onLanguageChange(() => {
    if (!page.open) return;
    if (page.id === null) {
      renderForm();
      renderList();
    } else renderOne();
  });
}

start();
