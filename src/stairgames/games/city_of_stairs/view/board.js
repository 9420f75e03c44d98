// City of Stairs in the browser: the 7×4 city with the lighthouse above and the seaside
// below, the stock, and each seat's character, departure card, diary and stroll, drawn
// as SVG from the board view of games/city_of_stairs/view/board.py.
//
// draw(svg, board, ui): ui = {legal: [move texts], lastMove, play(move), t(msgid, args),
//   memory: {} kept between draws, you: seat | null, animate: bool,
//   hint: {move, instead: bool, board} | null: the engine's move, marked "better": a
//   placement ("P03@c2") as a ghost of the card on its cell (with a dashed arrow from the
//   stock while the card is there), a stroll choice ("nw", "ne", "turn", "on") as its
//   button ringed where the walker stands (a ghost of the button where it stood, once
//   it has walked on). With instead it is the better move in the position before
//   ui.lastMove (the analysis of a finished game), hint.board that position's drawing
//   data (the card's face, where the walker stood); else a move of the position drawn
//   (the analysis board)}.
// Building: a click on a stock card selects it and rings the cells its legal moves reach
// ("P03@c2" puts P03 on c2); a click on a ringed cell plays the move. Strolling: the
// choices open to the walker ("nw", "ne", "turn", "on") are buttons on the card it
// stands on (or on its seaside card). Every card, cell and choice is a button with an
// accessible name; the arrow keys move between cells.

const NS = "http://www.w3.org/2000/svg";
const N_ = (id) => id; // marks a message id translated later with t()
const M = 14;
const CW = 84;
const CH = 100;
const GAP = 4;
const LH = 58;
const SH = 46;
const SEAT_H = 74;
const COLOURS = { red: "#cf3f35", blue: "#2d68c4", green: "#2b8f45", yellow: "#d9a400" };
const GLYPH = { nw: "↖", ne: "↗", ignore: "≈", turn: "↺", on: "≈" };
const CHOICE_NAMES = {
  nw: N_("↖: up a row, then left"),
  ne: N_("↗: up a row, then right"),
  turn: N_("↺: turn around"),
  on: N_("≈: ignore the arrow and keep going"),
};
const END_NAMES = {
  five: N_("five diary cards"),
  lighthouse: N_("reached the lighthouse"),
  trapped: N_("trapped"),
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attrs = {}) {
  const node = el("text", { x, y, ...attrs }, parent);
  node.textContent = content;
  return node;
}

// About how wide a label is at 12px: Japanese characters take about twice a Latin one.
function labelWidth(label) {
  let width = 0;
  for (const ch of label) width += ch.codePointAt(0) > 0x2e80 ? 12.5 : 7.2;
  return width;
}

function colourOf(name) {
  return COLOURS[name] || "#6b6b6b";
}

const WIDTH = 2 * M + 7 * CW + 6 * GAP;
const ROW_TOP = M + LH + GAP;
const SEASIDE_TOP = ROW_TOP + 4 * (CH + GAP);
const STOCK_TOP = SEASIDE_TOP + SH + 30;
const SEATS_TOP = STOCK_TOP + CH + 18;

function cellX(column) {
  return M + column * (CW + GAP);
}

function cellY(row) {
  return ROW_TOP + (3 - row) * (CH + GAP);
}

function cellAt(name) {
  return { column: "abcdefg".indexOf(name[0]), row: Number(name[1]) - 1 };
}

function cellCentre(name) {
  const { column, row } = cellAt(name);
  return [cellX(column) + CW / 2, cellY(row) + CH / 2];
}

function seasideCentre(number) {
  return [cellX(number - 1) + CW / 2, SEASIDE_TOP + SH / 2];
}

const LIGHTHOUSE_CENTRE = [WIDTH / 2 - 85 + 28, M + LH / 2 + 4]; // on the tower

// ----- words -----------------------------------------------------------------------

function iconWords(icon, t) {
  if (!icon.colour) return GLYPH[icon.kind];
  const colour = t(icon.colour);
  if (icon.kind === "ignore") return t("{colour} may ignore ↖/↗", { colour });
  if (icon.kind === "turn") return t("{colour} turns around", { colour });
  return t("{colour} only {arrow}", { colour, arrow: GLYPH[icon.kind] });
}

// A card in words: its id (left out where the label names it already), stairs, experience
// and icons, listed with the language's comma.
function describeCard(card, t, withId = true) {
  const parts = withId ? [card.id] : [];
  if (card.stairs) parts.push(t("stairs"));
  if (card.experience) parts.push(t(card.experience));
  if (card.left.length) {
    parts.push(
      t("bottom left: {icons}", { icons: card.left.map((i) => iconWords(i, t)).join(" ") }),
    );
  }
  if (card.right.length) {
    parts.push(
      t("bottom right: {icons}", { icons: card.right.map((i) => iconWords(i, t)).join(" ") }),
    );
  }
  return parts.join(t(", "));
}

// ----- cards -----------------------------------------------------------------------

function drawStairs(group, x, y) {
  const steps = 4;
  const w = 11;
  const h = 9;
  let d = `M ${x + 18} ${y + 74}`;
  for (let i = 0; i < steps; i++) d += ` v ${-h} h ${w}`;
  d += ` V ${y + 74} Z`;
  el("path", { d, class: "cos-stairs" }, group);
}

// The icons of a bottom corner, from its edge inwards; narrower when both corners
// together hold more than three, so that they never overlap.
function drawCorner(group, icons, x, y, fromRight, total, words = group) {
  const step = Math.min(24, (CW - 6) / Math.max(1, total));
  const size = step - 2;
  icons.forEach((icon, i) => {
    const bx = fromRight ? x - (i + 1) * step : x + i * step;
    const coloured = Boolean(icon.colour);
    el(
      "rect",
      {
        x: bx,
        y: y + 22 - size,
        width: size,
        height: size,
        rx: 5,
        fill: coloured ? colourOf(icon.colour) : "#fff",
        stroke: coloured ? "#222" : "#555",
        "stroke-width": 1,
      },
      group,
    );
    text(words, bx + size / 2, y + 17, GLYPH[icon.kind], {
      "text-anchor": "middle",
      "font-size": Math.min(17, size - 3),
      "font-weight": 700,
      fill: coloured ? "#fff" : "#111",
      class: "cos-glyph",
    });
  });
}

// A card's shapes go in group, its words in words (by default the same group): a button's
// words go beside it, so that what is drawn on a card is not taken for the button's name.
function drawCard(group, card, x, y, t, words = group) {
  el("rect", { x, y, width: CW, height: CH, rx: 7, class: `cos-card cos-${card.kind}` }, group);
  text(words, x + CW - 4, y + 12, card.id, { "text-anchor": "end", class: "cos-id" });
  if (card.stairs) drawStairs(group, x + 8, y);
  if (card.experience) {
    const label = t(card.experience);
    const width = Math.min(CW - 40, labelWidth(label));
    el(
      "rect",
      { x: x + 3, y: y + 3, width: width + 12, height: 20, rx: 10, class: "cos-experience" },
      group,
    );
    text(words, x + 9, y + 17, label, {
      class: "cos-experience-text",
      textLength: width,
      lengthAdjust: "spacingAndGlyphs",
    });
  }
  const total = card.left.length + card.right.length;
  drawCorner(group, card.left, x + 3, y + CH - 25, false, total, words);
  drawCorner(group, card.right, x + CW - 3, y + CH - 25, true, total, words);
}

// ----- the table ---------------------------------------------------------------------

function placementsBy(legal) {
  const byCard = new Map();
  for (const move of legal) {
    const match = /^([^@\s]+)@([a-g][1-4])$/.exec(move);
    if (!match) continue;
    if (!byCard.has(match[1])) byCard.set(match[1], new Map());
    byCard.get(match[1]).set(match[2], move);
  }
  return byCard;
}

function choicesIn(legal) {
  return legal.filter((move) => move in GLYPH && move !== "ignore");
}

// The layer drawn just after a button for the words on it: hidden from assistive
// technology (the button's description says them) and letting clicks through to it.
function wordsLayer(svg) {
  return el("g", { class: "cos-words", "aria-hidden": "true", "pointer-events": "none" }, svg);
}

function asButton(group, name, description, activate) {
  group.setAttribute("role", "button");
  group.setAttribute("tabindex", "0");
  group.setAttribute("aria-label", name);
  if (description) group.setAttribute("aria-description", description);
  group.addEventListener("click", activate);
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate();
    }
  });
}

function drawLighthouse(svg, board, t) {
  const g = el("g", { class: "cos-lighthouse" }, svg);
  const w = 170;
  const x = WIDTH / 2 - w / 2;
  el("rect", { x, y: M, width: w, height: LH - 4, rx: 8, class: "cos-lighthouse-card" }, g);
  const cx = x + 28;
  el(
    "path",
    {
      d:
        `M ${cx - 9} ${M + LH - 10} L ${cx - 5} ${M + 16} L ${cx + 5} ${M + 16} ` +
        `L ${cx + 9} ${M + LH - 10} Z`,
      class: "cos-tower",
    },
    g,
  );
  el(
    "path",
    { d: `M ${cx - 6} ${M + 16} L ${cx} ${M + 7} L ${cx + 6} ${M + 16} Z`, class: "cos-lamp" },
    g,
  );
  text(g, x + 48, M + 24, t("lighthouse"), { class: "cos-label" });
  text(g, x + 48, M + 44, t("{points} points", { points: board.lighthouse_points }), {
    class: "cos-small",
  });
  g.setAttribute("role", "img");
  g.setAttribute(
    "aria-label",
    t("The lighthouse, above row 4: {points} points", { points: board.lighthouse_points }),
  );
}

function drawSeaside(svg, board, t) {
  for (const number of board.seaside) {
    const g = el(
      "g",
      { class: "cos-seaside", role: "img", "aria-label": t("Seaside card {number}", { number }) },
      svg,
    );
    const x = cellX(number - 1);
    el("rect", { x, y: SEASIDE_TOP, width: CW, height: SH, rx: 7, class: "cos-sea" }, g);
    text(g, x + CW / 2, SEASIDE_TOP + 30, `↖ ${"①②③④⑤⑥⑦"[number - 1] || number} ↗`, {
      "text-anchor": "middle",
      class: "cos-sea-text",
    });
  }
}

function drawCells(svg, board, ui, state) {
  const { t, memory } = ui;
  const targets = memory.selected ? state.byCard.get(memory.selected) || new Map() : new Map();
  const anyCard = new Set();
  for (const cells of state.byCard.values()) for (const cell of cells.keys()) anyCard.add(cell);
  const buttons = {};
  for (const cell of board.cells) {
    const { column, row } = cellAt(cell.name);
    const x = cellX(column);
    const y = cellY(row);
    const classes = ["cos-cell"];
    if (targets.has(cell.name)) classes.push("target");
    else if (anyCard.has(cell.name)) classes.push("open");
    if (state.last === cell.name) classes.push("last");
    const g = el("g", { class: classes.join(" "), "data-cell": cell.name }, svg);
    if (cell.card) drawCard(g, cell.card, x, y, t, wordsLayer(svg));
    else {
      el("rect", { x, y, width: CW, height: CH, rx: 7, class: "cos-empty" }, g);
      text(g, x + CW / 2, y + CH / 2 + 5, cell.name, {
        "text-anchor": "middle",
        class: "cos-cell-name",
      });
    }
    if (targets.has(cell.name)) {
      el(
        "rect",
        { x: x + 3, y: y + 3, width: CW - 6, height: CH - 6, rx: 6, class: "cos-target-ring" },
        g,
      );
    }
    const description = cell.card ? describeCard(cell.card, t) : t("empty");
    const activate = () => {
      if (targets.has(cell.name)) {
        const move = targets.get(cell.name);
        memory.selected = null;
        ui.play(move);
      } else if (anyCard.has(cell.name) && !memory.selected) {
        ui.say(t("Choose a stock card first, then a highlighted cell."));
      }
    };
    asButton(g, cell.name, description, activate);
    g.addEventListener("keydown", (event) => {
      const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowRight: [1, 0], ArrowLeft: [-1, 0] };
      if (!(event.key in steps)) return;
      event.preventDefault();
      const [dc, dr] = steps[event.key];
      const c = column + dc;
      const r = row + dr;
      if (c < 0 || c > 6 || r < 0 || r > 3) return;
      const next = svg.querySelector(`[data-cell="${"abcdefg"[c]}${r + 1}"]`);
      if (next) next.focus();
    });
    buttons[cell.name] = g;
  }
  return buttons;
}

function drawStock(svg, board, ui, state) {
  const { t, memory } = ui;
  text(svg, M, STOCK_TOP - 10, t("Stock"), { class: "cos-label" });
  board.stock.forEach((card, slot) => {
    const kind = slot === 0 ? "passage" : "experience";
    const x = cellX(slot * 1) + slot * 8;
    const left = board.decks[kind];
    if (!card) {
      el("rect", { x, y: STOCK_TOP, width: CW, height: CH, rx: 7, class: "cos-empty" }, svg);
      return;
    }
    const playable = state.byCard.has(card.id);
    const classes = ["cos-stock"];
    if (playable) classes.push("movable");
    if (memory.selected === card.id) classes.push("selected");
    const g = el("g", { class: classes.join(" "), "data-stock": card.id }, svg);
    const words = wordsLayer(svg);
    drawCard(g, card, x, STOCK_TOP, t, words);
    if (memory.selected === card.id) {
      el(
        "rect",
        {
          x: x - 3,
          y: STOCK_TOP - 3,
          width: CW + 6,
          height: CH + 6,
          rx: 9,
          class: "cos-selected-ring",
        },
        g,
      );
    }
    const name = t("Stock card {card}", { card: card.id });
    if (playable) {
      asButton(g, name, describeCard(card, t, false), () => {
        if (g.dataset.dragged) return; // the click that ends a drag
        memory.selected = memory.selected === card.id ? null : card.id;
        ui.redraw();
      });
      dragToCell(svg, g, words, state.byCard.get(card.id), ui);
      if (memory.selected === card.id) g.setAttribute("aria-pressed", "true");
    } else {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", [name, describeCard(card, t, false)].join(t(", ")));
    }
    text(svg, x + CW / 2, STOCK_TOP + CH + 13, t("{count} left", { count: left }), {
      "text-anchor": "middle",
      class: "cos-small",
    });
  });
  let hint = "";
  if (state.byCard.size) {
    hint = memory.selected
      ? t("Now choose a highlighted cell.")
      : t("Choose a stock card, then a highlighted cell.");
  } else if (state.choices.length) {
    hint = t("Choose where to go: the buttons on the city.");
  }
  if (hint) {
    const hx = cellX(2) + 16;
    const node = text(svg, hx, STOCK_TOP + 24, hint, { class: "cos-hint" });
    node.setAttribute("aria-live", "polite");
  }
}

// A stock card may also be dragged onto a cell where it may go (a click still selects).
function dragToCell(svg, group, words, cells, ui) {
  let start = null;
  const point = (event) => {
    const matrix = svg.getScreenCTM();
    return matrix
      ? [(event.clientX - matrix.e) / matrix.a, (event.clientY - matrix.f) / matrix.d]
      : [event.clientX, event.clientY];
  };
  group.addEventListener("pointerdown", (event) => {
    start = point(event);
    delete group.dataset.dragged;
    group.setPointerCapture(event.pointerId);
  });
  group.addEventListener("pointermove", (event) => {
    if (!start) return;
    const [x, y] = point(event);
    if (!group.dataset.dragged && Math.hypot(x - start[0], y - start[1]) < 8) return;
    group.dataset.dragged = "1";
    for (const layer of [group, words]) {
      layer.setAttribute("transform", `translate(${x - start[0]} ${y - start[1]})`);
    }
  });
  group.addEventListener("pointerup", (event) => {
    const dragged = Boolean(group.dataset.dragged);
    start = null;
    if (!dragged) return;
    group.removeAttribute("transform");
    words.removeAttribute("transform");
    group.style.pointerEvents = "none";
    const under = document.elementFromPoint(event.clientX, event.clientY);
    group.style.pointerEvents = "";
    const cell = under?.closest?.("[data-cell]");
    const name = cell?.getAttribute("data-cell");
    setTimeout(() => {
      delete group.dataset.dragged;
    }, 0);
    if (name && cells.has(name)) {
      ui.memory.selected = null;
      ui.play(cells.get(name));
    }
  });
}

function traceSegments(seat, offset) {
  // The stroll as lines between the cards the walker reached; a step that wraps from
  // one end of a row to the other (g to a, or a to g) leaves by one edge of the city
  // and comes back by the other, as the rows join there.
  const segments = [];
  let current = [];
  let previous = null;
  for (const event of seat.trace) {
    let point = null;
    let column = null;
    if (event.kind === "depart") {
      point = seasideCentre(Number(event.detail));
      column = Number(event.detail) - 1;
    } else if (event.kind === "enter") {
      point = cellCentre(event.cell);
      column = cellAt(event.cell).column;
    } else if (event.kind === "lighthouse") point = LIGHTHOUSE_CENTRE;
    if (!point) continue;
    point = [point[0] + offset, point[1] + offset];
    if (
      previous &&
      previous.column !== null &&
      column !== null &&
      Math.abs(column - previous.column) > 1
    ) {
      const rightward = column < previous.column; // g to a: out on the right
      const middle = (previous.point[1] + point[1]) / 2;
      current.push([rightward ? WIDTH : 0, middle]);
      segments.push(current);
      current = [[rightward ? 0 : WIDTH, middle]];
    }
    current.push(point);
    previous = { point, column };
  }
  if (current.length) segments.push(current);
  return segments;
}

function drawTraces(svg, board, ui) {
  const layer = el("g", { class: "cos-traces", "aria-hidden": "true" }, svg);
  const count = board.seats.length;
  board.seats.forEach((seat, i) => {
    if (!seat.trace.length) return;
    const offset = (i - (count - 1) / 2) * 7;
    const colour = colourOf(seat.colour);
    const segments = traceSegments(seat, offset);
    segments.forEach((points, k) => {
      const line = el(
        "polyline",
        {
          points: points.map((p) => p.join(",")).join(" "),
          fill: "none",
          stroke: colour,
          "stroke-width": 4,
          "stroke-linejoin": "round",
          "stroke-linecap": "round",
          opacity: 0.85,
          class: "cos-trace",
        },
        layer,
      );
      const last = k === segments.length - 1 && seat.seat === board.walker;
      if (last && ui.animate && line.getTotalLength) {
        const length = line.getTotalLength();
        line.animate(
          [
            { strokeDasharray: `${length}`, strokeDashoffset: `${length}` },
            { strokeDasharray: `${length}`, strokeDashoffset: "0" },
          ],
          { duration: 400, easing: "ease-out" },
        );
      }
      for (const [x, y] of points.slice(k === 0 ? 1 : 0)) {
        if (x > 0 && x < WIDTH) el("circle", { cx: x, cy: y, r: 3.5, fill: colour }, layer);
      }
    });
  });
}

function markerPoint(_board, seat) {
  if (seat.location) return cellCentre(seat.location);
  if (seat.end === "lighthouse") return LIGHTHOUSE_CENTRE;
  if (seat.departure && seat.trace.length <= 1) return seasideCentre(seat.departure);
  return null;
}

function drawMarkers(svg, board) {
  for (const seat of board.seats) {
    if (!seat.strolled) continue;
    const point = markerPoint(board, seat);
    if (!point) continue;
    const walking = seat.seat === board.walker;
    el(
      "circle",
      {
        cx: point[0],
        cy: point[1] - (walking ? 0 : 12),
        r: walking ? 11 : 7,
        fill: colourOf(seat.colour),
        stroke: "#fff",
        "stroke-width": 3,
        class: walking ? "cos-marker walking" : "cos-marker",
      },
      svg,
    );
  }
}

function drawChoices(svg, board, ui, state) {
  if (!state.choices.length || board.walker === null) return;
  const walker = board.seats[board.walker];
  const point = markerPoint(board, walker);
  if (!point) return;
  const size = 40;
  const total = state.choices.length * (size + 6) - 6;
  let x = Math.max(M, Math.min(WIDTH - M - total, point[0] - total / 2));
  const y = point[1] + 14;
  for (const choice of state.choices) {
    const g = el("g", { class: "cos-choice", "data-choice": choice }, svg);
    el(
      "rect",
      {
        x,
        y,
        width: size,
        height: size,
        rx: 10,
        fill: colourOf(walker.colour),
        stroke: "#111",
        "stroke-width": 2,
      },
      g,
    );
    text(g, x + size / 2, y + 29, GLYPH[choice], {
      "text-anchor": "middle",
      "font-size": 26,
      "font-weight": 700,
      fill: "#fff",
    });
    asButton(g, t_(ui, CHOICE_NAMES[choice]), "", () => ui.play(choice));
    x += size + 6;
  }
}

function t_(ui, id, args) {
  return ui.t(id, args);
}

function drawSeats(svg, board, ui) {
  const { t } = ui;
  board.seats.forEach((seat, i) => {
    const y = SEATS_TOP + i * SEAT_H;
    const g = el(
      "g",
      { class: "cos-seat", "data-seat": seat.colour, "data-strolled": String(seat.strolled) },
      svg,
    );
    const active = board.walker === seat.seat || board.placing === seat.seat;
    el(
      "rect",
      {
        x: M,
        y,
        width: WIDTH - 2 * M,
        height: SEAT_H - 6,
        rx: 8,
        class: active ? "cos-seat-box active" : "cos-seat-box",
      },
      g,
    );
    el("circle", { cx: M + 18, cy: y + 20, r: 10, fill: colourOf(seat.colour) }, g);
    text(g, M + 34, y + 25, t(seat.colour), { class: "cos-label" });
    const interests = seat.interests.map((name) => t(name)).join(t(", "));
    text(g, M + 34, y + 48, t("Interests: {names}", { names: interests }), { class: "cos-small" });
    // the departure card: face up where this viewer may know it, else face down
    const dx = WIDTH - M - 62;
    const mine = board.private && seat.departure && !seat.strolled; // only one's own
    if (seat.dealt) {
      const card = el("g", { class: "cos-departure", role: "img" }, g);
      el(
        "rect",
        {
          x: dx,
          y: y + 6,
          width: 48,
          height: SEAT_H - 18,
          rx: 6,
          class: seat.departure ? "cos-departure-up" : "cos-departure-down",
        },
        card,
      );
      if (seat.departure) {
        text(card, dx + 24, y + 40, "①②③④⑤⑥⑦"[seat.departure - 1] || String(seat.departure), {
          "text-anchor": "middle",
          class: "cos-departure-number",
        });
        card.setAttribute(
          "aria-label",
          mine && !seat.strolled
            ? t("Your departure card: seaside {number}", { number: seat.departure })
            : t("{name}'s departure card: seaside {number}", {
                name: t(seat.colour),
                number: seat.departure,
              }),
        );
      } else {
        text(card, dx + 24, y + 40, "?", {
          "text-anchor": "middle",
          class: "cos-departure-number hidden",
        });
        card.setAttribute(
          "aria-label",
          t("{name}'s departure card, face down", { name: t(seat.colour) }),
        );
      }
    }
    // the diary cards turned up, and the score
    const diary = el("g", { class: "cos-diary", role: "img" }, g);
    let x = M + 110;
    for (const icon of seat.diary) {
      const label = t(icon);
      const w = 12 + labelWidth(label);
      if (x + w > dx - 6) break;
      el(
        "rect",
        {
          x,
          y: y + 9,
          width: w,
          height: 22,
          rx: 6,
          class:
            seat.interests.includes(icon) || icon === "lighthouse"
              ? "cos-diary-card interest"
              : "cos-diary-card",
        },
        diary,
      );
      text(diary, x + 6, y + 25, label, { class: "cos-diary-text" });
      x += w + 4;
    }
    diary.setAttribute(
      "aria-label",
      t("Diary cards turned up: {names}", {
        names: seat.diary.map((name) => t(name)).join(t(", ")) || "—",
      }),
    );
    let status =
      seat.score === 1
        ? t("{points} point", { points: seat.score })
        : t("{points} points", { points: seat.score });
    if (seat.end) status += ` · ${t(END_NAMES[seat.end])}`;
    text(g, dx - 10, y + 48, status, { "text-anchor": "end", class: "cos-score" });
  });
}

export function draw(svg, board, ui) {
  const memory = ui.memory;
  const t = ui.t || ((s) => s);
  const legal = ui.legal || [];
  const state = { byCard: placementsBy(legal), choices: choicesIn(legal), last: null };
  if (memory.selected && !state.byCard.has(memory.selected)) memory.selected = null;
  const lastMatch = /@([a-g][1-4])$/.exec(ui.lastMove || "");
  if (lastMatch) state.last = lastMatch[1];
  const focused = svg.contains(document.activeElement) ? document.activeElement : null;
  const focusKey =
    focused &&
    (focused.getAttribute("data-cell") ||
      focused.getAttribute("data-stock") ||
      focused.getAttribute("data-choice"));
  const full = {
    ...ui,
    t,
    redraw: () => draw(svg, board, { ...ui, animate: false }),
    say: (message) => {
      svg.setAttribute("aria-description", message);
    },
  };
  const height = SEATS_TOP + board.seats.length * SEAT_H + M;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("City of Stairs board"));
  svg.classList.add("cos-board");
  el("rect", { x: 0, y: 0, width: WIDTH, height, rx: 10, class: "cos-frame" }, svg);
  drawLighthouse(svg, board, t);
  drawCells(svg, board, full, state);
  drawSeaside(svg, board, t);
  drawTraces(svg, board, full);
  drawMarkers(svg, board);
  drawStock(svg, board, full, state);
  drawSeats(svg, board, full);
  drawChoices(svg, board, full, state);
  drawHint(svg, board, full);
  if (focusKey) {
    const again = svg.querySelector(
      `[data-cell="${focusKey}"], [data-stock="${focusKey}"], ` + `[data-choice="${focusKey}"]`,
    );
    if (again) again.focus();
  }
}

// ----- the engine's move (the computer's analysis) ------------------------------------

const PLACEMENT = /^([A-Za-z0-9][A-Za-z0-9_-]*)@([a-g][1-4])$/;

// A "better" tag: a green pill centred on (x, y) over the hint, "better" in the page's
// language.
function betterTag(group, x, y, t) {
  const label = t("better");
  const width = tagWidth(t);
  el(
    "rect",
    { x: x - width / 2, y: y - 10, width, height: 20, rx: 10, class: "cos-hint-tag" },
    group,
  );
  text(group, x, y + 4.5, label, { "text-anchor": "middle", class: "cos-hint-tag-text" });
}

function tagWidth(t) {
  return labelWidth(t("better")) + 14;
}

// The tag beside a row of a stroll's buttons (from x = first to last, from y, size
// high): to its right, or to its left at the city's right edge; clear of the seaside
// above, the stock below and the other buttons.
function tagBeside(group, first, last, y, size, t) {
  const width = tagWidth(t);
  const right = last + 8 + width <= WIDTH - M;
  betterTag(group, right ? last + 8 + width / 2 : first - 8 - width / 2, y + size / 2, t);
}

function hintGroup(svg, move, label) {
  const group = el(
    "g",
    {
      class: "hint cos-hint-move",
      "pointer-events": "none",
      "data-hint": move,
      role: "img",
      "aria-label": label,
    },
    svg,
  );
  el("title", {}, group).textContent = label;
  return group;
}

function drawHint(svg, board, ui) {
  const hint = ui.hint;
  const move = hint && typeof hint.move === "string" ? hint.move : null;
  if (!move) return;
  const t = ui.t;
  const before = hint.instead ? hint.board : board;
  const placement = PLACEMENT.exec(move);
  if (placement) drawPlacementHint(svg, board, before, move, placement[1], placement[2], t);
  else if (move in CHOICE_NAMES) drawChoiceHint(svg, board, before, move, t);
}

// A placement: the card's ghost on its cell, ringed, tagged "better"; while the card is
// in the stock drawn, a dashed arrow from it to the cell.
function drawPlacementHint(svg, board, before, move, id, cell, t) {
  const find = (stock) => (stock || []).find((card) => card && card.id === id) || null;
  const card = find(before?.stock) || find(board.stock);
  const label = t("Better: {move}", { move });
  const group = hintGroup(svg, move, label);
  const { column, row } = cellAt(cell);
  const x = cellX(column);
  const y = cellY(row);
  el("rect", { x, y, width: CW, height: CH, rx: 7, class: "cos-hint-backing" }, group);
  const ghost = el("g", { class: "cos-hint-ghost" }, group);
  if (card) drawCard(ghost, card, x, y, t);
  else {
    text(ghost, x + CW / 2, y + CH / 2 + 5, id, { "text-anchor": "middle", class: "cos-label" });
  }
  el(
    "rect",
    { x: x - 1, y: y - 1, width: CW + 2, height: CH + 2, rx: 8, class: "hint-from cos-hint-ring" },
    group,
  );
  const slot = (board.stock || []).findIndex((c) => c && c.id === id);
  if (slot >= 0) drawStockArrow(svg, group, slot, x, y);
  // on the cell's foot, clear of its icons' middle (and over the arrow's shaft)
  betterTag(group, x + CW / 2, y + CH + 1, t);
}

// From the stock card (ringed) to the middle of its cell: a dashed arrow.
function drawStockArrow(svg, group, slot, x, y) {
  // the stock card as drawStock places it
  const sx = cellX(slot) + slot * 8;
  el(
    "rect",
    {
      x: sx - 3,
      y: STOCK_TOP - 3,
      width: CW + 6,
      height: CH + 6,
      rx: 9,
      class: "hint-from cos-hint-ring",
    },
    group,
  );
  const head = `hint-head-${svg.id || "city"}`;
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
  const [x0, y0] = [sx + CW / 2, STOCK_TOP - 4];
  const [x1, y1] = [x + CW / 2, y + CH / 2 + 6];
  const bend = (x0 + x1) / 2 + (x1 >= x0 ? -40 : 40);
  const d = `M ${x0} ${y0} Q ${bend} ${(y0 + y1) / 2} ${x1} ${y1}`;
  el("path", { d, class: "cos-hint-arrow-under" }, group);
  el("path", { d, class: "hint-arrow", "marker-end": `url(#${head})` }, group);
}

// A stroll choice: its button where the walker stands ringed (the analysis board draws
// the buttons), or, once the walker has walked on, a ghost of the button where it stood.
function drawChoiceHint(svg, _board, before, move, t) {
  const label = t("Better: {move}", { move: t(CHOICE_NAMES[move]) });
  const shown = svg.querySelector(`.cos-choice[data-choice="${move}"] rect`);
  if (shown) {
    const x = Number(shown.getAttribute("x"));
    const y = Number(shown.getAttribute("y"));
    const size = Number(shown.getAttribute("width"));
    const group = hintGroup(svg, move, label);
    el(
      "rect",
      {
        x: x - 5,
        y: y - 5,
        width: size + 10,
        height: size + 10,
        rx: 13,
        class: "hint-from cos-hint-ring",
      },
      group,
    );
    const row = [...svg.querySelectorAll(".cos-choice rect")].map((rect) =>
      Number(rect.getAttribute("x")),
    );
    tagBeside(group, Math.min(...row), Math.max(...row) + size, y, size, t);
    return;
  }
  if (!before || before.walker === null || before.walker === undefined) return;
  const walker = before.seats[before.walker];
  const point = walker ? markerPoint(before, walker) : null;
  if (!point) return;
  const size = 40;
  const x = Math.max(M, Math.min(WIDTH - M - size, point[0] - size / 2));
  const y = point[1] + 14;
  const group = hintGroup(svg, move, label);
  el(
    "rect",
    {
      x,
      y,
      width: size,
      height: size,
      rx: 10,
      fill: colourOf(walker.colour),
      class: "cos-hint-choice",
    },
    group,
  );
  text(group, x + size / 2, y + 29, GLYPH[move], {
    "text-anchor": "middle",
    "font-size": 26,
    "font-weight": 700,
    fill: "#fff",
  });
  el(
    "rect",
    {
      x: x - 5,
      y: y - 5,
      width: size + 10,
      height: size + 10,
      rx: 13,
      class: "hint-from cos-hint-ring",
    },
    group,
  );
  tagBeside(group, x, x + size, y, size, t);
}
