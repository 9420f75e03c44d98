// A player's profile (/p/{name}): name (and the names they had), when they started, a
// rating per game (and pool) with its uncertainty and number of rated games, and their
// recent games.
import { onLanguageChange, t } from "./i18n.js";
import { shownName } from "./player.js";
import { $ } from "./dom.js";
import { api } from "./net.js";

/**
 * A game of a profile's recent games.
 *
 * @typedef {{match: string, game: string, players: {name: string | null}[]}} PlayedGame
 */

/**
 * GET /api/players/{name}: the player, a rating per pool, recent games.
 *
 * @typedef {object} Profile
 * @property {string} name
 * @property {string} created
 * @property {Record<string, {shown: string, sigma: number, games: number}>} ratings
 * @property {PlayedGame[]} games
 */

/**
 * GET /api/names/{name}: the player's name now and the names they left after rated games.
 *
 * @typedef {{id: string, name: string, former: {name: string, until: string}[]}} NameHistory
 */

/**
 * @type {{data: Profile | null, names: NameHistory | null, games: import("./types.js").Game[],
 *   go: (path: string) => void, open: boolean}}
 */
const profile = { data: null, names: null, games: [], go: () => {}, open: false };

// "stairs size=6" as "Stairs (size 6)".
/**
 * @param {string} pool
 * @returns {string}
 */
function poolText(pool) {
  const [name, ...options] = pool.split(" ");
  const game = profile.games.find((g) => g.name === name);
  const title = game ? t(game.title) : name;
  return options.length ? `${title} (${options.join(", ").replace(/=/g, " ")})` : title;
}

/**
 * @param {string} pool
 * @param {Profile["ratings"][string]} rating
 * @returns {HTMLTableRowElement}
 */
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

/**
 * @param {PlayedGame} game
 * @returns {HTMLLIElement}
 */
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

// The line under the name that shows the names a player had: "Beto → Roberto" (made
// here, after "profile-name": the page has no place of its own for it).
/** @returns {HTMLElement} */
function namesLine() {
  const found = document.getElementById("profile-names");
  if (found) return found;
  const line = document.createElement("p");
  line.id = "profile-names";
  $("profile-name").after(line);
  return line;
}

function renderNames() {
  const former = profile.names?.former ?? [];
  const line = namesLine();
  line.hidden = former.length === 0;
  line.textContent = [...former.map((entry) => entry.name), profile.data?.name ?? ""].join(" → ");
  line.title = former.map((entry) => `${entry.name}: ${entry.until}`).join("\n");
}

function render() {
  const data = profile.data;
  if (!data) return;
  $("profile-name").textContent = shownName(data.name);
  renderNames();
  $("profile-since").textContent = t("Playing since {date}", { date: data.created });
  const pools = Object.entries(data.ratings);
  $("profile-ratings").replaceChildren(...pools.map(([pool, rating]) => ratingRow(pool, rating)));
  $("profile-no-ratings").hidden = pools.length > 0;
  const table = $("profile-ratings").closest("table");
  if (table) table.hidden = pools.length === 0;
  $("profile-games").replaceChildren(...data.games.map(gameRow));
}

/**
 * Show a player's profile; `games` is /api/games' list, `go(path)` the page's own.
 *
 * @param {string} name
 * @param {import("./types.js").Game[]} games
 * @param {(path: string) => void} go
 */
export async function showProfile(name, games, go) {
  Object.assign(profile, { games, go, open: true, data: null, names: null });
  $("profile").hidden = false;
  $("profile-error").textContent = "";
  namesLine().hidden = true;
  const address = encodeURIComponent(name);
  try {
    profile.data = await api(`/api/players/${address}`);
  } catch {
    $("profile-name").textContent = name;
    $("profile-error").textContent = t("no such player");
    return;
  }
  const data = profile.data;
  // a former name (kept for the player) leads to their profile under the name they have now
  if (data && data.name !== name && location.pathname === `/p/${address}`) {
    history.replaceState(history.state, "", `/p/${encodeURIComponent(data.name)}`);
  }
  render();
  try {
    profile.names = await api(`/api/names/${address}`);
  } catch {
    profile.names = null; // the history is a detail: the profile stands without it
  }
  if (profile.data === data) renderNames();
}

export function hideProfile() {
  profile.open = false;
  $("profile").hidden = true;
}

onLanguageChange(() => {
  if (profile.open) render();
});
