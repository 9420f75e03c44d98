// A game's options on a form (the home page's setup and the lobby's challenge), drawn
// from the option listing of GET /api/games (core/options.py's option_listing): each
// option's kind says its input (a checkbox, a choice, a number within its bounds, a
// comma-separated list, a text, a seat), its words are message ids the game declared,
// translated with t(). No game and no option is named here, so a new game's options
// show and are set with no change to this file (tests/test_page_knows_no_game.py).

import { t } from "./i18n.js";
import { optionLabel, optionValue, optionValueText } from "./pagetext.js";

/** @typedef {import("./types.js").GameOption} GameOption */

let named = 0;

/**
 * A label around its input, the input named by the label's words alone (a select
 * inside a label would otherwise add its chosen option to its name: "Variant basic").
 *
 * @param {string} text
 * @param {HTMLElement} input
 * @returns {HTMLLabelElement}
 */
export function labelled(text, input) {
  const label = document.createElement("label");
  label.className = "option";
  const words = document.createElement("span");
  words.id = `option-label-${++named}`;
  words.textContent = text;
  input.setAttribute("aria-labelledby", words.id);
  label.append(words, " ", input);
  return label;
}

/**
 * The input of an option of kind "flag", "choice", "number", "list", "text" or "seat"
 * (a seat's choices are filled by fillSeatChoices once the seats are known), in its
 * label, with the option's help as the label's title.
 *
 * @param {GameOption} option
 * @returns {HTMLLabelElement}
 */
export function optionInput(option) {
  const words = t(optionLabel(option));
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let input;
  /** @type {HTMLLabelElement} */
  let label;
  if (option.kind === "flag") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = Boolean(option.default);
    input = box;
    label = document.createElement("label");
    label.className = "option";
    label.append(box, " ", words);
  } else if (option.kind === "seat" || option.choices?.length) {
    input = choiceInput(option);
    label = labelled(words, input);
  } else {
    input = textInput(option);
    label = labelled(words, input);
  }
  if (option.help) label.title = t(option.help);
  input.dataset.option = option.name;
  input.dataset.kind = option.kind || "text";
  return label;
}

/**
 * @param {GameOption} option
 * @returns {HTMLSelectElement}
 */
function choiceInput(option) {
  const select = document.createElement("select");
  for (const choice of option.choices || []) {
    const text = optionValueText(option, choice);
    select.append(new Option(text, String(choice), false, choice === option.default));
  }
  return select;
}

/**
 * @param {GameOption} option
 * @returns {HTMLInputElement}
 */
function textInput(option) {
  const input = document.createElement("input");
  if (option.kind === "number") {
    input.type = "number";
    if (typeof option.min === "number") input.min = String(option.min);
    if (typeof option.max === "number") input.max = String(option.max);
  }
  if (option.placeholder) input.placeholder = option.placeholder;
  const value = option.default;
  input.value = value === null ? "" : Array.isArray(value) ? value.join(",") : String(value);
  return input;
}

/**
 * The choices of every seat input under `root`: at random, or a seat by its name.
 *
 * @param {ParentNode} root
 * @param {string[]} names the seats' names (message ids), in seat order
 */
export function fillSeatChoices(root, names) {
  for (const select of root.querySelectorAll('select[data-kind="seat"]')) {
    if (!(select instanceof HTMLSelectElement)) continue;
    const now = select.value;
    select.replaceChildren(
      new Option(t("at random"), ""),
      ...names.map((name, seat) => new Option(t(name), String(seat))),
    );
    select.value = [...select.options].some((o) => o.value === now) ? now : "";
  }
}

/**
 * The values of `options` set on the form under `root`, as the server takes them; an
 * option with no input there, or an empty one that may be, keeps its default.
 *
 * @param {ParentNode} root
 * @param {GameOption[]} options the game's options
 * @returns {Record<string, unknown>}
 */
export function optionValues(root, options) {
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const option of options) {
    const input = root.querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
    const checked = input instanceof HTMLInputElement ? input.checked : false;
    const value = optionValue(option, { value: input.value, checked });
    if (value !== undefined) values[option.name] = value;
  }
  return values;
}
