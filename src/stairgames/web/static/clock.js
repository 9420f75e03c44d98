// Time controls, the clocks the server keeps, and being told it is one's turn.
//
// The server sends each seat's time left when it made the view (remaining_ms, with the
// seat whose clock runs); the page counts the running one down from the moment the view
// arrived, so a slow network costs the display nothing the server does not charge.
// Correspondence views carry the running seat's deadline instead.

import { t } from "./i18n.js";

const REALTIME_CHOICES = [
  [1, 0],
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
];
const CORRESPONDENCE_DAYS = [1, 2, 3, 7];

// ----- choosing a time control -------------------------------------------------------

// Fill a <select> with the time controls offered for `game` (its own real-time default
// first among the real-time ones).
export function fillTimeControls(select, game) {
  const kept = select.value;
  const first = game?.realtime_default ? game.realtime_default : [5, 3];
  const realtime = [
    first,
    ...REALTIME_CHOICES.filter(([m, i]) => m !== first[0] || i !== first[1]),
  ];
  const options = [new Option(t("No clock"), "none")];
  for (const [minutes, increment] of realtime) {
    options.push(
      new Option(
        t("Real time {clock}", { clock: `${minutes}+${increment}` }),
        `realtime:${minutes}:${increment}`,
      ),
    );
  }
  for (const days of CORRESPONDENCE_DAYS) {
    options.push(
      new Option(t("Correspondence, {days} days a move", { days }), `correspondence:${days}`),
    );
  }
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
}

// The API's time_control for a choice of fillTimeControls (undefined: none).
export function timeControlOf(value) {
  const [kind, a, b] = String(value || "none").split(":");
  if (kind === "realtime") return { kind, minutes: Number(a), increment: Number(b) };
  if (kind === "correspondence") return { kind, days: Number(a) };
  return undefined;
}

// A time control in a few words: "5+3", "2 days a move", "no clock".
export function timeControlText(control) {
  if (!control || control.kind === "none") return t("no clock");
  if (control.kind === "realtime") return `${fraction(control.minutes)}+${control.increment}`;
  return t("{days} days a move", { days: control.days });
}

function fraction(minutes) {
  return { 0.25: "¼", 0.5: "½", 0.75: "¾" }[minutes] || String(minutes);
}

// ----- showing the clocks ------------------------------------------------------------

const shown = { clock: null, receivedAt: 0, items: new Map() };

// Show `view`'s clocks in the seat list's items (a Map of seat -> <li>); called with
// each new view.
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
  }
  tick();
}

function tick() {
  const clock = shown.clock;
  if (!clock) return;
  const elapsed = performance.now() - shown.receivedAt;
  for (const [seat, span] of shown.items) {
    const running = clock.running === seat;
    let text = "";
    let low = false;
    if (clock.kind === "realtime") {
      const left = Math.max(0, clock.remaining_ms[seat] - (running ? elapsed : 0));
      text = realtimeText(left);
      low = left < 20_000;
    } else if (running && clock.deadline_ms) {
      const left = Math.max(0, clock.deadline_ms - clock.now_ms - elapsed);
      text = correspondenceText(left);
      low = left < 3_600_000;
    }
    span.textContent = text;
    span.classList.toggle("running", running);
    span.classList.toggle("low", low && running);
  }
}

setInterval(tick, 200);

function realtimeText(ms) {
  if (ms < 10_000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const seconds = Math.ceil(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function correspondenceText(ms) {
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return t("{days} d {hours} h left", { days, hours });
  return t("{hours} h {minutes} min left", { hours, minutes: minutes % 60 });
}

// ----- being told it is one's turn ---------------------------------------------------

const SOUND_KEY = "stairgames.sound";
const waitingBefore = new Map(); // match -> whether it waited for this browser's move

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

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
