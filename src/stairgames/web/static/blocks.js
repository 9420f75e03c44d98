// Whom this browser's player blocked or muted (GET /api/blocks; server/people/blocks.py),
// kept here for the chat, which hides their live messages (the server leaves them out of
// the listings itself), and the profile's Block, Mute and Report buttons.
import { t } from "./i18n.js";
import { api } from "./net.js";

/**
 * A player blocked (no games, no chat) or muted (no chat).
 *
 * @typedef {{id: string, name: string, kind: "block" | "mute"}} Blocked
 */

/** @type {Blocked[]} */
let blocked = [];
/** @type {Promise<Blocked[]> | null} */
let loading = null;

/**
 * Whom the player blocked or muted, read once (again after `setBlock`).
 *
 * @returns {Promise<Blocked[]>}
 */
export function loadBlocks() {
  loading ??= api("/api/blocks")
    .then((/** @type {{blocks: Blocked[]}} */ reply) => {
      blocked = reply.blocks;
      return blocked;
    })
    .catch(() => blocked);
  return loading;
}

/**
 * The kind of keeping-away of the player named `name`: "block", "mute" or "none".
 *
 * @param {string | null} name
 * @returns {"block" | "mute" | "none"}
 */
export function blockKind(name) {
  return blocked.find((entry) => entry.name === name)?.kind ?? "none";
}

/**
 * Whether what the player named `name` says is hidden (blocked or muted).
 *
 * @param {string | null} name
 * @returns {boolean}
 */
export function isHidden(name) {
  return blockKind(name) !== "none";
}

/**
 * Block, mute or neither the player named `name` (POST /api/blocks).
 *
 * @param {string} name
 * @param {"block" | "mute" | "none"} kind
 */
export async function setBlock(name, kind) {
  const reply = await api("/api/blocks", { json: { name, kind } });
  blocked = reply.blocks;
  loading = Promise.resolve(blocked);
}

/**
 * Ask what happened and report the player named `name` (POST /api/reports), about a
 * match and a chat message when given: whether a report was sent (none if the question
 * was cancelled).
 *
 * @param {string} name
 * @param {{match?: string, message?: number}} [about]
 * @returns {Promise<boolean>}
 */
export async function reportPlayer(name, about = {}) {
  const text = prompt(t("Report {name}: what happened?", { name }));
  if (!text?.trim()) return false;
  await api("/api/reports", { json: { name, text, ...about } });
  return true;
}
