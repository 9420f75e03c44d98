// The home page's setup for games of 2-4 seats (a "players" option): how many players,
// who sits at each seat (a person at this screen, the computer at a level, a friend
// online), who starts, and (City of Stairs) the card set: the default or a TOML file
// uploaded to POST /api/cards, which checks it and answers its id or the engine's
// problems in the page's language.

import { language, t } from "./i18n.js";
import { ApiError, api, errorText } from "./net.js";

const N_ = (id) => id;
const LABELS = {
  players: N_("Players"),
  first_player: N_("Who starts"),
  cards: N_("Card set"),
  characters: N_("Characters (colours, comma-separated)"),
};

export function hasSeatList(game) {
  return Boolean(game?.seats_by_players && Object.keys(game.seats_by_players).length);
}

function playerCounts(game) {
  return Object.keys(game.seats_by_players)
    .map(Number)
    .sort((a, b) => a - b);
}

function seatNames(game, players) {
  const names = game.seats_by_players[String(players)] || game.seat_names;
  return names.slice(0, players);
}

function currentPlayers(root) {
  const select = root.querySelector('[data-option="players"]');
  return select ? Number(select.value) : 2;
}

let labels = 0;

// A label around its input; the input is named by the label's words alone (a select
// inside a label would otherwise add its chosen option to its name).
function labelled(text, input) {
  const label = document.createElement("label");
  label.className = "option";
  const words = document.createElement("span");
  words.id = `setup-label-${++labels}`;
  words.textContent = text;
  input.setAttribute("aria-labelledby", words.id);
  label.append(words, " ", input);
  return label;
}

// The option inputs this module draws in place of the generic ones (null: not one).
export function specialOption(option, game, onChange) {
  if (!hasSeatList(game)) return null;
  if (option.name === "players") {
    const select = document.createElement("select");
    for (const count of playerCounts(game)) {
      select.append(new Option(String(count), String(count), false, count === option.default));
    }
    Object.assign(select.dataset, { option: "players", type: "int" });
    select.addEventListener("change", onChange);
    return labelled(t(LABELS.players), select);
  }
  if (option.name === "first_player") {
    const select = document.createElement("select");
    Object.assign(select.dataset, { option: "first_player", type: "int", optional: "1" });
    select.dataset.kind = "first-player";
    return labelled(t(LABELS.first_player), select);
  }
  if (option.name === "cards") return cardSetChooser();
  if (option.name === "characters") {
    const input = document.createElement("input");
    Object.assign(input.dataset, { option: "characters", type: "str", optional: "1" });
    input.placeholder = "red,blue,green";
    return labelled(t(LABELS.characters), input);
  }
  return null;
}

function cardSetChooser() {
  const box = document.createElement("div");
  box.className = "option card-set";
  const select = document.createElement("select");
  Object.assign(select.dataset, { option: "cards", type: "str", optional: "1" });
  select.id = "card-set";
  select.append(new Option(t("the default cards"), ""));
  const file = document.createElement("input");
  file.type = "file";
  file.accept = ".toml,text/plain";
  file.id = "card-file";
  const status = document.createElement("p");
  status.className = "card-status";
  status.setAttribute("role", "status");
  const fileLabel = labelled(t("Upload a card file (TOML)"), file);
  file.addEventListener("change", () => upload(file, select, status));
  box.append(labelled(t(LABELS.cards), select), fileLabel, status);
  return box;
}

async function upload(file, select, status) {
  status.classList.remove("error");
  const chosen = file.files?.[0];
  if (!chosen) return;
  status.textContent = t("Checking the card file…");
  const query = `lang=${encodeURIComponent(language())}&name=${encodeURIComponent(chosen.name)}`;
  let data;
  try {
    data = await api(`/api/cards?${query}`, {
      method: "POST",
      headers: { "content-type": "application/toml; charset=utf-8" },
      body: await chosen.text(),
    });
  } catch (failure) {
    status.textContent = errorText(failure instanceof ApiError ? failure.error : null);
    status.classList.add("error");
    select.value = "";
    return;
  }
  let option = [...select.options].find((o) => o.value === data.cards);
  if (!option) {
    option = new Option(`${data.name} (${chosen.name})`, data.cards);
    select.append(option);
  }
  select.value = data.cards;
  status.textContent = t("Card set {name} is ready.", { name: data.name });
}

// The seat list: one chooser for each seat of the chosen player count.
export function renderSeatList(game, root, levels) {
  let box = document.getElementById("seat-list");
  const fieldset =
    /** @type {HTMLFieldSetElement | null} */ (document.querySelector("#opponent-fieldset")) ||
    document.querySelector('input[name="opponent"]')?.closest("fieldset");
  if (!hasSeatList(game)) {
    if (box) box.remove();
    if (fieldset) fieldset.hidden = false;
    return;
  }
  if (fieldset) fieldset.hidden = true;
  const players = currentPlayers(root);
  const names = seatNames(game, players);
  const before = box ? [...box.querySelectorAll("select")].map((s) => s.value) : [];
  if (!box) {
    box = document.createElement("fieldset");
    box.id = "seat-list";
    box.className = "seat-list";
    root.after(box);
  }
  const legend = document.createElement("legend");
  legend.textContent = t("Seats");
  box.replaceChildren(legend);
  names.forEach((name, seat) => {
    const select = document.createElement("select");
    select.dataset.seat = String(seat);
    select.append(new Option(t("A person at this screen"), "human"));
    for (const level of levels) {
      select.append(
        new Option(t("The computer ({level})", { level: t(level) }), `computer:${level}`),
      );
    }
    select.append(new Option(t("A friend online (invite link)"), "online"));
    select.value = before[seat] || (seat === 0 ? "human" : "computer:medium");
    const label = labelled(t(name), select);
    select.setAttribute("aria-label", t("Who plays {name}", { name: t(name) }));
    select.removeAttribute("aria-labelledby");
    box.append(label);
  });
  const first = root.querySelector('[data-kind="first-player"]');
  if (first) {
    const now = first.value;
    first.replaceChildren(
      new Option(t("at random"), ""),
      ...names.map((name, seat) => new Option(t(name), String(seat))),
    );
    first.value = [...first.options].some((o) => o.value === now) ? now : "";
  }
}

// The seat specs of the seat list, or null where the game has none.
export function seatSpecs(game) {
  if (!hasSeatList(game)) return null;
  const selects = /** @type {NodeListOf<HTMLSelectElement>} */ (
    document.querySelectorAll("#seat-list select")
  );
  return [...selects].map((select) => select.value);
}
