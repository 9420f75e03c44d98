// 27 in the browser: the line of fields with their stacks of discs (white, black,
// and the grey and red base discs), drawn as SVG from the board view of
// games/twenty_seven/view/board.py. Each field is a button named by its number.
//
// draw(svg, board, ui): ui = {legal: [move texts], play(move), t(msgid),
//   memory: {} kept between draws, animate: bool, hint: {move: "F:K", instead: bool,
//   board} | null: the engine's move, drawn as a dashed arrow from its field to where
//   its discs land (a move of the line drawn; with instead, the better move in the
//   line before the last move, hint.board, that line's drawing data, saying where it
//   lands)}; board.last says where the last move's discs went, to mark them. A move "F:K" moves the top K
//   discs of field F: click a field to select it (its legal moves start with
//   "F:"), pick how many discs with a click on a disc of the stack (or the
//   arrow keys, or the digit keys), then click the highlighted field they reach.

const NS = "http://www.w3.org/2000/svg";
const FIELD_W = 58;
const DISC_H = 13;
const MARGIN = 14;
const FILL = { W: "#f6f3ea", B: "#1d1d1f", G: "#9a9a9a", R: "#c0392b" };
const STROKE = { W: "#6e6a5e", B: "#000", G: "#5b5b5b", R: "#7b2116" };
const N_ = (id) => id; // marks a message id translated later with t()
const NAMES = { W: N_("white"), B: N_("black"), G: N_("grey"), R: N_("red") };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function countsFrom(legal, field) {
  const counts = [];
  for (const move of legal) {
    const match = /^(\d+):(\d+)$/.exec(move);
    if (match && Number(match[1]) === field) counts.push(Number(match[2]));
  }
  return counts.sort((a, b) => a - b);
}

function direction(colour) {
  return colour === "W" ? 1 : -1;
}

// A stack in words: "1 disc, white on top", "3 discs, black on top" (ui.ngettext: the
// catalog's plural forms; English without one).
function describe(field, t, ngettext) {
  const count = field.stack.length;
  return ngettext("{count} disc, {colour} on top", "{count} discs, {colour} on top", count, {
    count,
    colour: t(NAMES[field.top]),
  });
}

function englishPlural(singular, plural, n, args = {}) {
  const text = n === 1 ? singular : plural;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in args ? String(args[key]) : whole));
}

export function draw(svg, board, ui) {
  const memory = ui.memory;
  const legal = ui.legal || [];
  const t = ui.t || ((s) => s);
  const ngettext = ui.ngettext || englishPlural;
  const fields = board.fields;
  if (
    memory.selected !== null &&
    memory.selected !== undefined &&
    countsFrom(legal, memory.selected).length === 0
  ) {
    memory.selected = null;
  }
  const counts =
    memory.selected === null || memory.selected === undefined
      ? []
      : countsFrom(legal, memory.selected);
  if (counts.length && !counts.includes(memory.count)) memory.count = counts[0];
  const reach = board.stacks[board.to_move] || 0;
  const target = counts.length ? memory.selected + direction(board.to_move) * reach : null;
  // Where the last move's discs went ({from, count, to}), as the server worked it out.
  const last = board.last || null;
  const focused = svg.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-field")
    : null;

  const peak = Math.max(12, ...fields.map((f) => f.stack.length));
  const width = fields.length * FIELD_W + 2 * MARGIN;
  const height = peak * DISC_H + 86;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("27 line"));
  el("rect", { x: 0, y: 0, width, height, rx: 8, class: "board-frame" }, svg);
  const floor = height - 30;

  const buttons = {};
  for (const field of fields) {
    const x = MARGIN + field.index * FIELD_W;
    const classes = ["field"];
    const movable = countsFrom(legal, field.index).length > 0;
    if (movable) classes.push("movable");
    const stuck = legal.length && board.stuck ? board.stuck[String(field.index)] : null;
    if (memory.selected === field.index) classes.push("selected");
    if (target === field.index) classes.push("target");
    if (last && last.to === field.index) classes.push("last-to");
    const group = el(
      "g",
      {
        class: classes.join(" "),
        role: "button",
        tabindex: "0",
        "aria-label": String(field.index),
        "data-field": String(field.index),
        "aria-description": describe(field, t, ngettext),
      },
      svg,
    );
    if (memory.selected === field.index) group.setAttribute("aria-pressed", "true");
    el(
      "rect",
      { x: x + 2, y: 30, width: FIELD_W - 4, height: floor - 28, rx: 6, class: "cell" },
      group,
    );
    const discs = el("g", { class: "stack" }, group);
    const n = field.stack.length;
    for (let i = 0; i < n; i++) {
      const disc = field.stack[i];
      const fromTop = n - i;
      const picked = memory.selected === field.index && fromTop <= (memory.count || 0);
      const canPick = memory.selected === field.index && counts.includes(fromTop);
      const moved = last && last.to === field.index && fromTop <= last.count;
      const rect = el(
        "rect",
        {
          x: x + 7,
          y: floor - (i + 1) * DISC_H,
          width: FIELD_W - 14,
          height: DISC_H - 1.5,
          rx: 4,
          fill: FILL[disc],
          stroke: STROKE[disc],
          "stroke-width": picked ? 2.5 : 1,
          class: `disc disc-${disc}${picked ? " picked" : ""}${moved ? " moved" : ""}`,
        },
        discs,
      );
      if (canPick) {
        rect.addEventListener("click", (event) => {
          event.stopPropagation();
          memory.count = fromTop;
          draw(svg, board, { ...ui, animate: false });
        });
      }
    }
    if (target === field.index) {
      el("circle", { cx: x + FIELD_W / 2, cy: floor + 16, r: 6, class: "target-dot" }, group);
    }
    if (movable) {
      el(
        "circle",
        { cx: x + FIELD_W / 2, cy: floor - n * DISC_H - 9, r: 5, class: "movable-mark" },
        group,
      );
    }
    const label = el(
      "text",
      { x: x + FIELD_W / 2, y: height - 8, "text-anchor": "middle", class: "coord" },
      group,
    );
    label.textContent = String(field.index);
    buttons[field.index] = { group, discs };

    const activate = () => {
      if (target === field.index && memory.selected !== null) {
        const move = `${memory.selected}:${memory.count}`;
        memory.selected = null;
        ui.play(move);
      } else if (memory.selected === field.index) {
        memory.selected = null;
        draw(svg, board, { ...ui, animate: false });
      } else if (movable) {
        memory.selected = field.index;
        memory.count = null;
        memory.whyNot = null;
        draw(svg, board, { ...ui, animate: false });
      } else if (stuck) {
        memory.selected = null;
        memory.whyNot = String(field.index);
        draw(svg, board, { ...ui, animate: false });
      } else if (memory.selected !== null) {
        memory.selected = null;
        draw(svg, board, { ...ui, animate: false });
      }
    };
    group.addEventListener("click", activate);
    group.addEventListener("keydown", (event) => {
      const refocus = () => {
        const again = svg.querySelector(`[data-field="${field.index}"]`);
        if (again) again.focus();
      };
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate();
        refocus();
      } else if (
        memory.selected === field.index &&
        counts.length &&
        (event.key === "ArrowUp" || event.key === "ArrowDown")
      ) {
        event.preventDefault();
        const at = counts.indexOf(memory.count);
        const next =
          event.key === "ArrowUp" ? Math.min(counts.length - 1, at + 1) : Math.max(0, at - 1);
        memory.count = counts[next];
        draw(svg, board, { ...ui, animate: false });
        refocus();
      } else if (
        memory.selected === field.index &&
        /^[1-9]$/.test(event.key) &&
        counts.includes(Number(event.key))
      ) {
        memory.count = Number(event.key);
        draw(svg, board, { ...ui, animate: false });
        refocus();
      } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        const next = svg.querySelector(
          `[data-field="${field.index + (event.key === "ArrowRight" ? 1 : -1)}"]`,
        );
        if (next) next.focus();
      }
    });
  }
  if (memory.selected !== null && memory.selected !== undefined && counts.length) {
    const status = el(
      "text",
      { x: width / 2, y: 20, "text-anchor": "middle", class: "pick-hint", "aria-live": "polite" },
      svg,
    );
    status.textContent = t("Move {count} of field {field}: choose where")
      .replace("{count}", String(memory.count))
      .replace("{field}", String(memory.selected));
  }
  if (focused !== null && buttons[focused]) buttons[focused].group.focus();
  drawHint(svg, board, ui.hint, floor);
  showScores(board, ui, t);

  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  if (last && ui.animate && !reduce && buttons[last.to]) {
    const dx = (last.from - last.to) * FIELD_W;
    for (const rect of buttons[last.to].discs.querySelectorAll(".moved")) {
      rect.animate([{ transform: `translate(${dx}px, -20px)` }, { transform: "translate(0, 0)" }], {
        duration: 300,
        easing: "ease-out",
      });
    }
  }
}

// Where the engine's move "F:K" goes, numbered as the line drawn: {from, to, count}, or
// null when that line cannot say (a better move whose line before is not at hand).
function hintFields(board, hint) {
  const match = /^(\d+):(\d+)$/.exec(hint?.move || "");
  if (!match) return null;
  const before = hint.instead ? hint.board : board;
  if (!before?.fields || !before.stacks) return null;
  const from = Number(match[1]);
  const to = from + direction(before.to_move) * (before.stacks[before.to_move] || 0);
  if (before === board) return { from, to, count: Number(match[2]) };
  // the line before the last move: a field the last move emptied has left the line since,
  // and the fields after it moved down one
  let gone = null;
  if (before.fields.length > board.fields.length && board.last) gone = board.last.from;
  const now = (field) =>
    gone === null || field < gone ? field : field === gone ? null : field - 1;
  if (now(from) === null || now(to) === null) return null;
  return { from: now(from), to: now(to), count: Number(match[2]) };
}

// The engine's move as a dashed arrow over the line, from its field to where its discs
// land, with how many discs it moves (pointer events pass through it).
function drawHint(svg, board, hint, floor) {
  const fields = hintFields(board, hint);
  if (
    !fields ||
    fields.from < 0 ||
    fields.to < 0 ||
    fields.from >= board.fields.length ||
    fields.to >= board.fields.length
  )
    return;
  const head = `hint-head-${svg.id || "line"}`;
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
  const group = el("g", { class: "hint", "pointer-events": "none", "data-hint": hint.move }, svg);
  const x0 = MARGIN + fields.from * FIELD_W + FIELD_W / 2;
  const x1 = MARGIN + fields.to * FIELD_W + FIELD_W / 2;
  el(
    "rect",
    {
      x: x0 - FIELD_W / 2 + 3,
      y: 31,
      width: FIELD_W - 6,
      height: floor - 30,
      rx: 6,
      class: "hint-from",
    },
    group,
  );
  const y = 40;
  el(
    "path",
    {
      d: `M ${x0} ${y} Q ${(x0 + x1) / 2} ${y - 22} ${x1} ${y}`,
      class: "hint-arrow",
      "marker-end": `url(#${head})`,
    },
    group,
  );
  const label = el(
    "text",
    { x: (x0 + x1) / 2, y: y - 21, "text-anchor": "middle", class: "hint-count" },
    group,
  );
  label.textContent = String(fields.count);
}

// T5 so far (the final score once the game is over, ui.over): the discs on each
// player's target field above its base, below the board; and each player's number of
// stacks, the distance its moves go, which the whole game turns on.
function showScores(board, ui, t) {
  const notes = ui.notes || document.getElementById("board-notes");
  if (!notes || !board.scores) return;
  const line = document.createElement("p");
  line.className = "scores";
  line.setAttribute("aria-live", "polite");
  const scores = { white: board.scores.W, black: board.scores.B };
  line.textContent = ui.over
    ? t("Final score: white {white}, black {black}", scores)
    : t("Score so far: white {white}, black {black}", scores);
  const reach = document.createElement("p");
  reach.className = "stack-counts";
  if (board.stacks) {
    reach.textContent = t("Stacks (how far a move goes): white {white}, black {black}", {
      white: board.stacks.W,
      black: board.stacks.B,
    });
  }
  notes.replaceChildren(line, reach);
  // Why the field last clicked cannot move (the engine's sentence), while it still holds.
  const legal = ui.legal || [];
  const reason =
    legal.length && board.stuck && ui.memory && ui.memory.whyNot !== undefined
      ? board.stuck[ui.memory.whyNot]
      : null;
  if (reason) {
    const why = document.createElement("p");
    why.className = "why-not";
    why.setAttribute("role", "status");
    why.textContent = t("Field {field} cannot move: {reason}", { field: ui.memory.whyNot, reason });
    notes.append(why);
  } else if (ui.memory) {
    ui.memory.whyNot = undefined;
  }
}
