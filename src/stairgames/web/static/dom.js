// The page's DOM helpers, one copy for every module: `$` finds an element by its id
// (checked to be of the kind the caller reads it as), `button` makes a plain button.

/**
 * The element with this id; `kind` (HTMLElement unless given: HTMLInputElement,
 * HTMLSelectElement, SVGSVGElement, ...) is checked, so a missing or different element
 * fails here, by its id, rather than later as "cannot read properties of null".
 *
 * @template {Element} [T=HTMLElement]
 * @param {string} id
 * @param {new (...args: any[]) => T} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`The page has no element #${id}.`);
  // (unchecked without a kind: #board and the other drawings are SVG elements)
  if (kind && !(node instanceof kind)) throw new TypeError(`#${id} is not a ${kind.name}.`);
  return /** @type {T} */ (/** @type {unknown} */ (node));
}

/**
 * Whether the page has an element with this id (a module wires itself only where its
 * part of the page is there).
 *
 * @param {string} id
 * @returns {boolean}
 */
export function has(id) {
  return document.getElementById(id) !== null;
}

/**
 * A plain button (type "button", never a form's submit) saying `text`.
 *
 * @param {string} text
 * @param {(event: MouseEvent) => void} onClick
 * @returns {HTMLButtonElement}
 */
export function button(text, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  node.addEventListener("click", onClick);
  return node;
}
