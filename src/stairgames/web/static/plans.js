// Planned replies (issue 54; docs/web.md, "Planned replies"): on a correspondence game of
// two seats, while the opponent is to move, the seat's holder may plan lines ("if they
// play X, I play Y; then if X2, Y2 …"), typed in the game's notation. The server checks
// every move, keeps them for this seat alone (GET/PUT/DELETE /api/matches/{id}/plans)
// and plays the reply the moment the opponent's move matches; any other move cancels
// them. This panel lists the lines, deletes one, adds one: picked from the moves the
// server lists (each of the opponent's moves now, and the replies to it), or typed.

import { t } from "./i18n.js";
import { api, failureText } from "./net.js";

/**
 * @typedef {object} PlansView
 * @property {string} match
 * @property {number} event
 * @property {number | null} you
 * @property {number | null} to_act
 * @property {unknown} result
 * @property {{kind: string}} [time_control]
 * @property {unknown[]} seats
 */

/** What the panel shows: the match and event it was read at, and the lines. */
const shown = {
  /** @type {string | null} */
  match: null,
  event: -1,
  /** @type {string[][]} */
  lines: [],
  /** @type {Record<string, string[]>} the opponent's moves now, and the replies to each */
  choices: {},
  /** @type {Record<string, string>} */
  headers: {},
  error: "",
};

/**
 * Whether `view`'s seat may plan replies now: a correspondence game of two seats going
 * on, its opponent to move.
 *
 * @param {PlansView} view
 */
export function mayPlan(view) {
  return (
    view.time_control?.kind === "correspondence" &&
    view.seats.length === 2 &&
    view.you !== null &&
    view.result === null &&
    view.to_act !== null &&
    view.to_act !== view.you
  );
}

/**
 * A line as the panel says it: "if b1-b2, c3-c4; then if …".
 *
 * @param {string[]} line
 */
export function lineText(line) {
  const steps = [];
  for (let i = 0; i + 1 < line.length; i += 2) {
    const step = { theirs: line[i], mine: line[i + 1] };
    steps.push(i === 0 ? t("if {theirs}, {mine}", step) : t("then if {theirs}, {mine}", step));
  }
  return steps.join("; ");
}

/**
 * Read a typed line: moves separated by spaces or commas.
 *
 * @param {string} text
 */
export function readLine(text) {
  return text
    .split(/[\s,]+/)
    .map((move) => move.trim())
    .filter(Boolean);
}

/** The panel, made once, before the match's error line. */
function panel() {
  const made = document.getElementById("plans");
  if (made) return made;
  const section = document.createElement("section");
  section.id = "plans";
  section.className = "plans";
  section.setAttribute("aria-labelledby", "plans-heading");
  section.hidden = true;
  document.getElementById("match-error")?.before(section);
  return section;
}

/**
 * Show (or hide) the panel for `view`; its lines are read again at each new event.
 *
 * @param {PlansView} view
 * @param {Record<string, string>} headers the seat's (its token)
 */
export function renderPlans(view, headers) {
  const section = panel();
  if (!mayPlan(view)) {
    section.hidden = true;
    shown.match = null;
    return;
  }
  section.hidden = false;
  shown.headers = headers;
  if (shown.match === view.match && shown.event === view.event) return;
  shown.match = view.match;
  shown.event = view.event;
  shown.lines = [];
  shown.choices = {};
  shown.error = "";
  draw(section, view.match);
  load(section, view.match);
}

/**
 * @param {HTMLElement} section
 * @param {string} match
 */
async function load(section, match) {
  try {
    /** @type {{lines: string[][], choices?: Record<string, string[]>}} */
    const kept = await api(`/api/matches/${match}/plans`, { headers: shown.headers });
    if (shown.match !== match) return;
    shown.lines = kept.lines;
    shown.choices = kept.choices || {};
  } catch (failure) {
    shown.error = failureText(failure);
  }
  draw(section, match);
}

/**
 * @param {HTMLElement} section
 * @param {string} match
 * @param {string[][]} lines
 * @param {string} [typed] the new line's text, kept when refused
 */
async function save(section, match, lines, typed = "") {
  try {
    /** @type {{lines: string[][], choices?: Record<string, string[]>}} */
    const kept = await api(`/api/matches/${match}/plans`, {
      method: "PUT",
      json: { lines },
      headers: shown.headers,
    });
    shown.lines = kept.lines;
    shown.choices = kept.choices || shown.choices;
    shown.error = "";
    draw(section, match);
    document.getElementById("plan-line")?.focus();
  } catch (failure) {
    shown.error = failureText(failure);
    draw(section, match, typed);
  }
}

/**
 * @param {HTMLElement} section
 * @param {string} match
 * @param {string} [typed]
 */
function draw(section, match, typed = "") {
  const heading = document.createElement("h2");
  heading.id = "plans-heading";
  heading.textContent = t("Plan replies");
  const about = document.createElement("p");
  about.className = "plans-about";
  about.textContent = t(
    "Type your opponent's move, then your reply, and so on, in the game's notation. When they play the first move of a line, your reply is played at once; any other move cancels your plans. Nobody else sees them.",
  );
  const list = document.createElement("ul");
  list.id = "plan-lines";
  shown.lines.forEach((line, index) => {
    const item = document.createElement("li");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = t("Delete");
    remove.setAttribute("aria-label", t("Delete line {n}", { n: index + 1 }));
    remove.addEventListener("click", () =>
      save(
        section,
        match,
        shown.lines.filter((_, other) => other !== index),
      ),
    );
    item.append(lineText(line), " ", remove);
    list.append(item);
  });
  const none = document.createElement("p");
  none.hidden = shown.lines.length > 0;
  none.textContent = t("No replies planned.");
  const form = document.createElement("form");
  const label = document.createElement("label");
  label.htmlFor = "plan-line";
  label.textContent = t("New line");
  const input = document.createElement("input");
  input.id = "plan-line";
  input.autocomplete = "off";
  input.value = typed;
  const add = document.createElement("button");
  add.type = "submit";
  add.textContent = t("Add line");
  form.append(label, " ", input, " ", add);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const line = readLine(input.value);
    if (line.length) save(section, match, [...shown.lines, line], input.value);
  });
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  error.textContent = shown.error;
  section.replaceChildren(heading, about, list, none, pickForm(section, match), form, error);
}

/**
 * The form that adds a line of one reply picked from the lists: the opponent's move,
 * then a reply to it (none shown when the server listed none).
 *
 * @param {HTMLElement} section
 * @param {string} match
 */
function pickForm(section, match) {
  const form = document.createElement("form");
  form.id = "plan-pick";
  const theirs = Object.keys(shown.choices).filter((move) => shown.choices[move].length);
  form.hidden = theirs.length === 0;
  if (form.hidden) return form;
  const ask = select("plan-theirs", t("If your opponent plays"), theirs);
  const answer = select("plan-mine", t("you play"), shown.choices[theirs[0]]);
  ask.select.addEventListener("change", () => {
    answer.select.replaceChildren(
      ...(shown.choices[ask.select.value] || []).map((move) => new Option(move, move)),
    );
  });
  const add = document.createElement("button");
  add.type = "submit";
  add.textContent = t("Add this reply");
  form.append(ask.label, " ", answer.label, " ", add);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const line = [ask.select.value, answer.select.value];
    if (line.every(Boolean)) save(section, match, [...shown.lines, line]);
  });
  return form;
}

/**
 * A labelled list of moves to choose one from.
 *
 * @param {string} id
 * @param {string} text
 * @param {string[]} moves
 */
function select(id, text, moves) {
  const label = document.createElement("label");
  const list = document.createElement("select");
  list.id = id;
  list.append(...moves.map((move) => new Option(move, move)));
  label.append(text, " ", list);
  return { label, select: list };
}
