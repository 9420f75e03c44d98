// The clocks' and time controls' texts, with no DOM (static/clock.js shows them; the
// lobby says a challenge's): pure, so tests/js/ runs it in Node.

import { ngettext, t } from "./i18n.js";

/** @typedef {[minutes: number, increment: number]} Realtime */

/** @type {Realtime[]} */
export const REALTIME_CHOICES = [
  [1, 0],
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
];
/** The days a move of correspondence, as server/play/clocks.py takes them. */
export const CORRESPONDENCE_DAYS = [1, 2, 3, 7, 14];

/**
 * A time control as the API takes it (`time_control`), and as views carry it.
 *
 * @typedef {{kind: "realtime", minutes: number, increment: number}
 *   | {kind: "correspondence", days: number} | {kind: "none"}} TimeControl
 */

/**
 * The time controls offered for a game, as [value, text] for a <select>: no clock, the
 * real-time ones (the game's own default first), then correspondence.
 *
 * @param {{realtime_default?: Realtime | null} | null | undefined} game
 * @returns {[value: string, text: string][]}
 */
export function timeControlChoices(game) {
  const first = game?.realtime_default ? game.realtime_default : [5, 3];
  const realtime = [
    first,
    ...REALTIME_CHOICES.filter(([m, i]) => m !== first[0] || i !== first[1]),
  ];
  /** @type {[string, string][]} */
  const choices = [["none", t("No clock")]];
  for (const [minutes, increment] of realtime) {
    choices.push([
      `realtime:${minutes}:${increment}`,
      t("Real time {clock}", { clock: `${minutes}+${increment}` }),
    ]);
  }
  for (const days of CORRESPONDENCE_DAYS) {
    const text = ngettext(
      "Correspondence, {days} day a move",
      "Correspondence, {days} days a move",
      days,
      { days },
    );
    choices.push([`correspondence:${days}`, text]);
  }
  return choices;
}

/**
 * The API's time_control for a choice of timeControlChoices (undefined: none).
 *
 * @param {string | null | undefined} value
 * @returns {TimeControl | undefined}
 */
export function timeControlOf(value) {
  const [kind, a, b] = String(value || "none").split(":");
  if (kind === "realtime") return { kind, minutes: Number(a), increment: Number(b) };
  if (kind === "correspondence") return { kind, days: Number(a) };
  return undefined;
}

/**
 * A time control in a few words: "5+3", "1 day a move", "2 days a move", "no clock".
 *
 * @param {TimeControl | null | undefined} control
 * @returns {string}
 */
export function timeControlText(control) {
  if (!control || control.kind === "none") return t("no clock");
  if (control.kind === "realtime") return `${fraction(control.minutes)}+${control.increment}`;
  return ngettext("{days} day a move", "{days} days a move", control.days, { days: control.days });
}

/**
 * @param {number} minutes
 * @returns {string}
 */
function fraction(minutes) {
  /** @type {Record<string, string>} */
  const fractions = { 0.25: "¼", 0.5: "½", 0.75: "¾" };
  return fractions[String(minutes)] || String(minutes);
}

/**
 * A view's clock (`clock`): real time, each seat's time left when the server made the
 * view; correspondence, the running seat's deadline.
 *
 * @typedef {object} Clock
 * @property {"realtime" | "correspondence"} kind
 * @property {number | null} running the seat whose clock runs
 * @property {number[]} [remaining_ms]
 * @property {number | null} [deadline_ms]
 * @property {number} [now_ms]
 */

/**
 * What a seat's clock shows `elapsed` ms after the view arrived: its text, whether it
 * runs, and whether its time is low (under 20 s; correspondence, under an hour).
 *
 * @param {Clock} clock
 * @param {number} seat
 * @param {number} elapsed
 * @returns {{text: string, running: boolean, low: boolean}}
 */
export function clockFace(clock, seat, elapsed) {
  const running = clock.running === seat;
  let text = "";
  let low = false;
  if (clock.kind === "realtime") {
    const left = Math.max(0, (clock.remaining_ms?.[seat] ?? 0) - (running ? elapsed : 0));
    text = realtimeText(left);
    low = left < 20_000;
  } else if (running && clock.deadline_ms) {
    const left = Math.max(0, clock.deadline_ms - (clock.now_ms ?? 0) - elapsed);
    text = correspondenceText(left);
    low = left < 3_600_000;
  }
  return { text, running, low: low && running };
}

/**
 * Real time left: "0:42", "1:02:03"; tenths under ten seconds ("9.3").
 *
 * @param {number} ms
 * @returns {string}
 */
export function realtimeText(ms) {
  if (ms < 10_000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const seconds = Math.ceil(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * Correspondence time left: "2 d 3 h left", "5 h 12 min left".
 *
 * @param {number} ms
 * @returns {string}
 */
export function correspondenceText(ms) {
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return t("{days} d {hours} h left", { days, hours });
  return t("{hours} h {minutes} min left", { hours, minutes: minutes % 60 });
}
