// "My games" (/my): the player's games, those waiting for them first, then the others
// going on, then the finished ones with their results, a page at a time; each opens the
// match (its replay, once over).
import { onLanguageChange, t } from "./i18n.js";
import { showWaiting, shownName } from "./player.js";
import { $, has } from "./dom.js";
import { api } from "./net.js";

const mine = { page: 1, data: null, games: [], go: null, open: false };

function titleOf(name) {
  const game = mine.games.find((g) => g.name === name);
  return game ? t(game.title) : name;
}

function opponents(game) {
  return game.players
    .filter((p) => !game.seats.includes(p.seat))
    .map((p) => shownName(p.name) || (p.kind === "computer" ? t("the computer") : t("a free seat")))
    .join(t(", "));
}

function status(game) {
  if (game.your_turn) return t("Your move");
  if (!game.over) return t("Waiting for the others");
  if (game.result?.winners.some((w) => game.seats.includes(w))) {
    return game.result.winners.length > 1 ? t("Shared win") : t("Won");
  }
  return t("Lost");
}

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
  item.append(link, details);
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
}

async function load() {
  try {
    mine.data = await api(`/api/my/games?page=${mine.page}`);
    $("my-games-error").textContent = "";
    showWaiting(mine.data.waiting);
  } catch {
    mine.data = { games: [], page: 1, pages: 1 };
    $("my-games-error").textContent = t("Choose a name to keep your games.");
  }
  render();
}

export function showMyGames(games, go) {
  Object.assign(mine, { games, go, open: true, page: 1 });
  $("my-games").hidden = false;
  load();
}

export function hideMyGames() {
  mine.open = false;
  $("my-games").hidden = true;
}

function start() {
  if (!has("my-games")) return;
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
}

start();
