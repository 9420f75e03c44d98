// stairgames in the browser: the home page (pick a game and an opponent) and the match
// page (board, moves, controls), speaking the web contract (HTTP + WebSocket). No game
// logic lives here: the server sends the legal moves and each game's board.js draws.

import {
  LANGUAGES,
  language,
  ngettext,
  onLanguageChange,
  preferredLanguage,
  say,
  setLanguage,
  t,
} from "./i18n.js";
import { renderSeatList, seatSpecs, specialOption } from "./setup.js";
import { chatReceived, chatReconnected, chatView } from "./chat.js";
import { hideLobby, showLobby } from "./lobby.js";
import {
  askForNotifications,
  fillTimeControls,
  mayAskForNotifications,
  setSound,
  showClocks,
  soundOn,
  tellTurn,
  timeControlOf,
} from "./clock.js";
import { hideMyGames, showMyGames } from "./mygames.js";
import { ensurePlayer, shownName } from "./player.js";
import { markBot } from "./botmark.js";
import { hideProfile, showProfile } from "./profile.js";
import { initStepping, noteView, renderStepping } from "./stepping.js";
import { analysisHint, analysisMessage, initAnalysis, renderAnalysis } from "./analysis.js";
import { hideAnalysisBoard, showAnalysisBoard } from "./analysisboard.js";
import { hidePuzzles, showDailyCard, showPuzzles } from "./puzzles.js";
import { hideTournaments, showTournaments } from "./tournaments.js";
import { initNvui, nvuiOn, renderNvui } from "./nvui.js";

import { $, button } from "./dom.js";
import { api, errorText, failureText } from "./net.js";
import { optionInput, optionValues } from "./optionform.js";
import { Replay } from "./replay.js";
import { Backoff } from "./backoff.js";
import { PendingMove } from "./pending.js";
import { Premove, droppedText, mayPremove, premoveLine, showPremove } from "./premove.js";
import { renderPlans } from "./plans.js";
import { ratingChanges, ratingText } from "./ratingtext.js";
import {
  capitalise,
  gameWords,
  isEditable,
  isNote,
  isWord,
  minutesText,
  moveRounds,
  moveText,
  playersText,
  wordButtons,
  wordOf,
} from "./pagetext.js";

/** @type {import("./types.js").App} */
const app = {
  games: [],
  match: null,
  view: null,
  sockets: {},
  tokens: {},
  held: [],
  memory: {},
  replay: new Replay(),
  viewSeat: null,
  confirmedSeat: null,
  noticeTimer: undefined,
  draw: null,
  drawFor: null,
  lastEvent: -1,
  retry: new Backoff(),
  pending: new PendingMove(),
  lastSent: null, // the last request sent: kept again if the database was away for it
  renders: 0,
};

// A move queued while the opponent of a live game thinks (static/premove.js).
const premove = new Premove();

// ----- home -----------------------------------------------------------------------

async function showHome() {
  hideLobby();
  hideMyGames();
  hideProfile();
  $("pass-cover").hidden = true;
  $("home").hidden = false;
  $("match").hidden = true;
  await loadGames();
  renderHome();
  showDailyCard(app.games);
}

// GET /api/games: each game's options, seats, summary, rules and a board to picture it.
async function loadGames() {
  if (!app.games.length) {
    try {
      app.games = await api("/api/games");
    } catch {
      // no listing: the pages that need one show none
    }
  }
  return app.games;
}

// The game chosen when the page opens: the first the server lists (GET /api/games lists
// them in the order their registrations ask).
function firstGame(playable) {
  return playable[0]?.name;
}

function selectedGame() {
  const checked = /** @type {HTMLInputElement | null} */ (
    document.querySelector('input[name="game"]:checked')
  );
  const playable = app.games.filter((g) => g.web !== false);
  return playable.find((g) => g.name === (checked ? checked.value : firstGame(playable)));
}

function renderHome() {
  renderGameCards();
  const game = selectedGame();
  for (const card of $("game-list").querySelectorAll(".game-card")) {
    if (!(card instanceof HTMLElement)) continue;
    card.classList.toggle("selected", card.dataset.game === game.name);
  }
  $("setup-heading").textContent = t("New game: {game}", { game: t(game.title) });
  const options = $("options");
  options.replaceChildren();
  const seatsChanged = () =>
    renderSeatList(selectedGame(), options.closest("fieldset"), selectedGame().levels);
  for (const option of game.options) {
    const special = specialOption(option, game, seatsChanged);
    // (options the form cannot edit keep their default: pagetext.js's isEditable)
    if (special) options.append(special);
    else if (isEditable(option)) options.append(optionInput(option));
  }
  const level = $("level", HTMLSelectElement);
  const levelNow = level.value || "medium";
  level.replaceChildren(...game.levels.map((l) => new Option(t(l), l, false, l === levelNow)));
  const seat = $("my-seat", HTMLSelectElement);
  const seatNow = seat.value || "0";
  seat.replaceChildren(
    ...game.seat_names.map((s, i) => new Option(t(s), String(i), false, String(i) === seatNow)),
  );
  renderSeatList(game, options.closest("fieldset"), game.levels);
  fillTimeControls($("time-control", HTMLSelectElement), game);
}

// The games as cards (drawn again when the language changes): a picture of the board,
// drawn by the game's board.js from the listing's "preview", its players, how long it
// takes and what it is about. The radio button in its title chooses it, as does a click
// anywhere on the card; the setup form below follows the choice.
function renderGameCards() {
  const list = $("game-list");
  if (list.dataset.lang === language() && list.children.length) return;
  const chosen = /** @type {HTMLInputElement | null} */ (list.querySelector("input:checked"));
  const playable = app.games.filter((g) => g.web !== false);
  const name = chosen ? chosen.value : firstGame(playable);
  list.dataset.lang = language();
  list.replaceChildren(...playable.map((game) => gameCard(game, game.name === name)));
}

function gameCard(game, checked) {
  const card = document.createElement("article");
  card.className = "game-card";
  card.dataset.game = game.name;
  const picture = document.createElement("div");
  picture.className = "game-picture";
  picture.inert = true;
  picture.setAttribute("aria-hidden", "true");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "preview");
  picture.append(svg);
  if (game.preview) drawPreview(game.name, svg, game.preview);
  const label = document.createElement("label");
  label.className = "game-title";
  const input = document.createElement("input");
  Object.assign(input, { type: "radio", name: "game", value: game.name, checked });
  input.addEventListener("change", () => chooseGame(card));
  label.append(input, " ", t(game.title));
  const facts = document.createElement("p");
  facts.className = "game-facts";
  facts.textContent = [playersText(game), minutesText(game.play_minutes)]
    .filter(Boolean)
    .join(" · ");
  const about = document.createElement("p");
  about.className = "game-about";
  about.textContent = game.summary ? t(game.summary) : "";
  card.append(picture, label, facts, about);
  card.addEventListener("click", (event) => {
    const target = event.target instanceof Node ? event.target : null;
    if (target === input || label.contains(target)) return;
    input.checked = true;
    chooseGame(card);
  });
  return card;
}

function chooseGame(card) {
  renderHome();
  const form = $("new-game");
  if (form.getBoundingClientRect().top > window.innerHeight * 0.7) {
    form.scrollIntoView({ block: "start" });
  }
  card.querySelector("input").focus({ preventScroll: true });
}

async function drawPreview(game, svg, board) {
  try {
    const module = await import(`/games/${game}/board.js`);
    module.draw(svg, board, {
      legal: [],
      lastMove: null,
      play: () => {},
      t,
      ngettext,
      memory: {},
      you: null,
      animate: false,
      notes: document.createElement("div"),
    });
  } catch {
    svg.replaceChildren(); // no picture rather than half of one
  }
}

async function startGame(event) {
  event.preventDefault();
  const game = selectedGame();
  const options = optionValues($("options"), game.options);
  const opponent = /** @type {HTMLInputElement} */ (
    document.querySelector('input[name="opponent"]:checked')
  ).value;
  const mine = Number($("my-seat", HTMLSelectElement).value);
  const other =
    opponent === "computer" ? `computer:${$("level", HTMLSelectElement).value}` : opponent;
  const seats = seatSpecs(game) || game.seat_names.map((_, i) => (i === mine ? "human" : other));
  const time_control = timeControlOf($("time-control", HTMLSelectElement).value);
  await ensurePlayer(); // its seats are then its player's (see seatQuery)
  let data;
  try {
    data = await api("/api/matches", { json: { game: game.name, options, seats, time_control } });
  } catch (failure) {
    $("home-error").textContent = failureText(failure);
    return;
  }
  saveTokens(data.match, data.seats);
  history.pushState({}, "", `/m/${data.match}`);
  route();
}

// ----- tokens ---------------------------------------------------------------------

function saveTokens(match, seats) {
  localStorage.setItem(`stairgames.match.${match}`, JSON.stringify(seats));
}

function loadTokens(match) {
  try {
    return JSON.parse(localStorage.getItem(`stairgames.match.${match}`) || "[]");
  } catch {
    return [];
  }
}

// ----- match ----------------------------------------------------------------------

async function showMatch(match) {
  hideLobby();
  hideMyGames();
  hideProfile();
  $("home").hidden = true;
  $("match").hidden = false;
  closeSockets();
  app.replay.reset();
  premove.cancel(); // (another game's premove is never played here)
  Object.assign(app, {
    match,
    view: null,
    memory: {},
    lastEvent: -1,
    confirmedSeat: null,
  });
  // the game's rules and the moves it says in words come with the games' listing
  await loadGames();
  // no controls until the first view says which apply (and the sockets are open)
  for (const id of ["undo", "takeback", "resign", "rematch"]) $(id).hidden = true;
  for (const control of wordControls(null)) control.element.hidden = true;
  let seats = loadTokens(match);
  if (!seats.length) {
    const held = await heldSeat(match); // the player's own seat, from another browser
    if (held !== null) seats = [{ seat: held }];
  }
  if (!seats.length && (await hasFreeSeat(match))) {
    await ensurePlayer();
    // (no body, but the type the server asks of every request that changes something)
    try {
      const joined = await api(`/api/matches/${match}/join`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      seats = [joined];
      saveTokens(match, seats);
    } catch {
      // not joined: watched
    }
  }
  app.tokens = Object.fromEntries(seats.map((s) => [s.seat, s.token]));
  app.held = await heldSeats(match);
  if (!seats.length) connect(null);
  for (const seat of seats) connect(seat.seat);
}

// The seat this browser's player holds in the match (by cookie), or null.
async function heldSeat(match) {
  const held = await heldSeats(match);
  return held.length ? held[0] : null;
}

// The seats this browser's player holds in the match (by cookie).
async function heldSeats(match) {
  try {
    return (await api(`/api/my/seats/${match}`)).seats;
  } catch {
    return [];
  }
}

// Whether the match's view (a spectator's) shows an online seat nobody took, in a game
// not over: only then is joining tried (a full match is watched, with no refusal).
async function hasFreeSeat(match) {
  try {
    const view = await api(`/api/matches/${match}`);
    return !view.result && view.seats.some((s) => s.kind === "online" && !s.taken);
  } catch {
    return false;
  }
}

function closeSockets() {
  for (const socket of Object.values(app.sockets)) {
    socket.onclose = null;
    socket.close();
  }
  app.sockets = {};
}

// How a request names its seat: by the seat's number when this browser's player holds it
// (the server checks the player's cookie), else by the seat's token (matches made before
// players, kept in localStorage), which never goes in an address: in the X-Seat-Token
// header, or as the WebSocket's first message.
function seatToken(seat) {
  if (seat === null || app.held.includes(seat)) return null;
  return app.tokens[seat] || null;
}

function seatQuery(seat) {
  return seat === null || seatToken(seat) ? "" : `?seat=${seat}`;
}

function seatHeaders(seat) {
  const token = seatToken(seat);
  return token ? { "x-seat-token": token } : {};
}

function socketUrl(seat) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = seatToken(seat) ? "?auth=message" : seatQuery(seat);
  // the screen-reader mode's texts from the first view on (static/nvui.js)
  const texts = nvuiOn() ? `${query ? "&" : "?"}texts=1` : "";
  return `${scheme}://${location.host}/ws/matches/${app.match}${query}${texts}`;
}

function connect(seat) {
  const match = app.match;
  const socket = new WebSocket(socketUrl(seat));
  app.sockets[seat] = socket;
  socket.onopen = () => {
    const token = seatToken(seat);
    if (token) socket.send(JSON.stringify({ type: "hello", token }));
    if (app.lastEvent >= 0) socket.send(JSON.stringify({ type: "sync", event: app.lastEvent }));
    if (app.lastEvent >= 0) chatReconnected(); // what was said meanwhile (static/chat.js)
    setBanner(null);
  };
  socket.onmessage = (message) => receive(seat, JSON.parse(message.data));
  socket.onclose = (event) => {
    if (app.match !== match) return;
    if (event.code >= 4400 && event.code < 4500) {
      setBanner(null);
      return; // refused (unknown match, wrong token): the error message says why
    }
    setBanner(t("Reconnecting…"));
    const wait = app.retry.next(); // longer each time, until a state came (backoff.js)
    setTimeout(() => {
      if (app.match === match) connect(seat);
    }, wait);
  };
}

function setBanner(text) {
  $("banner").hidden = !text;
  $("banner").textContent = text || "";
}

function receive(seat, message) {
  if (message.type === "error") {
    if (message.error && message.error.code === "database_unavailable" && app.lastSent) {
      // the server could not take it (an outage): kept, sent once the socket is back
      app.pending.keep(app.lastSent.request, app.lastSent.event);
      app.lastSent = null;
      $("match-error").textContent = t(
        "Not connected: your move is sent once the connection is back",
      );
      return;
    }
    $("match-error").textContent = errorText(message.error);
    if (message.error && message.error.code === "stale") {
      send({ type: "sync" });
    }
    return;
  }
  if (message.type === "presence") {
    applyPresence(message);
    return;
  }
  if (message.type === "chat") {
    chatReceived(message); // static/chat.js
    return;
  }
  if (message.type === "analysis") {
    analysisMessage(message); // static/analysis.js: the computer's analysis
    return;
  }
  if (message.type !== "state") return;
  app.retry.succeeded(); // the socket works: a later cut waits the shortest again
  if (
    message.rematch &&
    app.view &&
    !app.view.rematch &&
    message.match === app.match &&
    message.you !== null
  ) {
    followRematch(message.rematch, message.seats.length, message.tokens);
    return;
  }
  if (app.view && message.event < app.view.event) return;
  if (app.view && message.event === app.view.event && seat !== activeSeat(message)) return;
  // Several people at one screen with cards of their own: only the view of the seat
  // the device is passed to is ever shown.
  if (hasPrivateBoards(message) && seat !== activeSeat(message)) return;
  const older = app.view;
  if (older) noticeConnections(older, message);
  noteView(older, message); // its board kept; a new event brings the live position back
  app.view = message;
  app.viewSeat = seat;
  app.lastEvent = message.event;
  // A computer that failed or overran at this event is not asked again: say why.
  const failed = message.computer_error;
  $("match-error").textContent = failed ? errorText(failed) : "";
  render(older ? older.event !== message.event : false);
  sendKept(message);
  sendPremove(message);
}

// A move queued while the opponent thought goes now if legal, else the page says so.
function sendPremove(view) {
  const { send: move, dropped } = premove.settle(view);
  if (move) play(move);
  else if (dropped) $("match-error").textContent = droppedText(dropped, t);
  drawPremove();
}

function queuePremove(move) {
  premove.queue(move, app.view ? app.view.history.length : 0);
  clearSelection(); // the board drawn again, no piece chosen
  render(false);
  drawPremove();
}

function drawPremove() {
  showPremove(premoveLine(), premove.move, t, () => {
    premove.cancel();
    drawPremove();
  });
}

// A move made while the socket was closed goes now, if the game is still where it was
// (static/pending.js); else the page says it was not sent.
function sendKept(view) {
  const { send: again, dropped } = app.pending.settle(view);
  if (again) send(again);
  else if (dropped)
    $("match-error").textContent = t("Your move was not sent: the game went on meanwhile");
}

// At one screen this browser holds several seats: show the view of the seat to act.
function activeSeat(view) {
  const held = Object.keys(app.tokens).map(Number);
  if (held.includes(view.to_act)) return view.to_act;
  if (held.includes(app.confirmedSeat)) return app.confirmedSeat;
  return held.length ? held[0] : null;
}

// A rematch keeps the tokens; each person plays one seat on (the server's rule).
// The server may send the new seats' tokens instead ("tokens": [{seat, token}]).
function followRematch(match, seatCount, tokens = null) {
  const moved = Array.isArray(tokens)
    ? tokens
    : loadTokens(app.match).map((s) => ({
        seat: (s.seat + 1) % seatCount,
        token: s.token,
      }));
  if (moved.length && !loadTokens(match).length) saveTokens(match, moved);
  history.pushState({}, "", `/m/${match}`);
  route();
}

// Who is connected changed: a small message, not a view; only the seats are drawn again.
function applyPresence(presence) {
  const older = app.view;
  if (!older || presence.match !== older.match) return;
  const connected = new Set(presence.connected);
  const seats = older.seats.map((seat) => ({
    ...seat,
    connected: seat.kind === "computer" || connected.has(seat.seat),
  }));
  const view = { ...older, seats, spectators: presence.spectators };
  noticeConnections(older, view);
  app.view = view;
  if ($("pass-cover").hidden) renderSeats(view);
}

function noticeConnections(older, view) {
  for (const seat of view.seats) {
    const before = older.seats.find((s) => s.seat === seat.seat);
    if (!before || before.connected === seat.connected || seat.seat === view.you) continue;
    if (seat.seat in app.tokens) continue; // another person at this screen
    const text = seat.connected
      ? t("{name} joined", { name: seatName(seat) })
      : t("{name} left", { name: seatName(seat) });
    showNotice(text);
  }
}

function showNotice(text) {
  $("notice").textContent = text;
  $("notice").hidden = false;
  clearTimeout(app.noticeTimer);
  app.noticeTimer = setTimeout(() => {
    $("notice").hidden = true;
  }, 5000);
}

function seatName(seat) {
  return t(seat.name);
}

function send(request) {
  const seat = app.view ? activeSeat(app.view) : null;
  const socket = app.sockets[seat] || Object.values(app.sockets)[0];
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    app.pending.keep(request, app.lastEvent); // sent once the socket is back
    $("match-error").textContent = t(
      "Not connected: your move is sent once the connection is back",
    );
    return;
  }
  app.lastSent = { request, event: app.lastEvent };
  socket.send(JSON.stringify({ ...request, event: app.lastEvent }));
}

// The screen-reader mode turned on or off: each open socket asks for its view again,
// with the mode's texts or without them.
function wantTexts(on) {
  for (const socket of Object.values(app.sockets)) {
    if (socket && socket.readyState === WebSocket.OPEN)
      socket.send(JSON.stringify({ type: "sync", texts: on }));
  }
}

function play(move) {
  send({ type: "move", move });
}

async function loadBoardScript(game) {
  if (!app.drawFor || app.drawFor !== game) {
    const module = await import(`/games/${game}/board.js`);
    if (app.drawFor !== game) $("board-notes").replaceChildren(); // another game's notes
    app.draw = module.draw;
    app.drawFor = game;
  }
  return app.draw;
}

// ----- passing the device (several people at one screen, hidden cards) ------------

function hasPrivateBoards(view) {
  return Boolean(view.board && "private" in view.board) && Object.keys(app.tokens).length > 1;
}

// The screen covers the board until the person whose view it is taps to see it.
function coverFor(view) {
  const cover = $("pass-cover");
  const needed =
    hasPrivateBoards(view) &&
    view.board.private &&
    app.replay.at === null &&
    app.viewSeat !== app.confirmedSeat;
  cover.hidden = !needed;
  if (!needed) return false;
  const seat = view.seats.find((s) => s.seat === app.viewSeat);
  const name = seat ? seatName(seat) : String(app.viewSeat);
  $("pass-text").textContent = t("Pass the device to {name}", { name });
  $("pass-show", HTMLButtonElement).textContent = t("I am {name}: show my cards", { name });
  $("board").replaceChildren();
  $("moves").replaceChildren();
  $("pass-show", HTMLButtonElement).focus();
  return true;
}

// Whether an online game waits for this browser's move (the tab's title says so; at one
// screen it always would, so there it does not).
function waitingForMe(view) {
  return (
    view.result === null &&
    view.to_act !== null &&
    view.to_act === view.you &&
    view.seats.some((seat) => seat.kind === "online")
  );
}

async function render(animate) {
  const view = app.view;
  if (!view) return;
  const turn = ++app.renders;
  if (coverFor(view)) return;
  document.title = waitingForMe(view)
    ? `${t("(1) Your turn")} · ${t(view.title)}`
    : `${t(view.title)} · stairgames`;
  tellTurn(view, waitingForMe(view), t(view.title));
  renderAlerts(view);
  $("match-title").textContent = t(view.title);
  renderSeats(view);
  renderTurn(view);
  renderMoves(view);
  renderControls(view);
  renderResult(view);
  renderRules(view);
  renderStepping(view); // static/stepping.js: the banner and the step bar
  renderPlans(view, seatHeaders(view.you)); // static/plans.js: replies planned ahead
  // static/nvui.js: the screen-reader mode, when on, says what changed
  const myTurn = view.to_act !== null && view.to_act === view.you && app.replay.at === null;
  renderNvui({ view, legal: myTurn ? view.legal : [], words: wordsOf(view) });
  renderAnalysis(view); // static/analysis.js: a finished game's analysis, its marks
  // (stepping back during a game keeps the chat live; a finished game's shows what was
  // said by the move shown)
  chatView(
    view,
    { query: seatQuery(view.you), headers: seatHeaders(view.you) },
    view.result === null ? null : app.replay.at,
  );
  const draw = await loadBoardScript(view.game);
  // A newer render may have begun while the board's script loaded: only it draws. (A
  // presence message replaces app.view with a copy and draws no board: not a newer one.)
  if (app.renders !== turn) return;
  const at = app.replay.at;
  const replaying = at !== null;
  const board = app.replay.board(view.board);
  const atTurn = !replaying && view.to_act !== null && view.to_act === view.you;
  const premoving = !atTurn && mayPremove(view, replaying); // static/premove.js
  draw($("board"), board, {
    legal: atTurn ? view.legal : premoving ? view.premoves : [],
    lastMove: replaying ? view.history[at - 1] || null : lastBoardMove(view),
    over: view.result !== null && !replaying,
    play: atTurn ? play : queuePremove,
    t,
    ngettext,
    memory: app.memory,
    you: holdsEverySeat(view) ? null : view.you,
    animate,
    hint: analysisHint(view), // the engine's better move (static/analysis.js)
  });
}

// The moves the view's game says in words (its `move_words` in GET /api/games; none
// until the listing has come).
function wordsOf(view) {
  return gameWords(app.games.find((g) => g.name === view.game));
}

// The last move that moved something: the moves the game shows as notes (an offer to end
// by agreement and its decline) leave the mark on the move before them.
function lastBoardMove(view) {
  const words = wordsOf(view);
  const moves = view.history.filter((m) => !isNote(words, m));
  return moves[moves.length - 1] || null;
}

function holdsEverySeat(view) {
  return (
    view.seats.every((s) => s.seat in app.tokens || s.kind === "computer") &&
    Object.keys(app.tokens).length > 1
  );
}

function renderSeats(view) {
  const list = $("seats");
  list.replaceChildren();
  const items = new Map();
  for (const seat of view.seats) {
    const item = document.createElement("li");
    item.className = `seat${seat.seat === view.to_act ? " to-act" : ""}`;
    item.append(...seatLabelParts(seat, view));
    // a rated game: the player's rating beside their name, with the change once it is over
    const rating = ratingText(seat);
    if (rating) {
      const shown = document.createElement("span");
      shown.className = "seat-rating";
      shown.textContent = rating;
      item.append(" ", shown);
    }
    list.append(item);
    items.set(seat.seat, item);
  }
  showClocks(view, items);
  const waiting =
    view.seats.some((s) => s.kind === "online" && !(s.taken ?? s.connected)) &&
    view.you !== null &&
    view.result === null;
  $("invite").hidden = !waiting;
  const spectators = view.spectators || 0;
  $("spectators").hidden = !spectators;
  $("spectators").textContent = spectators ? t("Spectators: {count}", { count: spectators }) : "";
  $("invite-link", HTMLInputElement).value = `${location.origin}/m/${view.match}`;
}

const PLAYER_MARK = "\u0000"; // where a seat's label names its player (never in a text)

// A seat's label as nodes: its text, another person's name in it a link to their
// profile ("light: Kato", Kato a link).
function seatLabelParts(seat, view) {
  const text = seatLabel(seat, view);
  if (!text.includes(PLAYER_MARK)) return [text];
  const link = document.createElement("a");
  link.className = "seat-player";
  link.href = `/p/${encodeURIComponent(seat.player)}`;
  link.textContent = shownName(seat.player);
  markBot(link, seat.bot);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    go(link.getAttribute("href"));
  });
  const [before, after] = text.split(PLAYER_MARK);
  return [before, link, after];
}

// A seat as its list shows it, whole sentences from the catalog ("light (you)").
// Another person's seat shows their name ("light: Kato", the name where PLAYER_MARK is);
// one's own says "(you)".
function seatLabel(seat, view) {
  if (seat.seat === view.you) return t("{name} (you)", { name: seatName(seat) });
  const other = seat.player && !app.held.includes(seat.seat); // not this screen's
  const name = other
    ? t("{seat}: {player}", { seat: seatName(seat), player: PLAYER_MARK })
    : seatName(seat);
  if (seat.kind === "computer" && seat.level) {
    return t("{name} · computer ({level})", { name, level: t(seat.level) });
  }
  if (seat.kind === "computer") return t("{name} · computer", { name });
  if (seat.kind === "online" && !seat.connected) return t("{name} · not connected", { name });
  return name;
}

// The switches of being told: the turn's sound, and the browser's notifications (asked
// for on this button's click, never on load), in online games.
function renderAlerts(view) {
  const online =
    view.you !== null && view.result === null && view.seats.some((seat) => seat.kind === "online");
  $("alerts").hidden = !online;
  $("sound", HTMLInputElement).checked = soundOn();
  $("notify", HTMLButtonElement).hidden = !mayAskForNotifications();
}

// What the page says while a computer plays its stand-in: the level it plays for and, where
// the game measured it, the level the stand-in is about as strong as.
function standInText(standIn) {
  if (standIn?.like) {
    const args = { level: t(standIn.level), like: t(standIn.like) };
    return t(
      "The computer ({level}) is getting ready (compiling, first time only); until then a stand-in plays for it, about as strong as {like}.",
      args,
    );
  }
  if (standIn?.above && standIn.below) {
    const args = { level: t(standIn.level), above: t(standIn.above), below: t(standIn.below) };
    return t(
      "The computer ({level}) is getting ready (compiling, first time only); until then a stand-in plays for it, stronger than {above} and weaker than {below}.",
      args,
    );
  }
  if (standIn) {
    const args = { level: t(standIn.level) };
    return t(
      "The computer ({level}) is getting ready (compiling, first time only); until then a quicker, weaker stand-in plays for it.",
      args,
    );
  }
  return t(
    "The computer is getting ready (compiling, first time only); until then it plays a quicker, weaker search.",
  );
}

function renderTurn(view) {
  let text = "";
  if (view.result) text = t("Game over");
  else if (view.to_act !== null && view.to_act === view.you) text = t("Your move");
  else if (view.to_act !== null) {
    const seat = view.seats.find((s) => s.seat === view.to_act);
    text = t("{name} to move", { name: seat ? seatName(seat) : String(view.to_act) });
  }
  $("turn").textContent = text;
  $("watching").hidden = view.you !== null;
  $("thinking").hidden = !view.thinking;
  // its compiled code still compiling (first time only), the computer plays a weaker stand-in
  const note = $("computer-note");
  note.hidden = view.computer_note !== "warming";
  if (!note.hidden) note.textContent = standInText(view.computer_stand_in);
  const prompt = $("prompt");
  prompt.textContent = "";
  const words = wordsOf(view);
  const answering = (view.legal || []).some((move) => isNote(words, move));
  if (view.offer && view.offer.by !== view.you && answering) {
    prompt.textContent = t("Your opponent offers to end the game by agreement.");
  }
  if (view.takeback && view.takeback.by !== view.you && view.you !== null) {
    prompt.textContent = t("Your opponent asks to take back the last move.");
    prompt.append(
      button(t("Allow"), () => send({ type: "takeback_answer", accept: true })),
      button(t("Refuse"), () => send({ type: "takeback_answer", accept: false })),
    );
  }
  for (const line of toldLines(view)) prompt.append(line);
  const box = $("words");
  box.replaceChildren();
  const atTurn = view.to_act !== null && view.to_act === view.you && app.replay.at === null;
  const legal = atTurn ? view.legal : [];
  // A lone word that the game explains says why (Stairs' S4: who has no move passes).
  const forced = legal.length === 1 ? wordOf(words, legal[0])?.word.forced : undefined;
  if (forced) {
    const why = document.createElement("span");
    why.className = "why-pass";
    why.textContent = t(forced);
    box.append(why, " ");
  }
  for (const word of wordButtons(words, legal).turn) {
    box.append(button(t(word.label), () => play(word.move)));
  }
}

// The buttons among the controls of the words a game offers there (Stairs' offer to end
// by agreement): the page's element whose id is the move; those of every game where
// `view` is null.
function wordControls(view) {
  const words = view ? wordsOf(view) : app.games.flatMap((game) => gameWords(game));
  return words
    .filter((word) => word.control && word.button !== false)
    .map((word) => ({ word, element: document.getElementById(word.move) }))
    .filter((control) => control.element instanceof HTMLButtonElement);
}

function told(text, ...buttons) {
  const line = document.createElement("p");
  line.className = "told";
  line.append(capitalise(text), ...buttons);
  return line;
}

// What happened that the board does not show, said to everyone it concerns: a declined
// offer, a takeback waiting for its answer or refused, players who resigned and left a
// computer in their seat, a rematch offered.
function toldLines(view) {
  const lines = [];
  const you = view.you;
  const name = (seat) => seatName(view.seats[seat]);
  // the last move, where its game says it to everyone (a declined offer)
  const said = view.last_move ? wordOf(wordsOf(view), view.last_move)?.word.told : undefined;
  if (said && view.last_mover !== null && view.last_mover !== undefined) {
    const [mine, theirs] = said;
    lines.push(
      told(view.last_mover === you ? t(mine) : t(theirs, { name: name(view.last_mover) })),
    );
  }
  if (view.takeback && view.takeback.by === you && you !== null) {
    lines.push(told(t("You asked to take back your last move; waiting for the answer…")));
  }
  const outcome = view.takeback_outcome;
  if (outcome && outcome.by === you && you !== null) {
    lines.push(
      told(
        outcome.outcome === "accepted"
          ? t("Your takeback was accepted.")
          : outcome.outcome === "lapsed"
            ? t("Nobody answered your takeback in time.")
            : t("Your takeback was refused."),
      ),
    );
  }
  for (const seat of view.left || []) {
    const level = view.seats[seat].level;
    lines.push(
      told(
        t("{name} resigned and left; the computer ({level}) plays on for them.", {
          name: name(seat),
          level: t(level || "medium"),
        }),
      ),
    );
  }
  if (view.result) lines.push(...rematchLines(view));
  return lines;
}

function rematchLines(view) {
  const asked = view.rematch_asked || [];
  const you = view.you;
  if (view.rematch && you === null) {
    return [
      told(
        t("The players started a rematch."),
        " ",
        button(t("Watch the rematch"), () => {
          history.pushState({}, "", `/m/${view.rematch}`);
          route();
        }),
      ),
    ];
  }
  if (view.rematch || !asked.length) return [];
  if (you !== null && asked.includes(you)) {
    return [told(t("You offered a rematch; waiting for the others to accept…"))];
  }
  const names = { names: asked.map((s) => ({ id: view.seats[s].name })), and: true };
  const text = t("Rematch offered by {names}.", { names });
  if (you === null) return [told(text)];
  return [
    told(
      text,
      " ",
      button(t("Accept the rematch"), () => send({ type: "rematch" })),
      button(t("Decline the rematch"), () => send({ type: "rematch_decline" })),
    ),
  ];
}

// The move list, newest last and scrolled to: a game that tells its moves (dice, draws,
// deals) has the server's narration for this viewer, one entry a move; other two-player
// games pair the moves of a round ("1. c3-d4 d4-c3"); moves that are words are said as
// their game declared them, and those it declares notes (an offer and its answer) stand
// under the move before them, no move of the pairs (each seat's moves stay in its
// column). A note is no step of its own: only the moves are buttons.
function renderMoves(view) {
  const list = $("moves");
  const told = Array.isArray(view.narration) ? view.narration : null;
  const history = view.history;
  const words = wordsOf(view);
  const rounds = moveRounds(history, view.seats.length, Boolean(told), words);
  let current = null;
  // The move shown (the newest when the position is the live one) is marked; each move
  // is a button that shows the position after it (static/stepping.js).
  const shown = app.replay.shown(history.length);
  /** @param {HTMLElement} element @param {number} i @param {HTMLElement} item */
  const mark = (element, i, item) => {
    if (i !== shown - 1) return;
    element.classList.add("current");
    element.setAttribute("aria-current", "step");
    if (app.replay.at !== null) current = item;
  };
  list.classList.toggle("told", Boolean(told));
  list.replaceChildren(
    ...rounds.map((listed, round) => {
      const item = document.createElement("li");
      const number = document.createElement("span");
      number.className = "no";
      number.textContent = `${round + 1}.`;
      item.append(number);
      for (const { index: i, notes } of listed) {
        const move = document.createElement("button");
        move.type = "button";
        move.className = told || isWord(words, history[i]) ? "move word" : "move";
        move.dataset.move = history[i]; // the notation, as the record writes it
        move.dataset.ply = String(i + 1); // the position after it
        move.textContent = told
          ? (told[i] || [history[i]])
              .map((line) => capitalise(say(line)))
              .join(language() === "ja" ? "" : " ") // Japanese sentences need no space between
          : moveText(history[i], words);
        mark(move, i, item);
        if (!notes.length) {
          item.append(move);
          continue;
        }
        // the move and its notes under it, in one box of the row (a flex item)
        const box = document.createElement("div");
        box.className = "move-with-notes";
        box.append(move);
        for (const n of notes) {
          const note = document.createElement("div");
          note.className = "move-note";
          note.dataset.move = history[n];
          note.textContent = moveText(history[n], words);
          mark(note, n, item);
          box.append(note);
        }
        item.append(box);
      }
      return item;
    }),
  );
  // The newest move in sight; stepping through a finished game, the move reached.
  list.scrollTop = current
    ? current.offsetTop - list.offsetTop - list.clientHeight / 2
    : list.scrollHeight;
}

function renderControls(view) {
  const over = view.result !== null;
  const player = view.you !== null;
  const computer = view.seats.some((s) => s.kind === "computer");
  // Whether taking back is allowed at all is the server's to say (can_undo, can_takeback).
  $("undo", HTMLButtonElement).hidden = !view.can_undo || !(computer || holdsEverySeat(view));
  $("undo", HTMLButtonElement).disabled = view.history.length === 0;
  $("takeback", HTMLButtonElement).hidden = !view.can_takeback;
  $("takeback", HTMLButtonElement).disabled = view.history.length === 0 || Boolean(view.takeback);
  for (const { word, element } of wordControls(view)) {
    element.hidden = !(view.legal || []).includes(word.move) || over;
    element.textContent = t(word.label);
    element.onclick = () => play(word.move);
  }
  $("resign", HTMLButtonElement).hidden = !player || over;
  // (a rematch offered: its Accept and Decline buttons answer it)
  const offered = (view.rematch_asked || []).length > 0 && !view.rematch;
  $("rematch", HTMLButtonElement).hidden = !player || !over || offered;
}

function renderResult(view) {
  const box = $("result");
  box.hidden = !view.result;
  if (!view.result) return;
  const winners = view.result.winners || [];
  // At one screen with several people "you" is nobody in particular: name the winner.
  const you = holdsEverySeat(view) ? null : view.you;
  let head;
  const shared = winners.length > 1 && winners.length < view.seats.length;
  if (view.result.aborted) head = t("Game aborted");
  else if (you !== null && winners.includes(you)) {
    head = shared ? t("You share the win") : t("You win");
  } else if (you !== null && winners.length) head = t("You lose");
  else if (!winners.length) head = t("Draw");
  else if (shared) {
    head = t("{names} share the win", {
      names: { names: winners.map((w) => ({ id: view.seats[w].name })), and: true },
    });
  } else head = t("{name} wins", { name: seatName(view.seats[winners[0]]) });
  // The arguments are texts too (a colour {"id": "red"}, a list of scores): t says them.
  const reason = view.result.reason_id
    ? t(view.result.reason_id, view.result.reason_args || {})
    : view.result.reason || "";
  const strong = document.createElement("strong");
  strong.textContent = capitalise(head);
  const because = document.createElement("span");
  because.className = "reason";
  because.textContent = capitalise(reason);
  box.replaceChildren(strong, because);
  const changed = ratingChanges(view.seats, (seat) =>
    seat.player ? shownName(seat.player) : seatName(seat),
  );
  if (changed) {
    const ratings = document.createElement("div");
    ratings.className = "rating-changes";
    ratings.textContent = t("Ratings: {changes}", { changes: changed });
    box.append(ratings);
  }
  // coloured by what it means to the viewer: won, lost, or neither (a draw, an abort,
  // a spectator's view)
  box.dataset.outcome = resultOutcome(view, you, winners);
}

/**
 * The viewer's outcome of a finished game: "won", "lost" or "neutral".
 *
 * @param {any} view
 * @param {number | null} you
 * @param {number[]} winners
 * @returns {string}
 */
function resultOutcome(view, you, winners) {
  if (view.result.aborted || you === null || !winners.length) return "neutral";
  return winners.includes(you) ? "won" : "lost";
}

function renderRules(view) {
  const text = $("rules-text");
  const game = app.games.find((g) => g.name === view.game);
  text.replaceChildren(
    ...(game?.rules_summary || []).map((line) => {
      const p = document.createElement("p");
      p.textContent = t(line);
      return p;
    }),
  );
}

async function downloadRecord() {
  const seat = app.view ? app.view.you : null;
  let record;
  try {
    record = await api(`/api/matches/${app.match}/record${seatQuery(seat)}`, {
      headers: seatHeaders(seat),
    });
  } catch {
    $("match-error").textContent = t("The record could not be downloaded.");
    return;
  }
  const blob = new Blob([JSON.stringify(record, null, 2)], {
    type: "application/json",
  });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${app.view.game}-${app.match}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

// ----- start ----------------------------------------------------------------------

// Forget the board's selection (a piece chosen): the position shown changed.
function clearSelection() {
  app.memory = {};
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

// Leave the home and match pages (and any other of the site's pages) for one of them;
// the games' listing is loaded first, for their titles and seats.
async function openPage(show) {
  closeSockets();
  app.match = null;
  for (const id of ["pass-cover", "home", "match"]) $(id).hidden = true;
  hideLobby();
  hideMyGames();
  hideProfile();
  await loadGames();
  show();
}

function route() {
  hideAnalysisBoard();
  hidePuzzles();
  hideTournaments();
  const match = /^\/m\/([A-Za-z0-9_-]+)/.exec(location.pathname);
  if (match) showMatch(match[1]);
  else if (location.pathname === "/analysis") {
    openPage(() => showAnalysisBoard(app.games, saveTokens, go));
  } else if (/^\/puzzles(\/|$)/.test(location.pathname)) {
    openPage(() => showPuzzles(app.games, go));
  } else if (/^\/tournaments(\/|$)/.test(location.pathname)) {
    openPage(() => showTournaments(app.games, go));
  } else if (location.pathname === "/lobby") openPage(() => showLobby(app.games, saveTokens, go));
  else if (location.pathname === "/my") openPage(() => showMyGames(app.games, go));
  else if (location.pathname.startsWith("/p/")) {
    const name = decodeURIComponent(location.pathname.slice(3));
    openPage(() => showProfile(name, app.games, go));
  } else {
    closeSockets();
    app.match = null;
    showHome();
  }
}

function wire() {
  const select = $("lang", HTMLSelectElement);
  select.replaceChildren(
    ...Object.entries(LANGUAGES).map(
      ([code, name]) => new Option(name, code, false, code === language()),
    ),
  );
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange(() => {
    select.value = language();
    if (!$("home").hidden && app.games.length) renderHome();
    if (app.view) render(false);
  });
  $("new-game").addEventListener("submit", startGame);
  $("pass-show", HTMLButtonElement).addEventListener("click", () => {
    app.confirmedSeat = app.viewSeat;
    render(false);
  });
  $("sound", HTMLInputElement).addEventListener("change", () =>
    setSound($("sound", HTMLInputElement).checked),
  );
  $("notify", HTMLButtonElement).addEventListener("click", async () => {
    await askForNotifications();
    $("notify", HTMLButtonElement).hidden = !mayAskForNotifications();
  });
  $("undo", HTMLButtonElement).addEventListener("click", () => send({ type: "undo" }));
  $("takeback", HTMLButtonElement).addEventListener("click", () => send({ type: "takeback" }));
  $("resign", HTMLButtonElement).addEventListener("click", () => {
    if (confirm(t("Resign this game?"))) send({ type: "resign" });
  });
  $("rematch", HTMLButtonElement).addEventListener("click", () => {
    if (app.view?.rematch) followRematch(app.view.rematch, app.view.seats.length);
    else send({ type: "rematch" });
  });
  $("record", HTMLButtonElement).addEventListener("click", downloadRecord);
  $("copy-invite", HTMLButtonElement).addEventListener("click", () => {
    $("invite-link", HTMLInputElement).select();
    if (navigator.clipboard)
      navigator.clipboard.writeText($("invite-link", HTMLInputElement).value);
  });
  $("rules-toggle", HTMLButtonElement).addEventListener("click", () => {
    const open = $("rules").hidden;
    $("rules").hidden = !open;
    $("rules-toggle", HTMLButtonElement).setAttribute("aria-expanded", String(open));
  });
  // the move list, the step bar and ←/→, Home/End step through the game
  initStepping({ app, render, clearSelection, seatQuery, seatHeaders });
  initAnalysis({ app, go }); // static/analysis.js
  initNvui({ play, wantTexts }); // static/nvui.js: the screen-reader mode
  window.addEventListener("popstate", route);
}

wire();
setLanguage(preferredLanguage()).then(route);
