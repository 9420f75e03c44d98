// Told wherever you are: the player's channel (WS /ws/me, server/chat/told.py), opened
// by every page once the browser is a player. It keeps the header's My games badge and
// the tab's title ("(2) Your turn · ...") live, and tells of a turn or a mention in a game
// the page does not show (a sound, and the browser's notification when the tab is
// hidden); the game page tells of its own game itself (clock.js's tellTurn). A challenge
// to the player shows a notice on whatever page is open, with Accept and Decline; a
// decline of the player's own challenge shows one too.
import { onLanguageChange, say, t } from "./i18n.js";
import { notifyElsewhere } from "./clock.js";
import { api, failureText } from "./net.js";
import { Backoff } from "./backoff.js";
import { registerServiceWorker } from "./push.js";

registerServiceWorker(); // every page of the site: the offline page, notifications (sw.js)

/**
 * A message of /ws/me (server/chat/told_contract.py).
 *
 * @typedef {{type: string, match?: string, waiting?: number, games?: string[],
 *   title?: import("./i18n.js").Text, text?: import("./i18n.js").Text,
 *   challenge?: string}} Told
 */

/**
 * @type {{socket: WebSocket | null, retry: Backoff, title: import("./i18n.js").Text,
 *   listeners: ((message: Told) => void)[], count: (waiting: number) => void}}
 */
const channel = {
  socket: null,
  retry: new Backoff(),
  title: null,
  listeners: [],
  count: () => {},
};
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
  socket.addEventListener("message", (event) => {
    channel.retry.succeeded(); // (an open socket that closes at once is no success)
    heard(JSON.parse(String(event.data)));
  });
  socket.addEventListener("close", (event) => {
    channel.socket = null;
    if (event.code === NO_PLAYER || event.code === TOO_MANY) return;
    setTimeout(() => openChannel(channel.count), channel.retry.next());
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
  } else if (message.type === "challenge" || message.type === "declined") {
    notifyElsewhere(say(message.text), `${message.type}-${message.challenge}`, true);
    showNotice(message);
  }
  for (const listener of channel.listeners) listener(message);
}

// ----- notices: a challenge to the player, a decline of theirs ---------------------------
// A box at the top of the page (whatever page is open), its words in the reader's
// language; a challenge's Accept takes its seat (the token kept as every match's) and
// opens the game, Decline tells its creator.

/** @param {Told} message */
function showNotice(message) {
  const id = `told-${message.type}-${message.challenge}`;
  document.getElementById(id)?.remove();
  const box = document.createElement("div");
  box.id = id;
  box.className = "notice told-notice";
  box.setAttribute("role", "status");
  Object.assign(box.style, { position: "fixed", top: ".5rem", right: ".5rem", zIndex: "50" });
  const words = document.createElement("p");
  words.textContent = say(message.text ?? null);
  const error = document.createElement("p");
  error.className = "error";
  /** @type {[string, string, () => Promise<void>][]} */
  const actions =
    message.type === "challenge"
      ? [
          ["told-accept", t("Accept"), () => acceptChallenge(String(message.challenge))],
          ["told-decline", t("Decline"), () => declineChallenge(String(message.challenge))],
        ]
      : [["told-close", t("Close"), async () => {}]];
  const buttons = actions.map(([name, label, doing]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = name;
    button.textContent = label;
    button.addEventListener("click", async () => {
      try {
        await doing();
        box.remove();
      } catch (failure) {
        error.textContent = failureText(failure);
      }
    });
    return button;
  });
  box.append(words, ...buttons, error);
  document.body.append(box);
}

const CHANGING = { method: "POST", headers: { "content-type": "application/json" } };

/** @param {string} challenge */
async function acceptChallenge(challenge) {
  const taken = await api(`/api/challenges/${challenge}/accept`, CHANGING);
  const seats = [{ seat: taken.seat, token: taken.token }];
  localStorage.setItem(`stairgames.match.${taken.match}`, JSON.stringify(seats));
  location.assign(`/m/${taken.match}`);
}

/** @param {string} challenge */
async function declineChallenge(challenge) {
  await api(`/api/challenges/${challenge}/decline`, CHANGING);
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
