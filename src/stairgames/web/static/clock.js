// Time controls, the clocks the server keeps, and being told it is one's turn.
//
// The server sends each seat's time left when it made the view (remaining_ms, with the
// seat whose clock runs); the page counts the running one down from the moment the view
// arrived, so a slow network costs the display nothing the server does not charge.
// Correspondence views carry the running seat's deadline instead, and say which seats
// are away on vacation (their clocks held: "on vacation until …", static/vacation.js).

import { t } from "./i18n.js";
import { clockFace, timeControlChoices, timeControlOf, timeControlText } from "./clocktext.js";
import { awayNotice } from "./vacation.js";

export { timeControlOf, timeControlText };

// ----- choosing a time control -------------------------------------------------------

/**
 * Fill a <select> with the time controls offered for `game` (its own real-time default
 * first among the real-time ones), keeping the choice made where it is still offered.
 *
 * @param {HTMLSelectElement} select
 * @param {Parameters<typeof timeControlChoices>[0]} game
 */
export function fillTimeControls(select, game) {
  const kept = select.value;
  select.replaceChildren(
    ...timeControlChoices(game).map(([value, text]) => new Option(text, value)),
  );
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
}

// ----- showing the clocks ------------------------------------------------------------

/**
 * @type {{clock: import("./clocktext.js").Clock | null, receivedAt: number,
 *   items: Map<number, HTMLElement>}}
 */
const shown = { clock: null, receivedAt: 0, items: new Map() };

/**
 * Show `view`'s clocks in the seat list's items (seat -> <li>); called with each new
 * view.
 *
 * @param {{clock?: import("./clocktext.js").Clock | null}} view
 * @param {Map<number, HTMLElement>} items
 */
export function showClocks(view, items) {
  shown.clock = view.clock || null;
  shown.receivedAt = performance.now();
  shown.items = new Map();
  if (!shown.clock) return;
  for (const [seat, item] of items) {
    const span = document.createElement("span");
    span.className = "clock";
    span.dataset.seat = String(seat);
    item.append(" ", span);
    shown.items.set(seat, span);
    const away = awayNotice(shown.clock, seat);
    if (away) {
      const note = document.createElement("span");
      note.className = "away-note";
      note.textContent = away;
      item.append(" ", note);
    }
  }
  tick();
}

function tick() {
  const clock = shown.clock;
  if (!clock) return;
  const elapsed = performance.now() - shown.receivedAt;
  for (const [seat, span] of shown.items) {
    const face = clockFace(clock, seat, elapsed);
    span.textContent = face.text;
    span.classList.toggle("running", face.running);
    span.classList.toggle("low", face.low);
  }
}

setInterval(tick, 200);

// ----- being told it is one's turn ---------------------------------------------------

const SOUND_KEY = "stairgames.sound";
/** @type {Map<string, boolean>} match -> whether it waited for this browser's move */
const waitingBefore = new Map();

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

/** @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

// Whether the page may ask for the browser's notifications (not granted nor refused).
export function mayAskForNotifications() {
  return "Notification" in window && Notification.permission === "default";
}

// Asked on a person's click only, never on load.
export async function askForNotifications() {
  if (!("Notification" in window)) return "unsupported";
  return Notification.requestPermission();
}

// Called with each view: when a game starts waiting for this browser's move, a short
// sound (unless turned off) and, if the tab is hidden, a notification.
/**
 * @param {{match: string}} view
 * @param {boolean} waiting
 * @param {string} title
 */
export function tellTurn(view, waiting, title) {
  const before = waitingBefore.get(view.match);
  waitingBefore.set(view.match, waiting);
  if (!waiting || before === true || (before === undefined && !document.hidden)) return;
  if (soundOn()) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(t("(1) Your turn"), { body: title, tag: `turn-${view.match}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}

// Told of a game the page does not show (told.js): the words `text` (a turn's with a
// sound, unless turned off) and, if the tab is hidden, a notification; one a `tag`.
/**
 * @param {string} text
 * @param {string} tag
 * @param {boolean} sound
 */
export function notifyElsewhere(text, tag, sound) {
  if (sound && soundOn()) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(text, { tag });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}

/** @type {AudioContext | null} */
let audio = null;

function beep() {
  try {
    audio = audio || new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.25);
  } catch {
    // no sound where the browser allows none yet (before any click on the page)
  }
}
