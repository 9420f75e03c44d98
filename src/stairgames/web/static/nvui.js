// The screen-reader mode of the match page (lichess's NVUI is the model; see
// docs/accessibility.md): a switch that replaces the drawn board with text and
// commands. A move is typed in its notation or picked from the list of legal moves;
// short commands read the position (the texts the server sends in the view for this
// seat: `accessible`), and every change (a move by anyone, the end) is said once in a
// polite live region. It names no game: the texts and the moves come from the view.

import { language, say, t } from "./i18n.js";
import { $ } from "./dom.js";
import { capitalise, moveText } from "./pagetext.js";
import { clockFace } from "./clocktext.js";

const KEY = "stairgames.nvui";
const KEPT = 30; // announcements kept in the live region (older ones are dropped)

/**
 * @typedef {object} Spoken what the server says for the mode (registry.accessible_view)
 * @property {any[]} rows
 * @property {any[]} items
 * @property {any} turn
 * @property {any} last
 * @property {Record<string, string[]>} pieces
 */

/**
 * @typedef {object} Shown what the page gives the mode at each render
 * @property {any} view the match view
 * @property {string[]} legal the moves this browser may play now
 * @property {import("./pagetext.js").MoveWord[]} words the game's moves in words
 */

/** @type {{play: (move: string) => void, wantTexts: (on: boolean) => void, shown: Shown | null, said: string, receivedAt: number, spoken: number, asked: any}} */
const mode = {
  play: () => {},
  wantTexts: () => {},
  shown: null,
  said: "",
  receivedAt: 0,
  spoken: 0,
  asked: null, // the view shown when the texts were asked for: nothing is said until a newer one
};

/** Whether the mode is on (kept in localStorage; `?nvui=1` or `?nvui=0` sets it). */
export function nvuiOn() {
  return localStorage.getItem(KEY) === "1";
}

/** @param {boolean} on */
function setOn(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
}

/**
 * Wire the switch, the command field and the list of moves; `play` sends a move,
 * `wantTexts` asks the server for the views with the mode's texts (or without them).
 *
 * @param {{play: (move: string) => void, wantTexts: (on: boolean) => void}} hooks
 */
export function initNvui({ play, wantTexts }) {
  mode.play = play;
  mode.wantTexts = wantTexts;
  const asked = new URLSearchParams(location.search).get("nvui");
  if (asked === "1" || asked === "0") setOn(asked === "1");
  const toggle = $("nvui-on", HTMLInputElement);
  toggle.checked = nvuiOn();
  toggle.addEventListener("change", () => {
    setOn(toggle.checked);
    mode.wantTexts(toggle.checked); // the server sends them only to a page that asks
    mode.asked = toggle.checked && mode.shown ? mode.shown.view : null;
    mode.said = ""; // say where the game stands on switching on (once the texts came)
    if (mode.shown) renderNvui(mode.shown);
    if (toggle.checked) $("nvui-input", HTMLInputElement).focus();
  });
  $("nvui-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("nvui-input", HTMLInputElement);
    command(input.value);
    input.value = "";
  });
  const list = $("nvui-moves", HTMLSelectElement);
  list.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    playChosen();
  });
  $("nvui-play", HTMLButtonElement).addEventListener("click", playChosen);
}

function playChosen() {
  const list = $("nvui-moves", HTMLSelectElement);
  if (list.value) tryMove(list.value);
}

/**
 * Draw the mode for the view the page shows (called by app.js at each render) and say
 * what changed since it last spoke.
 *
 * @param {Shown} shown
 */
export function renderNvui(shown) {
  mode.shown = shown;
  mode.receivedAt = performance.now();
  const on = nvuiOn();
  $("match").classList.toggle("nvui", on);
  $("nvui").hidden = !on;
  // the page's own live turn line and result would say each change a second time
  $("turn").setAttribute("aria-live", on ? "off" : "polite");
  $("result").setAttribute("aria-live", on ? "off" : "polite");
  $("nvui-on", HTMLInputElement).checked = on;
  if (!on) return;
  const { view, legal, words } = shown;
  const list = $("nvui-moves", HTMLSelectElement);
  const chosen = list.value;
  list.replaceChildren(
    ...legal.map((move) => {
      const text = moveText(move, words);
      return new Option(text === move ? move : `${text} (${move})`, move, false, move === chosen);
    }),
  );
  list.disabled = !legal.length;
  $("nvui-play", HTMLButtonElement).disabled = !legal.length;
  if (view === mode.asked) return; // the view with the texts is on its way
  mode.asked = null;
  const key = `${view.match}:${view.history.length}:${view.result ? "over" : view.to_act}`;
  if (key === mode.said) return;
  const first = !mode.said.startsWith(`${view.match}:`);
  mode.said = key;
  const told = first ? [] : [lastText(view, words)];
  announce("change", ...told, turnText(view));
}

// ----- the commands ------------------------------------------------------------------

/** @param {string} typed */
function command(typed) {
  const text = typed.trim();
  if (!text || !mode.shown) return;
  const { view, legal } = mode.shown;
  // a legal move first: no game's notation is one of the commands' letters
  const move = legal.find((m) => m.toLowerCase() === text.toLowerCase());
  if (move) {
    tryMove(move);
    return;
  }
  const [word, ...rest] = text.split(/\s+/);
  const spoken = /** @type {Spoken | null} */ (view.accessible || null);
  switch (word.toLowerCase()) {
    case "l":
      announce("answer", lastText(view, mode.shown.words) || t("No move yet."));
      return;
    case "p":
      announce("answer", ...(spoken ? spoken.rows.map(say) : [noText()]));
      return;
    case "s":
      announce("answer", ...(spoken ? spoken.items.map(say) : [noText()]));
      return;
    case "t":
      announce("answer", turnText(view));
      return;
    case "c":
      announce("answer", clocksText(view));
      return;
    case "v":
      announce("answer", movesText(legal));
      return;
    case "m":
      announce("answer", pieceText(spoken, rest.join(" "), legal));
      return;
    case "h":
    case "?":
      announce("answer", ...helpLines());
      return;
    default:
      refuse(text, legal);
  }
}

/** @param {string} move */
function tryMove(move) {
  if (!mode.shown?.legal.includes(move)) {
    refuse(move, mode.shown ? mode.shown.legal : []);
    return;
  }
  $("nvui-input", HTMLInputElement).removeAttribute("aria-invalid");
  mode.play(move);
}

/**
 * @param {string} text
 * @param {string[]} legal
 */
function refuse(text, legal) {
  $("nvui-input", HTMLInputElement).setAttribute("aria-invalid", "true");
  announce(
    "answer",
    legal.length
      ? t("Not a legal move or command: {text}. Type v to hear the legal moves, h for help.", {
          text,
        })
      : t("Not a command: {text}, and you have no move to play now. Type h for help.", { text }),
  );
}

function noText() {
  return t("This game gives no text of its position; the legal moves and the move list work.");
}

// ----- what is said ----------------------------------------------------------------

/**
 * Sentences said one after the other, each with its end (Japanese: no space between).
 *
 * @param {string[]} parts
 * @returns {string}
 */
function sentences(parts) {
  const ja = language() === "ja";
  return parts
    .filter(Boolean)
    .map((part) => {
      const text = capitalise(part.trim());
      return /[.。!?！？:：]$/.test(text) ? text : text + (ja ? "。" : ".");
    })
    .join(ja ? "" : " ");
}

/**
 * @param {any} view
 * @param {number} seat
 * @returns {string}
 */
function seatName(view, seat) {
  const found = view.seats.find((/** @type {any} */ s) => s.seat === seat);
  return found ? t(found.name) : String(seat);
}

/**
 * The last move told: the game's words for it, else its move list's, else its notation.
 *
 * @param {any} view
 * @param {import("./pagetext.js").MoveWord[]} words
 * @returns {string}
 */
function lastText(view, words) {
  if (!view.history.length) return "";
  const spoken = view.accessible;
  if (spoken?.last) return say(spoken.last);
  const told = Array.isArray(view.narration) ? view.narration[view.narration.length - 1] : null;
  if (told?.length) return sentences(told.map((/** @type {any} */ line) => say(line)));
  const move = moveText(view.last_move || view.history[view.history.length - 1], words);
  if (view.last_mover === null || view.last_mover === undefined) return move;
  return t("{name}: {move}", { name: seatName(view, view.last_mover), move });
}

/**
 * Whose turn, with what the game says of it; or how the game ended.
 *
 * @param {any} view
 * @returns {string}
 */
function turnText(view) {
  if (view.result) {
    const parts = [...$("result").children].map((child) => child.textContent || "");
    return sentences([t("Game over"), ...parts]);
  }
  const game = view.accessible?.turn ? say(view.accessible.turn) : "";
  if (view.to_act !== null && view.to_act === view.you) return sentences([t("Your move"), game]);
  // the game's words name the seat to act ("Light to move"); without them, the seat
  if (game || view.to_act === null) return sentences([game]);
  return sentences([t("{name} to move", { name: seatName(view, view.to_act) })]);
}

/**
 * @param {any} view
 * @returns {string}
 */
function clocksText(view) {
  const clock = view.clock;
  if (!clock) return t("This game has no clock.");
  const elapsed = performance.now() - mode.receivedAt;
  /** @type {string[]} */
  const faces = [];
  for (const seat of view.seats) {
    const face = clockFace(clock, seat.seat, elapsed);
    if (!face.text) continue;
    const values = { name: t(seat.name), time: face.text };
    faces.push(face.running ? t("{name}: {time}, running", values) : t("{name}: {time}", values));
  }
  return faces.length ? sentences(faces) : t("This game has no clock.");
}

/** @param {string[]} legal */
function movesText(legal) {
  if (!legal.length) return t("You have no move to play now.");
  return t("Legal moves: {moves}", { moves: legal.join(t(", ")) });
}

/**
 * @param {Spoken | null} spoken
 * @param {string} piece
 * @param {string[]} legal
 */
function pieceText(spoken, piece, legal) {
  if (!piece) return t("Type m and a square or piece, as m c3.");
  if (!legal.length) return t("You have no move to play now.");
  const pieces = spoken ? spoken.pieces : {};
  const key = Object.keys(pieces).find((k) => k.toLowerCase() === piece.toLowerCase());
  if (!key) return t("No legal move of {piece}.", { piece });
  return t("Moves of {piece}: {moves}", { piece: key, moves: pieces[key].join(t(", ")) });
}

function helpLines() {
  return [
    t("Type a move in its notation and press Enter, or choose it in the list of legal moves."),
    t("Commands: l the last move; p the position row by row; s the position as a list;"),
    t("t whose turn; c the clocks; v the legal moves; m and a square, its legal moves; h help."),
  ];
}

/**
 * Say each text once in the live region (one paragraph each; the oldest dropped), marked
 * as an answer to a command or a change of the game (`data-kind`), and numbered.
 *
 * @param {"answer" | "change"} kind
 * @param {...string} texts
 */
function announce(kind, ...texts) {
  const region = $("nvui-said");
  for (const text of texts.filter(Boolean)) {
    const line = document.createElement("p");
    line.textContent = text;
    mode.spoken += 1;
    line.dataset.n = String(mode.spoken); // (its number: the region keeps the newest only)
    line.dataset.kind = kind;
    region.append(line);
  }
  while (region.children.length > KEPT) region.firstElementChild?.remove();
}
