// Told wherever you are: the player's channel (WS /ws/me, server/chat/told.py), opened
// by every page once the browser is a player. It keeps the header's My games badge and
// the tab's title ("(2) Your turn · ...") live, and tells of a turn or a mention in a game
// the page does not show (a sound, and the browser's notification when the tab is
// hidden); the game page tells of its own game itself (clock.js's tellTurn).
import { onLanguageChange, say, t } from "./i18n.js";
import { notifyElsewhere } from "./clock.js";

/**
 * A message of /ws/me (server/chat/told_contract.py).
 *
 * @typedef {{type: string, match?: string, waiting?: number, games?: string[],
 *   title?: import("./i18n.js").Text, text?: import("./i18n.js").Text}} Told
 */

/**
 * @type {{socket: WebSocket | null, retry: number, title: import("./i18n.js").Text,
 *   listeners: ((message: Told) => void)[], count: (waiting: number) => void}}
 */
const channel = { socket: null, retry: 1000, title: null, listeners: [], count: () => {} };
const NO_PLAYER = 4401;
const TOO_MANY = 4429;

/**
 * Have `listener` told each message of the channel (My games reads its list again).
 *
 * @param {(message: Told) => void} listener
 */
export function onTold(listener) {
  channel.listeners.push(listener);
}

/**
 * Open the channel (once; again after a lost connection, waiting longer each time);
 * `count(waiting)` shows the waiting count.
 *
 * @param {(waiting: number) => void} count
 */
export function openChannel(count) {
  channel.count = count;
  if (channel.socket || !("WebSocket" in window)) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/me`);
  channel.socket = socket;
  socket.addEventListener("open", () => {
    channel.retry = 1000;
  });
  socket.addEventListener("message", (event) => heard(JSON.parse(String(event.data))));
  socket.addEventListener("close", (event) => {
    channel.socket = null;
    if (event.code === NO_PLAYER || event.code === TOO_MANY) return;
    setTimeout(() => openChannel(channel.count), channel.retry);
    channel.retry = Math.min(channel.retry * 2, 30000);
  });
}

/** @param {string | undefined} match */
function looksAt(match) {
  return location.pathname === `/m/${match}`;
}

/** @param {Told} message */
function heard(message) {
  if (message.type === "me") {
    channel.count(message.waiting ?? 0);
    channel.title = message.title ?? null;
    retitle();
  } else if (message.type === "your_turn" && !looksAt(message.match)) {
    notifyElsewhere(say(message.text), `turn-${message.match}`, true);
  } else if (message.type === "mention" && !looksAt(message.match)) {
    notifyElsewhere(say(message.text), `mention-${message.match}`, false);
  }
  for (const listener of channel.listeners) listener(message);
}

// ----- the tab's title ------------------------------------------------------------------
// Each page sets its own title; the channel's words go before it ("(2) Your turn · Lobby
// · stairgames"), in place of the game page's own "(1) Your turn".

const titled = { base: document.title, written: "" };

function retitle() {
  if (document.title !== titled.written) titled.base = document.title;
  let base = titled.base;
  const own = `${t("(1) Your turn")} · `;
  if (channel.title && base.startsWith(own)) base = base.slice(own.length);
  const text = channel.title ? `${say(channel.title)} · ${base}` : base;
  titled.written = text;
  if (document.title !== text) document.title = text;
}

new MutationObserver(retitle).observe(document.head, {
  childList: true,
  characterData: true,
  subtree: true,
});
onLanguageChange(retitle);
