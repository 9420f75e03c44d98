// A player's profile (/p/{name}): name (and the names they had), when they started, a
// rating per game (and pool) with its uncertainty and number of rated games, and their
// recent games; for another player, buttons to block or mute them and to report them.
import { blockKind, loadBlocks, reportPlayer, setBlock } from "./blocks.js";
import { language, onLanguageChange, t } from "./i18n.js";
import { dayText, OUTCOME_WORDS, outcomeOf } from "./outcome.js";
import { shownName } from "./player.js";
import { markBot } from "./botmark.js";
import { poolText } from "./pagetext.js";
import { $ } from "./dom.js";
import { api, failureText } from "./net.js";

/**
 * A game of a profile's recent games.
 *
 * @typedef {{match: string, game: string, players: {name: string | null}[], seats: number[],
 *   over: boolean, result: import("./outcome.js").ListedResult | null, created: string}}
 *   PlayedGame
 */

/**
 * GET /api/players/{name}: the player, a rating per pool, recent games.
 *
 * @typedef {object} Profile
 * @property {string} id
 * @property {string} name
 * @property {boolean} [bot] a bot account (issue 53)
 * @property {string} created
 * @property {Record<string, {shown: string, deviation: number, games: number}>} ratings
 * @property {PlayedGame[]} games
 */

/**
 * GET /api/names/{name}: the player's name now and the names they left after rated games.
 *
 * @typedef {{id: string, name: string, former: {name: string, until: string}[]}} NameHistory
 */

/**
 * @type {{data: Profile | null, names: NameHistory | null, games: import("./types.js").Game[],
 *   go: (path: string) => void, open: boolean, me: string | null}}
 */
const profile = { data: null, names: null, games: [], go: () => {}, open: false, me: null };

/**
 * @param {string} pool
 * @param {Profile["ratings"][string]} rating
 * @returns {HTMLTableRowElement}
 */
function ratingRow(pool, rating) {
  const row = document.createElement("tr");
  const cells = [
    poolText(pool, profile.games),
    rating.shown,
    `± ${rating.deviation}`,
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
  // what it came to for this profile's player, and when it was made
  const outcome = document.createElement("span");
  outcome.className = "outcome";
  outcome.dataset.outcome = outcomeOf(game);
  outcome.textContent = t(OUTCOME_WORDS[outcomeOf(game)]);
  const day = dayText(game.created, language());
  item.append(link, ` · ${names} · `, outcome, day ? ` · ${day}` : "");
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

// The line of buttons under "Playing since" (made here: the page has no place of its own
// for it): Challenge (the lobby's form, this player named), Block or Unblock, Mute or
// Unmute, Report; none on one's own profile.
/** @returns {HTMLElement} */
function actionsLine() {
  const found = document.getElementById("profile-actions");
  if (found) return found;
  const line = document.createElement("p");
  line.id = "profile-actions";
  line.className = "profile-actions";
  $("profile-since").after(line);
  return line;
}

/**
 * @param {string} id
 * @param {string} text
 * @param {() => Promise<unknown>} doing
 * @returns {HTMLButtonElement}
 */
function actionButton(id, text, doing) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = id;
  button.textContent = text;
  button.addEventListener("click", async () => {
    $("profile-error").textContent = "";
    try {
      await doing();
    } catch (failure) {
      $("profile-error").textContent = failureText(failure);
    }
    render();
  });
  return button;
}

function renderActions() {
  const line = actionsLine();
  const name = profile.data?.name ?? null;
  line.hidden = name === null || profile.me === null || profile.me === profile.data?.id;
  if (line.hidden || name === null) return;
  const kind = blockKind(name);
  const challenge = document.createElement("button");
  challenge.type = "button";
  challenge.id = "profile-challenge";
  challenge.textContent = t("Challenge");
  challenge.addEventListener("click", () => profile.go(`/lobby?to=${encodeURIComponent(name)}`));
  line.replaceChildren(
    challenge,
    kind === "block"
      ? actionButton("profile-unblock", t("Unblock"), () => setBlock(name, "none"))
      : actionButton("profile-block", t("Block"), () => setBlock(name, "block")),
    kind === "mute"
      ? actionButton("profile-unmute", t("Unmute"), () => setBlock(name, "none"))
      : actionButton("profile-mute", t("Mute"), () => setBlock(name, "mute")),
    actionButton("profile-report", t("Report"), async () => {
      if (await reportPlayer(name)) {
        $("profile-error").textContent = t("Thank you: a moderator will read your report.");
      }
    }),
  );
  if (kind !== "none") {
    const note = document.createElement("span");
    note.className = "profile-blocked";
    note.textContent =
      kind === "block" ? t("You blocked this player.") : t("You muted this player.");
    line.append(note);
  }
}

function render() {
  const data = profile.data;
  if (!data) return;
  $("profile-name").textContent = shownName(data.name);
  markBot($("profile-name"), data.bot);
  renderNames();
  renderActions();
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
  actionsLine().hidden = true;
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
  const [me] = await Promise.all([api("/api/me").catch(() => null), loadBlocks()]);
  profile.me = me?.id ?? null;
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
