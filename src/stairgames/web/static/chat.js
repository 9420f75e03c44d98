// The chat of a match (server/chat/chat.py): the players' room, which everyone reads, and the
// spectators' room, which only spectators read. Every message is shown as text
// (textContent), never as markup: whatever someone writes reads as they wrote it. A
// preset phrase travels as its id and is shown in the reader's language. What a player
// the reader blocked or muted says is not shown (blocks.js); a message of another player
// has a Mute and a Report button.
import { isHidden, loadBlocks, reportPlayer, setBlock } from "./blocks.js";
import { onLanguageChange, t } from "./i18n.js";
import { currentPlayer, ensurePlayer, shownName } from "./player.js";
import { $, has } from "./dom.js";
import { api, failureText } from "./net.js";

const HIDDEN = "stairgames.chat.hidden"; // localStorage: "1" while the chat is hidden
const chat = {
  match: null,
  key: null,
  view: null,
  replayAt: null,
  credentials: null,
  messages: new Map(),
  phrases: {},
  room: null,
  phraseLang: null,
};

// The match page shows a view (app.js's render): the chat of its match, for its viewer.
// credentials: how requests name the viewer's seat ({query, headers}, as app.js sends
// its other requests); replayAt: the move a finished game is stepped back to (null: the
// end), the chat then showing what was said by that move.
export function chatView(view, credentials, replayAt) {
  const panel = $("chat");
  const online = view.seats.some((seat) => seat.kind === "online");
  panel.hidden = !online && view.you !== null; // nobody to talk to at one screen
  if (panel.hidden) return;
  Object.assign(chat, { view, credentials, replayAt });
  const key = `${view.match} ${view.you}`;
  if (chat.key !== key) {
    if (chat.match !== view.match) {
      chat.messages = new Map();
      $("chat-error").textContent = "";
    }
    chat.match = view.match;
    chat.key = key;
    load();
  }
  render();
}

// A message from the match's WebSocket: {"type": "chat", "match", "message"}.
export function chatReceived(message) {
  if (message.match !== chat.match || !message.message) return;
  chat.messages.set(message.message.id, message.message);
  render();
}

// The WebSocket opened again: what was said meanwhile is read again.
export function chatReconnected() {
  if (chat.match !== null) load();
}

async function load() {
  const { match, key } = chat;
  const { query, headers } = chat.credentials;
  try {
    const [listing] = await Promise.all([
      api(`/api/matches/${match}/chat${query}`, { headers }),
      loadBlocks(),
    ]);
    if (chat.key !== key) return;
    chat.phrases = listing.phrases || {};
    chat.room = listing.room;
    if (!listing.rooms.includes("spectators")) {
      // (once a spectator, now a player)
      for (const [id, message] of chat.messages) {
        if (message.room === "spectators") chat.messages.delete(id);
      }
    }
    for (const message of listing.messages) chat.messages.set(message.id, message);
    $("chat-input", HTMLInputElement).maxLength = listing.max_length || 500;
  } catch {
    return; // what was shown stays
  }
  render();
}

// Who said it: a seat's player by name and seat ("Kato (light)"), or the seat alone
// when no player holds it; a spectator by name, marked so.
function speaker(message) {
  if (message.room === "spectators") {
    return t("{name} (spectator)", { name: shownName(message.name) });
  }
  const seat = chat.view.seats.find((s) => s.seat === message.seat);
  const seatName = seat ? t(seat.name) : String(message.seat);
  return message.name
    ? t("{player} ({seat})", { player: shownName(message.name), seat: seatName })
    : seatName;
}

function line(message) {
  const item = document.createElement("li");
  item.className = `chat-line ${message.room}`;
  const who = document.createElement("span");
  who.className = "chat-who";
  who.textContent = speaker(message);
  const said = document.createElement("span");
  said.className = message.phrase ? "chat-said phrase" : "chat-said";
  said.textContent = message.phrase
    ? t(chat.phrases[message.phrase] || message.phrase)
    : message.text;
  item.append(who, said);
  if (message.name && message.name !== currentPlayer().name) item.append(...actions(message));
  return item;
}

// The Mute and Report buttons of another player's message.
function actions(message) {
  const mute = document.createElement("button");
  mute.type = "button";
  mute.className = "chat-action chat-mute";
  mute.textContent = t("Mute");
  mute.addEventListener("click", () => act(() => setBlock(message.name, "mute")));
  const report = document.createElement("button");
  report.type = "button";
  report.className = "chat-action chat-report";
  report.textContent = t("Report");
  report.addEventListener("click", () =>
    act(async () => {
      if (await reportPlayer(message.name, { match: chat.match, message: message.id })) {
        $("chat-error").textContent = t("Thank you: a moderator will read your report.");
      }
    }),
  );
  return [mute, report];
}

async function act(doing) {
  $("chat-error").textContent = "";
  try {
    await doing();
  } catch (failure) {
    $("chat-error").textContent = failureText(failure);
  }
  render();
}

function renderPhrases() {
  const box = $("chat-phrases");
  const ids = Object.keys(chat.phrases);
  if (box.dataset.lang === document.documentElement.lang && box.children.length === ids.length) {
    return;
  }
  box.dataset.lang = document.documentElement.lang;
  box.replaceChildren(
    ...ids.map((id) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "chat-phrase";
      button.dataset.phrase = id;
      button.textContent = t(chat.phrases[id]);
      button.addEventListener("click", () => post({ phrase: id }));
      return button;
    }),
  );
}

function render() {
  if (!chat.view) return;
  const hidden = localStorage.getItem(HIDDEN) === "1";
  $("chat-hide", HTMLInputElement).checked = hidden;
  $("chat-body").hidden = hidden;
  $("chat-note").hidden = chat.room !== "spectators";
  $("chat-input", HTMLInputElement).placeholder = t("Message");
  renderPhrases();
  const shown = [...chat.messages.values()]
    .sort((a, b) => a.id - b.id)
    .filter((message) => chat.replayAt === null || message.move <= chat.replayAt)
    .filter((message) => !isHidden(message.name));
  const list = $("chat-messages");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.replaceChildren(...shown.map(line));
  $("chat-empty").hidden = shown.length > 0;
  if (atEnd) list.scrollTop = list.scrollHeight; // the newest in sight, unless scrolled back
}

async function post(body) {
  $("chat-error").textContent = "";
  if (chat.room === "spectators" && !(await ensurePlayer())) {
    $("chat-error").textContent = t("The server cannot be reached.");
    return false;
  }
  const { query, headers } = chat.credentials;
  try {
    const reply = await api(`/api/matches/${chat.match}/chat${query}`, { json: body, headers });
    chat.messages.set(reply.id, reply);
    render();
    return true;
  } catch (failure) {
    $("chat-error").textContent = failureText(failure);
    return false;
  }
}

function wire() {
  if (!has("chat")) return;
  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("chat-input", HTMLInputElement);
    if (!input.value.trim()) return;
    if (await post({ text: input.value })) input.value = "";
  });
  $("chat-hide", HTMLInputElement).addEventListener("change", () => {
    localStorage.setItem(HIDDEN, $("chat-hide", HTMLInputElement).checked ? "1" : "0");
    render();
  });
  onLanguageChange(render);
}

wire();
