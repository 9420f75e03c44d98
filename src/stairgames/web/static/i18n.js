// Translations: message ids are the English texts; GET /api/i18n/{lang} gives the
// catalog ({"lang", "messages": {msgid: msgstr}}, a plural's msgstr the list of its
// forms under its singular; English is empty: identity). t translates, ngettext counts.
// The chosen language is remembered in localStorage and can change at any time.

import { api } from "./net.js";

/** @type {Record<string, string>} */
export const LANGUAGES = { en: "English", ja: "日本語" };
const KEY = "stairgames.lang";
/** @type {Record<string, string | string[]>} msgid -> msgstr (a plural's forms: a list) */
let messages = {};
let current = "en";
/** @type {((lang: string) => void)[]} */
const listeners = [];

/**
 * A text the server sent as JSON (stairgames.i18n.text_json): see say.
 *
 * @typedef {string | number | boolean | null | undefined | TextNode} Text
 * @typedef {object} TextNode
 * @property {string} [id]
 * @property {Record<string, unknown>} [args]
 * @property {string} [plural]
 * @property {number} [n]
 * @property {Text[]} [names]
 * @property {boolean} [and]
 * @property {Text[]} [join]
 * @property {Text[]} [lines]
 * @property {string} [bullet]
 */

// t(id, args): the message in the current language with {name} (also {name!r}, as
// Python's repr of a string, and {name:spec}, the spec ignored) filled from args; an
// argument that is a text structure (see say) is translated first.
/**
 * @param {string} id
 * @param {Record<string, unknown>} [args]
 * @returns {string}
 */
export function t(id, args = {}) {
  let text = messages[id] || id;
  if (Array.isArray(text)) text = text[0];
  return fill(text, args);
}

// ngettext(singular, plural, n, args): the form of a plural message for the count n, as
// gettext's ngettext gives it, filled from args like t. The catalog serves a plural under
// its singular with the list of its language's forms (Japanese has one); English, with
// no catalog, says the singular for 1 and the plural otherwise.
/**
 * @param {string} singular the message id
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, unknown>} [args]
 * @returns {string}
 */
export function ngettext(singular, plural, n, args = {}) {
  const forms = messages[singular];
  const english = n === 1 ? singular : plural;
  return fill(Array.isArray(forms) ? pluralForm(forms, n) : english, args);
}

// The form of a catalog's plural for n: a language with one form (Japanese) always says
// it; one with two (singular and plural, as English) the first for 1, else the second.
/**
 * @param {string[]} forms
 * @param {number} n
 * @returns {string}
 */
function pluralForm(forms, n) {
  return forms.length === 1 || n === 1 ? forms[0] : forms[forms.length - 1];
}

/**
 * @param {string} text
 * @param {Record<string, unknown>} args
 * @returns {string}
 */
function fill(text, args) {
  return text.replace(
    /\{(\w+)(![rsa])?(:[^{}]*)?\}/g,
    (
      /** @type {string} */ whole,
      /** @type {string} */ name,
      /** @type {string | undefined} */ conversion,
    ) => {
      if (!args || !(name in args)) return whole;
      const value = args[name];
      if (value !== null && typeof value === "object") return say(value);
      return conversion === "!r" && typeof value === "string" ? `'${value}'` : String(value);
    },
  );
}

// say(node): a text the server sent as JSON (stairgames.i18n.text_json) in the current
// language, as Python's localize gives it: {"id", "args"} a message filled with its
// arguments (each a node too), plurals with "plural" and "n", {"names": [...], "and"}
// a list of names, {"lines": [...], "bullet"} one a line, {"join": [...]} texts written one
// after the other; numbers and text as they are.
/**
 * @param {unknown} value a Text
 * @returns {string}
 */
export function say(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  const node = /** @type {TextNode} */ (value);
  if (Array.isArray(node.names)) {
    const words = node.names.map((name) => say(name));
    if (!node.and) return words.join(t(", "));
    if (words.length < 2) return words.join("");
    return t("{items} and {last}", {
      items: words.slice(0, -1).join(t(", ")),
      last: words[words.length - 1],
    });
  }
  if (Array.isArray(node.join)) return node.join.map((part) => say(part)).join("");
  if (Array.isArray(node.lines)) {
    return node.lines.map((line) => (node.bullet ?? "") + say(line)).join("\n");
  }
  if (typeof node.id !== "string") return "";
  if (node.plural !== undefined) {
    return ngettext(node.id, node.plural, Number(node.n), node.args || {});
  }
  const template = messages[node.id] || node.id;
  return fill(Array.isArray(template) ? template[0] : template, node.args || {});
}

export function language() {
  return current;
}

export function preferredLanguage() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGUAGES) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** @param {string} lang */
export async function setLanguage(lang) {
  if (!(lang in LANGUAGES)) lang = "en";
  let loaded = {};
  if (lang !== "en") {
    try {
      loaded = (await api(`/api/i18n/${lang}`)).messages || {};
    } catch {
      // no catalog: the English ids
    }
  }
  messages = loaded;
  current = lang;
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  translateStatic(document);
  for (const listener of listeners) listener(lang);
}

/** @param {(lang: string) => void} listener */
export function onLanguageChange(listener) {
  listeners.push(listener);
}

// Elements marked with data-i18n get its message as text; data-i18n-label sets aria-label.
/** @param {ParentNode} root */
export function translateStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.getAttribute("data-i18n") ?? "");
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.getAttribute("data-i18n-label") ?? ""));
  }
}
