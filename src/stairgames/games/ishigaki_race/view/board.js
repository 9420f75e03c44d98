// Ishigaki Race in the browser: the castle wall climbing from START to GOAL in rows of
// stones (the "−2" stones of the crumbling wall marked), every ninja on its step, the
// dice of the roll in progress and of the last roll (they tumble briefly when new; the
// server decided them), and below the board: the goal round or roll-off announced, the
// choice after the first die as two large buttons, the winning chances on request (two
// players) and an account of the last turns, all drawn from games/ishigaki_race/view/board.py.
//
// draw(svg, board, ui): ui = {legal, play(move), t(msgid, args), memory, animate,
//   over: the game is over (a resignation ends it mid-turn: no roll in progress shown),
//   notes: the element below the board for texts and buttons, #board-notes when not
//   given (app.js empties it when another game's board is drawn),
//   hint: {move: "stop" | "roll", instead: bool, board} | null: the engine's move, drawn
//   as a badge beside the dice ("better" and what the move does) and on the wall: the
//   ninja that decides ringed and, for "stop", a dashed arrow to where it would land (by
//   a "−2" stone where it drops) with a ghost ninja there. With instead it is the better
//   move in the position before ui.lastMove (the analysis of a finished game), read from
//   hint.board, that position's drawing data; else a move of the position drawn (the
//   analysis board, where the better of the two choice buttons is marked too)}.

const NS = "http://www.w3.org/2000/svg";
const N_ = (id) => id; // marks a message id translated later with t()
const COLOURS = { red: "#c62828", blue: "#1565c0", yellow: "#f2b600", green: "#2e7d32" };
const CAPITAL = { red: N_("Red"), blue: N_("Blue"), yellow: N_("Yellow"), green: N_("Green") };
const PER_ROW = 7;
const STONE_W = 64;
const STONE_H = 58;
const WALL_X = 14;
const TOP = 44;
const PIPS = {
  1: [[0, 0]],
  2: [
    [-1, -1],
    [1, 1],
  ],
  3: [
    [-1, -1],
    [0, 0],
    [1, 1],
  ],
  4: [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ],
  5: [
    [-1, -1],
    [1, -1],
    [0, 0],
    [-1, 1],
    [1, 1],
  ],
  6: [
    [-1, -1],
    [1, -1],
    [-1, 0],
    [1, 0],
    [-1, 1],
    [1, 1],
  ],
};

// The wall's own styles are in board.css beside this file (the page's Content-Security-
// Policy allows no inline style): linked once, and waited for (at most until it fails)
// before this module is ready, so that the first drawing is already styled.
function addStyle() {
  if (document.getElementById("ishigaki-style")) return Promise.resolve();
  const link = document.createElement("link");
  link.id = "ishigaki-style";
  link.rel = "stylesheet";
  link.href = new URL("board.css", import.meta.url).href;
  const loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
  });
  document.head.appendChild(link);
  return loaded;
}

await addStyle();

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function html(name, attrs = {}, parent = null, text = null) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// A sentence of the server's account ({"id", "args"}, plurals with "plural" and "n",
// {"names": [...]}, {"join": [...]}) in the current language.
export function say(node, t) {
  if (node === null || node === undefined) return "";
  if (typeof node !== "object") return String(node);
  if (Array.isArray(node.names)) {
    const words = node.names.map((item) => say(item, t));
    if (!node.and) return words.join(t(", "));
    if (words.length < 2) return words.join("");
    return t("{items} and {last}", {
      items: words.slice(0, -1).join(t(", ")),
      last: words[words.length - 1],
    });
  }
  if (Array.isArray(node.join)) return node.join.map((item) => say(item, t)).join("");
  let template = t(node.id);
  if (node.plural !== undefined && template === node.id && node.n !== 1) template = node.plural;
  const args = {};
  for (const [name, value] of Object.entries(node.args || {})) args[name] = say(value, t);
  return t(template, args);
}

function colourOf(board, seat) {
  return board.ninjas[seat] ? board.ninjas[seat].colour : "red";
}

function nameOf(board, seat, t) {
  return t(CAPITAL[colourOf(board, seat)]);
}

// Where step s lies: rows of PER_ROW stones from the bottom, every other row running back.
function stonePlace(step, rows) {
  const row = Math.floor(step / PER_ROW);
  const column = step % PER_ROW;
  const x = WALL_X + (row % 2 === 0 ? column : PER_ROW - 1 - column) * STONE_W;
  const y = TOP + (rows - 1 - row) * STONE_H;
  return { x, y };
}

function drawDie(parent, x, y, size, face, colour, label) {
  const group = el(
    "g",
    { class: "die", transform: `translate(${x} ${y})`, role: "img", "aria-label": label },
    parent,
  );
  el(
    "rect",
    {
      x: 0,
      y: 0,
      width: size,
      height: size,
      rx: size / 6,
      class: "die-face",
      stroke: colour,
      "stroke-width": 3,
    },
    group,
  );
  const pips = el("g", { class: "pips" }, group);
  setPips(pips, size, face);
  return pips;
}

function setPips(pips, size, face) {
  pips.replaceChildren();
  if (!face) {
    const mark = el(
      "text",
      {
        x: size / 2,
        y: size / 2 + size / 6,
        "text-anchor": "middle",
        class: "die-unknown",
        "font-size": size / 2,
      },
      pips,
    );
    mark.textContent = "?";
    return;
  }
  for (const [dx, dy] of PIPS[face]) {
    el(
      "circle",
      {
        cx: size / 2 + (dx * size) / 4,
        cy: size / 2 + (dy * size) / 4,
        r: size / 11,
        class: face === 1 ? "pip pip-one" : "pip",
      },
      pips,
    );
  }
}

function tumble(pips, size, face, memory) {
  const started = performance.now();
  let shown = face;
  const timer = setInterval(() => {
    if (performance.now() - started > 550) {
      clearInterval(timer);
      setPips(pips, size, face);
      return;
    }
    shown = (shown % 6) + 1; // a tumble through the faces; the outcome is the server's
    setPips(pips, size, shown);
  }, 70);
  memory.timers.push(timer);
}

function drawWall(svg, board, t, width, rows) {
  const crumbling = new Set(board.crumbling);
  const wall = el("g", { class: "wall" }, svg);
  for (let step = 0; step <= board.goal; step++) {
    const { x, y } = stonePlace(step, rows);
    const classes = ["stone"];
    if (crumbling.has(step)) classes.push("crumbling");
    if (step === 0) classes.push("start");
    if (step === board.goal) classes.push("goal");
    const stone = el("g", { class: classes.join(" "), "data-step": String(step) }, wall);
    el(
      "rect",
      { x: x + 2, y: y + 2, width: STONE_W - 4, height: STONE_H - 4, rx: 9, class: "stone-face" },
      stone,
    );
    const number = el("text", { x: x + 8, y: y + 16, class: "step-number" }, stone);
    number.textContent = String(step);
    if (crumbling.has(step)) {
      // under the step number and left of the ninjas' place, clear of "13" and "17"
      el("path", { d: `M${x + 12} ${y + 22} l6 8 l-5 7 l6 8 l-3 7`, class: "crack" }, stone);
      const mark = el(
        "text",
        { x: x + STONE_W - 8, y: y + 17, "text-anchor": "end", class: "minus-two" },
        stone,
      );
      mark.textContent = "−2";
    }
    if (step === 0 || step === board.goal) {
      // START under its stone, GOAL over its own (the wall's bottom and top rows)
      const label = el(
        "text",
        {
          x: x + STONE_W / 2,
          y: step === 0 ? y + STONE_H + 11 : y - 4,
          "text-anchor": "middle",
          class: "end-label",
        },
        stone,
      );
      label.textContent = step === 0 ? t("START") : t("GOAL");
    }
  }
  // the path up the wall: an arrow between rows where the climb turns
  for (let row = 0; row + 1 < rows; row++) {
    const last = Math.min(board.goal, row * PER_ROW + PER_ROW - 1);
    const from = stonePlace(last, rows);
    el(
      "path",
      {
        d: `M${from.x + STONE_W - 14} ${from.y + 6} l0 -10 l-5 5 m5 -5 l5 5`,
        class: "climb-arrow",
      },
      wall,
    );
  }
  return width;
}

function drawNinjas(svg, board, t, rows, memory, animate) {
  const byStep = {};
  for (const ninja of board.ninjas) {
    byStep[ninja.step] = byStep[ninja.step] || [];
    byStep[ninja.step].push(ninja);
  }
  const layer = el("g", { class: "ninjas" }, svg);
  const before = memory.steps || {};
  for (const [step, ninjas] of Object.entries(byStep)) {
    const { x, y } = stonePlace(Number(step), rows);
    const crowded = ninjas.length > 2;
    ninjas.forEach((ninja, i) => {
      const cx = x + 20 + (i % 2) * 24;
      const cy = crowded ? y + 29 + Math.floor(i / 2) * 18 : y + 36;
      const r = crowded ? 8.5 : 11;
      const name = t(CAPITAL[ninja.colour]);
      const group = el(
        "g",
        {
          class: `ninja ninja-${ninja.colour}`,
          role: "img",
          "aria-label": t("{name} on step {step}", { name, step: ninja.step }),
          "data-seat": String(ninja.seat),
        },
        layer,
      );
      el("circle", { cx, cy, r, fill: COLOURS[ninja.colour], class: "ninja-body" }, group);
      el(
        "rect",
        {
          x: cx - r + 2,
          y: cy - r / 3,
          width: 2 * r - 4,
          height: r / 2,
          rx: 2,
          class: "ninja-eyes",
        },
        group,
      );
      const was = before[ninja.seat];
      if (animate && was !== undefined && was !== ninja.step) {
        const from = stonePlace(was, rows);
        group.animate(
          [
            { transform: `translate(${from.x - x}px, ${from.y - y}px)` },
            { transform: "translate(0, 0)" },
          ],
          { duration: 450, easing: "ease-out" },
        );
      }
    });
  }
  memory.steps = Object.fromEntries(board.ninjas.map((n) => [n.seat, n.step]));
}

function resultWord(roll, t) {
  return (
    { climb: t("climbs"), slip: t("slips"), doubles: t("doubles!"), score: t("roll-off") }[
      roll.result
    ] || ""
  );
}

function drawDice(svg, board, t, x, top, sideBySide, memory, animate, over) {
  const tray = el("g", { class: "dice" }, svg);
  const fresh = [];
  const now = board.choice ? board.choice.seat : board.turn;
  // (a game ended by a resignation, ui.over, has no roll in progress any more)
  if (board.dice.length && now !== null && !over) {
    const colour = COLOURS[colourOf(board, now)];
    const caption = el("text", { x, y: top + 12, class: "dice-caption" }, tray);
    caption.textContent = t("{name} rolls", { name: nameOf(board, now, t) });
    const size = 46;
    fresh.push([
      drawDie(
        tray,
        x,
        top + 20,
        size,
        board.dice[0],
        colour,
        t("die {value}", { value: board.dice[0] }),
      ),
      size,
      board.dice[0],
      "now",
    ]);
    drawDie(tray, x + size + 10, top + 20, size, 0, "#999", t("second die not rolled"));
  }
  const last = board.last_roll;
  if (last) {
    const colour = COLOURS[colourOf(board, last.seat)];
    const lastTop = sideBySide ? top + 12 : top + 92;
    if (sideBySide) x += 230;
    const caption = el("text", { x, y: lastTop, class: "dice-caption" }, tray);
    caption.textContent = t("Last roll: {name}", { name: nameOf(board, last.seat, t) });
    const size = 34;
    last.dice.forEach((face, i) => {
      fresh.push([
        drawDie(
          tray,
          x + i * (size + 8),
          lastTop + 8,
          size,
          face,
          colour,
          t("die {value}", { value: face }),
        ),
        size,
        face,
        "last",
      ]);
    });
    const word = el(
      "text",
      {
        x: x + last.dice.length * (size + 8),
        y: lastTop + 8 + size / 2 + 5,
        class: `roll-result result-${last.result}`,
      },
      tray,
    );
    word.textContent = resultWord(last, t);
  }
  const key = JSON.stringify([board.dice, board.last_roll, board.turn, board.phase]);
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  if (animate && !reduce && memory.diceKey !== undefined && memory.diceKey !== key) {
    for (const [pips, size, face] of fresh) tumble(pips, size, face, memory);
  }
  memory.diceKey = key;
}

// ----- below the board: announcements, the choice, chances, the account -------------------

function percent(p) {
  return `${(100 * p).toFixed(1)} %`;
}

function announcement(board, t) {
  if (board.winner !== null && board.winner !== undefined) {
    return t("{name} wins!", { name: nameOf(board, board.winner, t) });
  }
  const names = (seats) =>
    say({ names: seats.map((s) => ({ id: colourOf(board, s) })), and: true }, t);
  if (board.goal_round) {
    return t("Goal round: {arrived} on the goal; {left} play one more turn.", {
      arrived: names(board.goal_round.arrived),
      left: names(board.goal_round.left),
    });
  }
  if (board.rolloff) {
    return t(
      "Roll-off between {names}: the highest roll wins (one die: its value; a higher second die: the sum; a lower one: 0; doubles: the sum).",
      { names: names(board.rolloff.rollers) },
    );
  }
  return "";
}

function choiceButton(parent, className, head, detail, chance, onClick) {
  const node = html("button", { type: "button", class: `choice ${className}` }, parent);
  html("span", { class: "choice-head" }, node, head);
  html("span", { class: "choice-detail" }, node, detail);
  if (chance) html("span", { class: "choice-chance" }, node, chance);
  node.addEventListener("click", onClick);
  return node;
}

function drawChoice(box, board, ui, t) {
  const choice = board.choice;
  if (!choice) return;
  const legal = ui.legal || [];
  const mine = legal.includes(choice.stop.move) && legal.includes(choice.roll.move);
  const who = nameOf(board, choice.seat, t);
  if (!mine) {
    html(
      "p",
      { class: "ishi-waiting" },
      box,
      t("{name} rolled {value} and decides: stop or roll the second die.", {
        name: who,
        value: choice.first,
      }),
    );
    return;
  }
  const chances = board.chances && ui.memory.showChances ? board.chances : null;
  const chanceOf = (key) =>
    chances ? t("wins {chance}", { chance: percent(chances[key][choice.seat]) }) : null;
  const stop = choice.stop;
  let stopHead;
  let stopDetail;
  let rollDetail;
  if (choice.rolloff) {
    stopHead = t("Stop: score {score}", { score: stop.score });
    stopDetail = t("keep the one die");
    rollDetail = t("higher: score the sum · lower: score 0 · doubles: score the sum");
  } else {
    stopHead = t("Stop: climb {steps}", { steps: stop.climb });
    stopDetail =
      stop.crumbles_at !== undefined
        ? t("lands on the crumbling step {step} and drops to step {to}", {
            step: stop.crumbles_at,
            to: stop.to,
          })
        : t("to step {to}", { to: stop.to });
    rollDetail = t("higher: climb on the sum · lower: slip 1 step · doubles: the highest fall 3");
  }
  const row = html(
    "div",
    {
      class: "choices",
      role: "group",
      "aria-label": t("{name} rolled {value}: stop or roll?", { name: who, value: choice.first }),
    },
    box,
  );
  const stopButton = choiceButton(row, "choice-stop", stopHead, stopDetail, chanceOf("stop"), () =>
    ui.play(stop.move),
  );
  const rollButton = choiceButton(
    row,
    "choice-roll",
    t("Roll the second die"),
    rollDetail,
    chanceOf("roll"),
    () => ui.play(choice.roll.move),
  );
  // the engine's move of this position (the analysis board): its button marked "better"
  const best = ui.hint && !ui.hint.instead ? ui.hint.move : null;
  for (const [button, move] of [
    [stopButton, stop.move],
    [rollButton, choice.roll.move],
  ]) {
    if (move !== best) continue;
    button.classList.add("choice-better");
    html("span", { class: "choice-better-tag" }, button, t("better"));
  }
  if (board.ninjas.length === 2) {
    const toggle = html(
      "button",
      {
        type: "button",
        class: "chances-toggle",
        "aria-pressed": String(Boolean(ui.memory.showChances)),
      },
      box,
      t("Winning chances"),
    );
    toggle.addEventListener("click", () => {
      ui.memory.showChances = !ui.memory.showChances;
      drawNotes(ui.notes, board, { ...ui, animate: false });
      const again = ui.notes.querySelector(".chances-toggle");
      if (again) again.focus();
    });
    if (ui.memory.showChances && !board.chances) {
      html(
        "p",
        { class: "ishi-waiting" },
        box,
        t("The winning chances are being worked out; they show from the next roll."),
      );
    }
  }
}

function drawAccount(box, board, t) {
  if (!board.account?.length) return;
  const details = html(
    "section",
    { class: "ishi-account", "aria-label": t("The last turns") },
    box,
  );
  html("h3", {}, details, t("The last turns"));
  const list = html("ol", {}, details);
  for (const turn of board.account) {
    const item = html(
      "li",
      { class: turn.seat === null ? "turn-draw" : `turn-${colourOf(board, turn.seat)}` },
      list,
    );
    // Japanese sentences end in "。" and follow each other without a space.
    const gap = document.documentElement.lang === "ja" ? "" : " ";
    item.textContent = turn.lines.map((line) => say(line, t)).join(gap);
  }
  list.scrollTop = list.scrollHeight;
}

function drawNotes(notes, board, ui) {
  if (!notes) return;
  const t = ui.t || ((s) => s);
  notes.replaceChildren();
  const box = html("div", { class: "ishi-notes" }, notes);
  const news = announcement(board, t);
  if (news) html("p", { class: `ishi-phase phase-${board.phase}`, role: "status" }, box, news);
  if (!ui.over) drawChoice(box, board, ui, t);
  drawAccount(box, board, t);
}

export function draw(svg, board, ui) {
  const t = ui.t || ((s) => s);
  const memory = ui.memory;
  for (const timer of memory.timers || []) clearInterval(timer);
  memory.timers = [];
  const rows = Math.ceil((board.goal + 1) / PER_ROW);
  const wallWidth = WALL_X * 2 + PER_ROW * STONE_W;
  const wallHeight = TOP + rows * STONE_H + 16;
  // On a narrow screen the dice go below the wall, so that the stones stay large.
  const narrow = (svg.parentNode ? svg.parentNode.clientWidth : 600) < 520;
  const width = narrow ? wallWidth : wallWidth + 150;
  const height = narrow ? wallHeight + 82 : Math.max(wallHeight, 220);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("Castle wall"));
  el("rect", { x: 0, y: 0, width, height, rx: 8, class: "board-frame" }, svg);
  const heading = el("text", { x: WALL_X, y: 24, class: "wall-title" }, svg);
  heading.textContent = board.crumbling.length ? t("The crumbling wall") : t("Castle wall");
  drawWall(svg, board, t, wallWidth, rows);
  drawNinjas(svg, board, t, rows, memory, ui.animate);
  const over = Boolean(ui.over);
  if (narrow) drawDice(svg, board, t, WALL_X, wallHeight + 4, true, memory, ui.animate, over);
  else drawDice(svg, board, t, wallWidth + 6, TOP - 12, false, memory, ui.animate, over);
  const hint = hintOf(board, ui.hint);
  if (hint) {
    drawHintOnWall(svg, hint, t, rows);
    // the badge: under the dice at the right, or under the dice row on a narrow screen
    const x = narrow ? WALL_X : wallWidth + 6;
    const y = narrow ? height + 4 : Math.max(height - BADGE_H - 10, TOP + 132);
    drawHintBadge(svg, hint, t, x, y, narrow ? wallWidth - 2 * WALL_X : 138);
    const bottom = y + BADGE_H + 10;
    if (bottom > height) {
      svg.setAttribute("viewBox", `0 0 ${width} ${bottom}`);
      svg.querySelector(".board-frame").setAttribute("height", String(bottom));
    }
  }
  const notes = ui.notes || document.getElementById("board-notes");
  drawNotes(notes, board, { ...ui, notes });
}

// ----- the engine's move (the computer's analysis) ------------------------------------

const BADGE_H = 46;

// What the hint's move does: {move, seat, colour, choice (the board's), from (its step
// then), now (its step in the board drawn), path: the steps a "stop" passes by to where
// it ends}, or null for no decision. The position is the one before the move shown
// (hint.board) with instead, else the board drawn; without its choice (a board not at
// hand) the badge still says the move.
function hintOf(board, hint) {
  const move = hint && (hint.move === "stop" || hint.move === "roll") ? hint.move : null;
  if (!move) return null;
  const before = hint.instead ? hint.board : board;
  const choice = before?.choice;
  if (!choice) return { move, seat: null, from: null, path: [], colour: null, choice: null };
  const seat = choice.seat;
  const ninja = (before.ninjas || []).find((n) => n.seat === seat);
  const from = ninja ? ninja.step : null;
  const stop = choice.stop || {};
  let path = [];
  if (move === "stop" && !choice.rolloff && from !== null && stop.to !== undefined) {
    path = stop.crumbles_at !== undefined ? [from, stop.crumbles_at, stop.to] : [from, stop.to];
  }
  const drawn = (board.ninjas || []).find((n) => n.seat === seat);
  return {
    move,
    seat,
    from,
    path,
    colour: ninja ? ninja.colour : null,
    choice,
    now: drawn ? drawn.step : null,
  };
}

// The badge's words: what the move does, as its choice button says it.
function hintWords(hint, t) {
  const choice = hint.choice;
  if (hint.move === "roll") return t("Roll the second die");
  if (!choice?.stop) return hint.move;
  if (choice.rolloff) return t("Stop: score {score}", { score: choice.stop.score });
  return t("Stop: climb {steps}", { steps: choice.stop.climb });
}

/**
 * The centre of a step's stone.
 *
 * @param {number} step
 * @param {number} rows
 * @returns {[number, number]}
 */
function stoneCentre(step, rows) {
  const { x, y } = stonePlace(step, rows);
  return [x + STONE_W / 2, y + STONE_H / 2 + 4];
}

// On the wall: the deciding ninja's stone ringed; for "stop" a dashed arrow from it (by
// the "−2" stone it lands on first) to the stone where it ends, and a ghost ninja there.
function drawHintOnWall(svg, hint, _t, rows) {
  if (hint.from === null) return;
  const group = el(
    "g",
    { class: "hint hint-wall", "pointer-events": "none", "aria-hidden": "true" },
    svg,
  );
  const ring = (step, className) => {
    const { x, y } = stonePlace(step, rows);
    el(
      "rect",
      { x: x + 1, y: y + 1, width: STONE_W - 2, height: STONE_H - 2, rx: 10, class: className },
      group,
    );
  };
  ring(hint.from, "hint-from");
  // a ninja that has moved on since (the move shown) leaves a ghost where it decided
  if (hint.now !== hint.from) ghost(group, stoneCentre(hint.from, rows), hint.colour);
  const path = hint.path.filter((step, i) => i === 0 || step !== hint.path[i - 1]);
  if (path.length < 2) return;
  const end = path[path.length - 1];
  ring(end, "hint-from hint-to");
  const head = `hint-head-${svg.id || "wall"}`;
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
  // each leg bends upward a little, clear of the ninjas standing in the middle
  const points = path.map((step) => stoneCentre(step, rows));
  let d = `M ${points[0][0]} ${points[0][1]}`;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const last = i === points.length - 1;
    const length = Math.hypot(x1 - x0, y1 - y0) || 1;
    const trim = last ? 16 : 0; // the head stops short of the ghost's middle
    const ex = x1 - ((x1 - x0) / length) * trim;
    const ey = y1 - ((y1 - y0) / length) * trim;
    d += ` Q ${(x0 + ex) / 2} ${Math.min(y0, ey) - 22} ${ex} ${ey}`;
  }
  el("path", { d, class: "hint-arrow-under" }, group);
  el("path", { d, class: "hint-arrow", "marker-end": `url(#${head})` }, group);
  ghost(group, points[points.length - 1], hint.colour);
}

function ghost(group, [cx, cy], colour) {
  el("circle", { cx, cy, r: 12, fill: COLOURS[colour] || "#777", class: "hint-ghost" }, group);
}

// Beside the dice: a badge like the choice's button, "better" over what the move does,
// named for assistive technology ("Better: Roll the second die").
function drawHintBadge(svg, hint, t, x, y, width) {
  const words = hintWords(hint, t);
  const label = t("Better: {move}", { move: words });
  const group = el(
    "g",
    { class: "hint hint-badge", "data-hint": hint.move, role: "img", "aria-label": label },
    svg,
  );
  el("title", {}, group).textContent = label;
  el("rect", { x, y, width, height: BADGE_H, rx: 8, class: "hint-badge-face" }, group);
  el("text", { x: x + 9, y: y + 16, class: "hint-badge-caption" }, group).textContent = t("better");
  const line = el("text", { x: x + 9, y: y + 36, class: "hint-badge-move" }, group);
  line.textContent = words;
  // a long text (Japanese, or a narrow badge) is squeezed into the badge
  const room = width - 18;
  if (line.getComputedTextLength && line.getComputedTextLength() > room) {
    line.setAttribute("textLength", String(room));
    line.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}
