// The home page's setup for games of 2-4 seats (an option with "seats_from"): how many
// play, who sits at each seat (a person at this screen, the computer at a level, a
// friend online) and the seats an option of kind "seat" offers (who starts); and an
// option of kind "file": the default or a TOML file uploaded to POST /api/<option>,
// which checks it and answers its id or the engine's problems in the page's language.
// Every word comes from the game's option listing (core/options.py), so no game is
// named here.

import { language, t } from "./i18n.js";
import { ApiError, api, errorText } from "./net.js";
import { fillSeatChoices, labelled } from "./optionform.js";
import { fileWords } from "./pagetext.js";

export function hasSeatList(game) {
  return Boolean(game?.seats_by_players && Object.keys(game.seats_by_players).length);
}

function playerCounts(game) {
  return Object.keys(game.seats_by_players)
    .map(Number)
    .sort((a, b) => a - b);
}

function seatNames(game, count) {
  const names = game.seats_by_players[String(count)] || game.seat_names;
  return names.slice(0, count);
}

function currentCount(root) {
  const select = root.querySelector('[data-kind="seat-count"]');
  return select ? Number(select.value) : 2;
}

// The option inputs this module draws in place of the generic ones (null: not one): the
// number of seats, whose change draws the seat list again, and an uploaded file.
export function specialOption(option, game, onChange) {
  const words = t(option.label || option.name);
  if (option.seats_from && hasSeatList(game)) {
    const select = document.createElement("select");
    for (const count of playerCounts(game)) {
      select.append(new Option(String(count), String(count), false, count === option.default));
    }
    Object.assign(select.dataset, { option: option.name, kind: "seat-count" });
    select.addEventListener("change", onChange);
    return labelled(words, select);
  }
  if (option.kind === "file") return fileChooser(option, words);
  return null;
}

// The chooser of an option of kind "file": its default or an uploaded file, in the
// words its game declared (pagetext.js fileWords); the ids are the option's name's
// ("option-<name>", "file-<name>") after `prefix`, so a second form (the lobby's
// challenge) draws its own. A kept or refused upload changes the select's value and
// tells it ("change"), as a choice made by hand does.
export function fileChooser(option, words = t(option.label || option.name), prefix = "") {
  const said = fileWords(option);
  const box = document.createElement("div");
  box.className = "option file-choice";
  const select = document.createElement("select");
  Object.assign(select.dataset, { option: option.name, kind: "file" });
  select.id = `${prefix}option-${option.name}`;
  select.append(new Option(t(said.none), ""));
  const file = document.createElement("input");
  file.type = "file";
  file.accept = ".toml,text/plain";
  file.id = `${prefix}file-${option.name}`;
  const status = document.createElement("p");
  status.className = "file-status";
  status.setAttribute("role", "status");
  const fileLabel = labelled(t(said.upload), file);
  file.addEventListener("change", () => upload(option.name, said, file, select, status));
  box.append(labelled(words, select), fileLabel, status);
  return box;
}

async function upload(name, said, file, select, status) {
  status.classList.remove("error");
  const chosen = file.files?.[0];
  if (!chosen) return;
  status.textContent = t(said.checking);
  const query = `lang=${encodeURIComponent(language())}&name=${encodeURIComponent(chosen.name)}`;
  let data;
  try {
    data = await api(`/api/${encodeURIComponent(name)}?${query}`, {
      method: "POST",
      headers: { "content-type": "application/toml; charset=utf-8" },
      body: await chosen.text(),
    });
  } catch (failure) {
    status.textContent = errorText(failure instanceof ApiError ? failure.error : null);
    status.classList.add("error");
    choose(select, "");
    return;
  }
  const kept = data[name];
  let option = [...select.options].find((o) => o.value === kept);
  if (!option) {
    option = new Option(`${data.name} (${chosen.name})`, kept);
    select.append(option);
  }
  choose(select, kept);
  status.textContent = t(said.ready, { name: data.name });
}

function choose(select, value) {
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

// The seat list: one chooser for each seat of the chosen count; and the seats the
// options of kind "seat" offer.
export function renderSeatList(game, root, levels) {
  let box = document.getElementById("seat-list");
  const fieldset =
    /** @type {HTMLFieldSetElement | null} */ (document.querySelector("#opponent-fieldset")) ||
    document.querySelector('input[name="opponent"]')?.closest("fieldset");
  if (!hasSeatList(game)) {
    if (box) box.remove();
    if (fieldset) fieldset.hidden = false;
    fillSeatChoices(root, game.seat_names);
    return;
  }
  if (fieldset) fieldset.hidden = true;
  const names = seatNames(game, currentCount(root));
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
  fillSeatChoices(root, names);
}

// The seat specs of the seat list, or null where the game has none.
export function seatSpecs(game) {
  if (!hasSeatList(game)) return null;
  const selects = /** @type {NodeListOf<HTMLSelectElement>} */ (
    document.querySelectorAll("#seat-list select")
  );
  return [...selects].map((select) => select.value);
}
