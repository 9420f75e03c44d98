// Translations: message ids are the English texts; GET /api/i18n/{lang} gives the
// catalog ({"lang", "messages": {msgid: msgstr}}; English is empty: identity).
// The chosen language is remembered in localStorage and can change at any time.

export const LANGUAGES = { en: "English", ja: "日本語" };
const KEY = "stairgames.lang";
let messages = {};
let current = "en";
const listeners = [];

// t(id, args): the message in the current language with {name} (also {name!r}, as
// Python's repr of a string, and {name:spec}, the spec ignored) filled from args.
export function t(id, args = {}) {
  let text = messages[id] || id;
  if (Array.isArray(text)) text = text[0];
  return text.replace(/\{(\w+)(![rsa])?(:[^{}]*)?\}/g, (whole, name, conversion) => {
    if (!args || !(name in args)) return whole;
    const value = args[name];
    return conversion === "!r" && typeof value === "string" ? `'${value}'` : String(value);
  });
}

export function language() {
  return current;
}

export function preferredLanguage() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGUAGES) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
}

export async function setLanguage(lang) {
  if (!(lang in LANGUAGES)) lang = "en";
  let loaded = {};
  if (lang !== "en") {
    const response = await fetch(`/api/i18n/${lang}`);
    if (response.ok) loaded = (await response.json()).messages || {};
  }
  messages = loaded;
  current = lang;
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  translateStatic(document);
  for (const listener of listeners) listener(lang);
}

export function onLanguageChange(listener) {
  listeners.push(listener);
}

// Elements marked with data-i18n get its message as text; data-i18n-label sets aria-label.
export function translateStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.getAttribute("data-i18n"));
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.getAttribute("data-i18n-label")));
  }
}
