// The lobby page (/lobby): open challenges, live over /ws/lobby, and a form to open one.
// Accepting or opening a challenge makes this browser a player first when it is none yet
// (it plays as "Anonymous N" until it chooses a name), keeps the seat's token like any
// match's, and goes to the match. A challenge may name one player (/lobby?to=Name, the
// profile's Challenge): only they and its creator see it; theirs shows under "Challenges
// to you", with Decline.
import { language, onLanguageChange, t } from "./i18n.js";
import { $, has } from "./dom.js";
import { api, failureText } from "./net.js";
import { currentPlayer, ensurePlayer, shownName } from "./player.js";
import { botName, markBot } from "./botmark.js";
import { fillSeatChoices, optionInput, optionValues } from "./optionform.js";
import { isEditable, optionLabel, optionsSummary } from "./pagetext.js";
import { fileChooser } from "./setup.js";
import { fillTimeControls, timeControlOf, timeControlText } from "./clock.js";

const lobby = {
  socket: null,
  challenges: [],
  live: [],
  games: [],
  open: false,
  saveTokens: null,
  go: null,
  to: null,
};

function titleOf(name) {
  const game = lobby.games.find((g) => g.name === name);
  return game ? t(game.title) : name;
}

// The options that differ from the game's defaults, as the game tells them, in the
// reader's language ("4×4 board · pie rule: yes").
function optionsText(challenge) {
  const game = lobby.games.find((g) => g.name === challenge.game);
  return game ? optionsSummary(game.options, challenge.options || {}) : "";
}

function row(challenge) {
  const item = document.createElement("li");
  item.className = "challenge";
  item.dataset.challenge = challenge.id;
  const title = document.createElement("strong");
  title.textContent = titleOf(challenge.game);
  const details = document.createElement("span");
  const creator = shownName(challenge.creator.name) ?? "?";
  const rating = challenge.creator.rating ? ` (${challenge.creator.rating})` : "";
  const profile = document.createElement("a");
  profile.href = `/p/${encodeURIComponent(challenge.creator.name ?? "")}`;
  profile.textContent = creator + rating;
  markBot(profile, challenge.creator.bot);
  profile.addEventListener("click", (event) => {
    event.preventDefault();
    lobby.go(profile.getAttribute("href"));
  });
  details.textContent = [
    optionsText(challenge),
    t("{taken} of {seats} seats taken", { taken: challenge.taken, seats: challenge.seats }),
    timeControlText(challenge.time_control),
    challenge.rated ? t("rated") : t("casual"),
    challenge.to ? t("for {name} alone", { name: shownName(challenge.to) ?? "?" }) : "",
    t("by"),
  ]
    .filter(Boolean)
    .join(" · ");
  const button = document.createElement("button");
  button.type = "button";
  const mine = challenge.creator.name !== null && challenge.creator.name === currentPlayer().name;
  button.textContent = mine ? t("Withdraw") : t("Accept");
  button.addEventListener("click", () => (mine ? withdraw(challenge) : accept(challenge)));
  item.append(title, " ", details, " ", profile, " ", button);
  if (toMe(challenge)) {
    const decline = document.createElement("button");
    decline.type = "button";
    decline.className = "challenge-decline";
    decline.textContent = t("Decline");
    decline.addEventListener("click", () =>
      post(`/api/challenges/${challenge.id}/decline`, undefined),
    );
    item.append(" ", decline);
  }
  return item;
}

// Whether the challenge names this browser's player (and is not their own).
function toMe(challenge) {
  const me = currentPlayer().name;
  return Boolean(challenge.to) && challenge.to === me && challenge.creator.name !== me;
}

// The list of the challenges to this player, above the lobby's (made here: the page has
// no place of its own for it), hidden when there is none.
function toYouList() {
  const found = document.getElementById("challenges-to-you");
  if (found) return found;
  const heading = document.createElement("h2");
  heading.id = "challenges-to-you-heading";
  const list = document.createElement("ul");
  list.id = "challenges-to-you";
  list.className = "challenges";
  $("challenges").before(heading, list);
  return list;
}

// The line of the challenge form naming the player it is for, with a button to open it
// to anyone instead (made here, as above).
function renderTo() {
  let line = document.getElementById("challenge-to");
  if (!line) {
    line = document.createElement("p");
    line.id = "challenge-to";
    $("challenge-heading").after(line);
  }
  line.hidden = !lobby.to;
  if (!lobby.to) return;
  const anyone = document.createElement("button");
  anyone.type = "button";
  anyone.textContent = t("Open to anyone");
  anyone.addEventListener("click", () => {
    lobby.to = null;
    history.replaceState(history.state, "", "/lobby");
    renderTo();
  });
  line.replaceChildren(t("A challenge to {name}", { name: shownName(lobby.to) }), " ", anyone);
}

function liveRow(game) {
  const item = document.createElement("li");
  item.className = "live-game";
  const names = game.players
    .map((name, i) => botName(shownName(name) || t("the computer"), game.bots?.[i]))
    .join(" – ");
  const link = document.createElement("a");
  link.href = `/m/${game.id}`;
  link.textContent = t("Watch");
  link.addEventListener("click", (event) => {
    event.preventDefault();
    lobby.go(`/m/${game.id}`);
  });
  item.append(`${titleOf(game.game)} · ${names} `, link);
  return item;
}

function render() {
  const toYou = lobby.challenges.filter(toMe);
  const others = lobby.challenges.filter((challenge) => !toMe(challenge));
  const list = toYouList();
  list.replaceChildren(...toYou.map(row));
  list.hidden = toYou.length === 0;
  const heading = $("challenges-to-you-heading");
  heading.textContent = t("Challenges to you");
  heading.hidden = list.hidden;
  $("challenges").replaceChildren(...others.map(row));
  $("live-games").replaceChildren(...lobby.live.map(liveRow));
  $("no-challenges").hidden = others.length > 0;
  renderTo();
}

async function post(url, body, method = "POST") {
  let data;
  try {
    // (the content type the server asks of every request that changes something)
    const headers = { "content-type": "application/json" };
    data = await api(url, { method, json: body, headers });
  } catch (failure) {
    $("lobby-error").textContent = failureText(failure);
    return null;
  }
  $("lobby-error").textContent = "";
  return data;
}

async function accept(challenge) {
  if (!(await ensurePlayer())) {
    $("lobby-error").textContent = t("The server cannot be reached.");
    return;
  }
  const data = await post(`/api/challenges/${challenge.id}/accept`, {});
  if (!data) return;
  lobby.saveTokens(data.match, [{ seat: data.seat, token: data.token }]);
  lobby.go(`/m/${data.match}`);
}

async function withdraw(challenge) {
  await post(`/api/challenges/${challenge.id}`, undefined, "DELETE");
}

// The seats of a new challenge: the creator's, one for the lobby per person asked for,
// the rest the computer's (games of 3-4 players).
function seatsFor(count, people) {
  const seats = ["human"];
  for (let seat = 1; seat < count; seat += 1) {
    seats.push(
      seat < people ? "online" : `computer:${$("challenge-level", HTMLSelectElement).value}`,
    );
  }
  return seats;
}

function renderForm() {
  const select = $("challenge-game", HTMLSelectElement);
  const chosen = select.value;
  select.replaceChildren(
    ...lobby.games.filter((g) => g.web !== false).map((g) => new Option(t(g.title), g.name)),
  );
  if (chosen) select.value = chosen;
  const game = lobby.games.find((g) => g.name === select.value);
  const counts =
    game && Object.keys(game.seats_by_players || {}).length
      ? Object.keys(game.seats_by_players).map(Number)
      : [game ? game.seat_names.length : 2];
  const countSelect = $("challenge-players", HTMLSelectElement);
  const previous = Number(countSelect.value);
  countSelect.replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
  if (counts.includes(previous)) countSelect.value = String(previous);
  $("challenge-players-label").hidden = counts.length < 2;
  const total = Number(countSelect.value);
  const people = $("challenge-people", HTMLSelectElement);
  const wanted = Number(people.value) || total;
  people.replaceChildren(
    ...Array.from({ length: total - 1 }, (_, i) => i + 2).map(
      (n) => new Option(String(n), String(n)),
    ),
  );
  people.value = String(Math.min(Math.max(wanted, 2), total));
  $("challenge-people-label").hidden = total < 3;
  const computers = Number(people.value) < total;
  $("challenge-level-label").hidden = !computers;
  const levels = game ? game.levels || [] : [];
  const level = $("challenge-level", HTMLSelectElement);
  if (level.options.length !== levels.length) {
    level.replaceChildren(...levels.map((l) => new Option(t(l), l)));
  }
  fillTimeControls($("challenge-time", HTMLSelectElement), game);
  renderOptions(game, total);
  offerRated(!computers && !fileChosen());
}

// A rated game is between people, with the game's own cards: no computer seat, no
// uploaded file (the server refuses either).
function offerRated(offered) {
  const rated = $("challenge-rated", HTMLInputElement);
  rated.disabled = !offered;
  if (!offered) rated.checked = false;
}

function fileChosen() {
  const files = $("challenge-options").querySelectorAll('select[data-kind="file"]');
  return [...files].some((select) => select instanceof HTMLSelectElement && select.value);
}

// The options a challenge sets: every one its game offers but the number of seats (the
// form's own "How many play"); an option of kind "file" is the home page's chooser
// (setup.js), its ids after "challenge-".
function challengeOptions(game) {
  if (!game) return [];
  return game.options.filter((option) => isEditable(option) && !option.seats_from);
}

function challengeInput(option) {
  return option.kind === "file"
    ? fileChooser(option, t(optionLabel(option)), "challenge-")
    : optionInput(option);
}

// The game's option inputs, drawn again when the game or the language changes (their
// values kept otherwise), with the seats of `count` to choose from.
function renderOptions(game, count) {
  const box = $("challenge-options");
  const drawnFor = `${game ? game.name : ""} ${language()}`;
  if (box.dataset.drawnFor !== drawnFor) {
    box.replaceChildren(...challengeOptions(game).map(challengeInput));
    box.dataset.drawnFor = drawnFor;
  }
  if (!game) return;
  const names = game.seats_by_players?.[String(count)] || game.seat_names;
  fillSeatChoices(box, names.slice(0, count));
}

async function openChallenge(event) {
  event.preventDefault();
  if (!(await ensurePlayer())) {
    $("lobby-error").textContent = t("The server cannot be reached.");
    return;
  }
  const game = $("challenge-game", HTMLSelectElement).value;
  const count = Number($("challenge-players", HTMLSelectElement).value);
  // (a challenge to one player has one seat for them: the rest, the computer's)
  const asked = count < 3 ? count : Number($("challenge-people", HTMLSelectElement).value);
  const people = lobby.to ? 2 : asked;
  const spec = lobby.games.find((g) => g.name === game);
  const options = optionValues($("challenge-options"), challengeOptions(spec));
  const counted = spec?.options.find((option) => option.seats_from);
  if (counted && Object.keys(spec.seats_by_players || {}).length) options[counted.name] = count;
  const data = await post("/api/challenges", {
    game,
    options,
    seats: seatsFor(count, people),
    rated: $("challenge-rated", HTMLInputElement).checked,
    time_control: timeControlOf($("challenge-time", HTMLSelectElement).value),
    ...(lobby.to ? { to: lobby.to } : {}),
  });
  if (!data) return;
  lobby.saveTokens(data.match, data.seats);
  lobby.go(`/m/${data.match}`);
}

function listen() {
  if (lobby.socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  lobby.socket = socket;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "lobby") return;
    lobby.challenges = message.challenges;
    lobby.live = message.live || [];
    render();
  });
  socket.addEventListener("close", () => {
    if (lobby.socket === socket) lobby.socket = null;
    if (lobby.open) setTimeout(listen, 2000);
  });
}

// Show the lobby; ``games`` is /api/games' list, ``saveTokens(match, seats)`` and
// ``go(path)`` the page's own.
export function showLobby(games, saveTokens, go) {
  const to = new URLSearchParams(location.search).get("to");
  Object.assign(lobby, { games, saveTokens, go, open: true, to: to || null });
  $("lobby").hidden = false;
  renderForm();
  render();
  listen();
}

export function hideLobby() {
  lobby.open = false;
  $("lobby").hidden = true;
  // (no second "Variant" on the page while the home page's form shows)
  $("challenge-options").replaceChildren();
  delete $("challenge-options").dataset.drawnFor;
  if (lobby.socket) {
    const socket = lobby.socket;
    lobby.socket = null;
    socket.close();
  }
}

function start() {
  if (!has("lobby")) return;
  $("challenge-form").addEventListener("submit", openChallenge);
  for (const id of [
    "challenge-game",
    "challenge-players",
    "challenge-people",
    "challenge-options",
  ]) {
    $(id).addEventListener("change", renderForm);
  }
  onLanguageChange(() => {
    if (lobby.open) {
      renderForm();
      render();
    }
  });
}

start();
