// Stairs in the browser: a checkered board of stacks (board.size squares a side, 3
// to 8; 6 by default), drawn as SVG from the board view of games/stairs/view/board.py. Each
// square is a button named by its notation (c3); a stack shows its discs from the
// side with its height on the top disc.
//
// draw(svg, board, ui): ui = {legal: [move texts], lastMove: "d3-c4" | null,
//   play(move), t(msgid), memory: {} kept between draws, you: seat | null,
//   animate: bool, hint: {move: "b2-c3", instead: bool} | null: the engine's move, drawn
//   as a dashed arrow (a move of the position drawn, or, with instead, the better move
//   in the position before ui.lastMove)}. A click on a piece selects it and highlights the squares its
//   legal moves reach (matched by their source: "c3-d4" starts at c3); a click on a
//   highlighted square plays the move. A click on a piece of the colour to move that
//   cannot move says why, in the engine's words (board.stuck, by square), below the
//   board.

const NS = "http://www.w3.org/2000/svg";
const CELL = 60;
const MARGIN = 22;
const DISC_H = 7;
const COLOURS = { L: ["#f4ead2", "#6b5a3a"], D: ["#3b2a1e", "#e8dcc0"] };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function movesFrom(legal, square) {
  return legal.filter((m) => /^[a-h][1-8]-[a-h][1-8]$/.test(m) && m.slice(0, 2) === square);
}

function cellPosition(board, name, flipped) {
  const file = board.files.indexOf(name[0]);
  const rank = board.ranks.indexOf(name[1]);
  const col = flipped ? board.size - 1 - file : file;
  const row = flipped ? rank : board.size - 1 - rank;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

// The discs go in group, the height's figure in words: beside the square's button, so
// that the figure drawn on it is not taken for its name (the description says it).
function drawStack(group, square, x, y, words) {
  const cx = x + CELL / 2;
  const shown = square.stack.slice(-5);
  const rx = CELL * 0.36;
  const ry = 8;
  const base = y + CELL - 6 - ry;
  for (let i = 0; i < shown.length; i++) {
    const [fill, stroke] = COLOURS[shown[i]];
    const cy = base - i * DISC_H;
    el(
      "path",
      {
        d:
          `M ${cx - rx} ${cy - DISC_H} v ${DISC_H} a ${rx} ${ry} 0 0 0 ${2 * rx} 0 ` +
          `v ${-DISC_H} Z`,
        fill,
        stroke,
        "stroke-width": 1,
        class: "disc-side",
      },
      group,
    );
  }
  const topY = base - shown.length * DISC_H;
  const [fill, stroke] = COLOURS[square.top];
  el(
    "ellipse",
    { cx, cy: topY, rx, ry, fill, stroke, "stroke-width": 1.2, class: "disc-top" },
    group,
  );
  const label = el(
    "text",
    {
      x: cx,
      y: topY + 5,
      "text-anchor": "middle",
      "font-size": 14,
      "font-weight": 700,
      fill: stroke,
      class: "height",
    },
    words,
  );
  label.textContent = String(square.height);
}

function describe(square, t) {
  if (!square.top) return t("empty");
  const colour = square.top === "L" ? t("light") : t("dark");
  return t("{colour} on top, height {height}")
    .replace("{colour}", colour)
    .replace("{height}", String(square.height));
}

export function draw(svg, board, ui) {
  const memory = ui.memory;
  const legal = ui.legal || [];
  const t = ui.t || ((s) => s);
  const flipped = ui.you !== null && ui.you !== undefined && ui.you !== board.light_seat;
  if (memory.selected && movesFrom(legal, memory.selected).length === 0) memory.selected = null;
  const targets = new Map();
  if (memory.selected) {
    for (const move of movesFrom(legal, memory.selected)) targets.set(move.slice(3), move);
  }
  const last = /^[a-h][1-8]-[a-h][1-8]$/.test(ui.lastMove || "") ? ui.lastMove : null;
  const focused = svg.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-square")
    : null;

  const side = board.size * CELL + 2 * MARGIN;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("Stairs board"));
  el("rect", { x: 0, y: 0, width: side, height: side, rx: 8, class: "board-frame" }, svg);

  for (let i = 0; i < board.size; i++) {
    const pos = flipped ? board.size - 1 - i : i;
    const fileLabel = el(
      "text",
      { x: MARGIN + pos * CELL + CELL / 2, y: side - 6, "text-anchor": "middle", class: "coord" },
      svg,
    );
    fileLabel.textContent = board.files[i];
    const row = flipped ? i : board.size - 1 - i;
    const rankLabel = el(
      "text",
      {
        x: MARGIN / 2,
        y: MARGIN + row * CELL + CELL / 2 + 4,
        "text-anchor": "middle",
        class: "coord",
      },
      svg,
    );
    rankLabel.textContent = board.ranks[i];
  }

  const buttons = {};
  for (const square of board.squares) {
    const [x, y] = cellPosition(board, square.name, flipped);
    const file = board.files.indexOf(square.name[0]);
    const rank = board.ranks.indexOf(square.name[1]);
    const dark = (file + rank) % 2 === 0;
    const selectable = movesFrom(legal, square.name).length > 0;
    const classes = ["square", dark ? "sq-dark" : "sq-light"];
    if (last && (last.slice(0, 2) === square.name || last.slice(3) === square.name)) {
      classes.push(last.slice(3) === square.name ? "last-to" : "last-from");
    }
    if (memory.selected === square.name) classes.push("selected");
    if (targets.has(square.name)) classes.push("target");
    if (selectable) classes.push("movable");
    const stuck = legal.length && board.stuck ? board.stuck[square.name] : null;
    if (board.peak > 1 && square.height === board.peak) classes.push("peak");
    const group = el(
      "g",
      {
        class: classes.join(" "),
        role: "button",
        tabindex: "0",
        "aria-label": square.name,
        "data-square": square.name,
        "aria-description": describe(square, t),
      },
      svg,
    );
    if (memory.selected === square.name) group.setAttribute("aria-pressed", "true");
    el("rect", { x, y, width: CELL, height: CELL, class: "cell" }, group);
    if (targets.has(square.name)) {
      el(
        "circle",
        { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.42, class: "target-ring" },
        group,
      );
    }
    const pieces = el("g", { class: "stack" }, group);
    if (selectable)
      el("circle", { cx: x + CELL - 9, cy: y + 9, r: 5, class: "movable-mark" }, group);
    const words = el(
      "g",
      { "aria-hidden": "true", "pointer-events": "none", "data-height-of": square.name },
      svg,
    );
    if (square.height > 0) drawStack(pieces, square, x, y, words);
    buttons[square.name] = { group, pieces, words };
    const activate = () => {
      if (targets.has(square.name)) {
        const move = targets.get(square.name);
        memory.selected = null;
        ui.play(move);
      } else if (memory.selected === square.name) {
        memory.selected = null;
        draw(svg, board, { ...ui, animate: false });
      } else if (selectable) {
        memory.selected = square.name;
        memory.whyNot = null;
        draw(svg, board, { ...ui, animate: false });
      } else if (stuck) {
        memory.selected = null;
        memory.whyNot = square.name;
        draw(svg, board, { ...ui, animate: false });
      } else if (memory.selected) {
        memory.selected = null;
        draw(svg, board, { ...ui, animate: false });
      }
    };
    group.addEventListener("click", activate);
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate();
        const again = svg.querySelector(`[data-square="${square.name}"]`);
        if (again) again.focus();
        return;
      }
      const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowRight: [1, 0], ArrowLeft: [-1, 0] };
      if (!(event.key in steps)) return;
      event.preventDefault();
      let [df, dr] = steps[event.key];
      if (flipped) [df, dr] = [-df, -dr];
      const f = file + df;
      const r = rank + dr;
      if (f < 0 || r < 0 || f >= board.size || r >= board.size) return;
      const next = svg.querySelector(`[data-square="${board.files[f]}${board.ranks[r]}"]`);
      if (next) next.focus();
    });
  }
  if (focused && buttons[focused]) buttons[focused].group.focus();
  drawHint(svg, board, ui.hint, flipped);
  showWhyNot(board, ui, legal, t);

  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  if (last && ui.animate && !reduce && buttons[last.slice(3)]) {
    const [x0, y0] = cellPosition(board, last.slice(0, 2), flipped);
    const [x1, y1] = cellPosition(board, last.slice(3), flipped);
    const { pieces, words } = buttons[last.slice(3)];
    for (const layer of [pieces, words]) {
      layer.animate(
        [{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0, 0)" }],
        { duration: 260, easing: "ease-out" },
      );
    }
  }
}

// The engine's move as a dashed arrow from its square to its target, over the board
// (pointer events pass through it to the squares).
function drawHint(svg, board, hint, flipped) {
  const move = hint && /^[a-h][1-8]-[a-h][1-8]$/.test(hint.move || "") ? hint.move : null;
  if (!move) return;
  const [x0, y0] = cellPosition(board, move.slice(0, 2), flipped);
  const [x1, y1] = cellPosition(board, move.slice(3), flipped);
  const head = `hint-head-${svg.id || "board"}`;
  const defs = el("defs", {}, svg);
  const marker = el(
    "marker",
    {
      id: head,
      viewBox: "0 0 10 10",
      refX: 5,
      refY: 5,
      markerWidth: 3,
      markerHeight: 3,
      orient: "auto-start-reverse",
    },
    defs,
  );
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "hint-head" }, marker);
  const group = el("g", { class: "hint", "pointer-events": "none", "data-hint": move }, svg);
  const half = CELL / 2;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const length = Math.hypot(dx, dy) || 1;
  const trim = CELL * 0.22; // from the middle of the square, short of the next middle
  el("circle", { cx: x0 + half, cy: y0 + half, r: CELL * 0.4, class: "hint-from" }, group);
  el(
    "line",
    {
      x1: x0 + half + (dx / length) * trim,
      y1: y0 + half + (dy / length) * trim,
      x2: x1 + half - (dx / length) * trim,
      y2: y1 + half - (dy / length) * trim,
      class: "hint-arrow",
      "marker-end": `url(#${head})`,
    },
    group,
  );
}

// Why the piece last clicked cannot move (the engine's sentence), below the board; no
// longer said once the position or the turn changed.
function showWhyNot(board, ui, legal, t) {
  const memory = ui.memory;
  const notes = ui.notes || document.getElementById("board-notes");
  if (!notes) return;
  const reason = legal.length && board.stuck && memory.whyNot ? board.stuck[memory.whyNot] : null;
  if (!reason) {
    memory.whyNot = null;
    notes.replaceChildren();
    return;
  }
  const line = document.createElement("p");
  line.className = "why-not";
  line.setAttribute("role", "status");
  line.textContent = t("{square} cannot move: {reason}", { square: memory.whyNot, reason });
  notes.replaceChildren(line);
}
