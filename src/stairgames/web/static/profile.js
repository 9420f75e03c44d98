// A player's profile (/p/{name}): name, when they started, a rating per game (and pool)
// with its uncertainty and number of rated games, and their recent games.
import { onLanguageChange, t } from "./i18n.js";
import { shownName } from "./player.js";
import { $ } from "./dom.js";
import { api } from "./net.js";

const profile = { data: null, games: [], go: null, open: false };

// "stairs size=6" as "Stairs (size 6)".
function poolText(pool) {
  const [name, ...options] = pool.split(" ");
  const game = profile.games.find((g) => g.name === name);
  const title = game ? t(game.title) : name;
  return options.length ? `${title} (${options.join(", ").replace(/=/g, " ")})` : title;
}

function ratingRow(pool, rating) {
  const row = document.createElement("tr");
  const cells = [
    poolText(pool),
    rating.shown,
    `± ${(3 * rating.sigma).toFixed(1)}`,
    String(rating.games),
  ];
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(cell);
  }
  return row;
}

function gameRow(game) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = `/m/${game.match}`;
  const title = profile.games.find((g) => g.name === game.game);
  link.textContent = title ? t(title.title) : game.game;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    profile.go(`/m/${game.match}`);
  });
  const names = game.players.map((p) => shownName(p.name) || t("the computer")).join(" – ");
  item.append(link, ` · ${names}`);
  return item;
}

function render() {
  const data = profile.data;
  if (!data) return;
  $("profile-name").textContent = shownName(data.name);
  $("profile-since").textContent = t("Playing since {date}", { date: data.created });
  const pools = Object.entries(data.ratings);
  $("profile-ratings").replaceChildren(...pools.map(([pool, rating]) => ratingRow(pool, rating)));
  $("profile-no-ratings").hidden = pools.length > 0;
  $("profile-ratings").closest("table").hidden = pools.length === 0;
  $("profile-games").replaceChildren(...data.games.map(gameRow));
}

export async function showProfile(name, games, go) {
  Object.assign(profile, { games, go, open: true, data: null });
  $("profile").hidden = false;
  $("profile-error").textContent = "";
  try {
    profile.data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch {
    $("profile-name").textContent = name;
    $("profile-error").textContent = t("no such player");
    return;
  }
  render();
}

export function hideProfile() {
  profile.open = false;
  $("profile").hidden = true;
}

onLanguageChange(() => {
  if (profile.open) render();
});
