// Tic-tac-toe in the browser: nine cells drawn as SVG from the board view of
// tests/tictactoe/view/board.py; an empty cell where a move is legal is a button
// that plays it.
//
// draw(svg, board, ui): ui = {legal: [move texts], play(move), t(msgid)}.

const NS = "http://www.w3.org/2000/svg";
const CELL = 60;

export function draw(svg, board, ui) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${3 * CELL} ${3 * CELL}`);
  svg.setAttribute("aria-label", ui.t("Tic-tac-toe board"));
  board.cells.forEach((cell, index) => {
    const x = (index % 3) * CELL;
    const y = (2 - Math.floor(index / 3)) * CELL;
    const group = document.createElementNS(NS, "g");
    const square = document.createElementNS(NS, "rect");
    Object.entries({ x, y, width: CELL, height: CELL, fill: "#fff", stroke: "#333" })
      .forEach(([key, value]) => square.setAttribute(key, value));
    group.append(square);
    if (cell.mark) {
      const text = document.createElementNS(NS, "text");
      Object.entries({ x: x + CELL / 2, y: y + CELL * 0.7, "text-anchor": "middle" })
        .forEach(([key, value]) => text.setAttribute(key, value));
      text.textContent = cell.mark;
      group.append(text);
    } else if (ui.legal.includes(cell.name)) {
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
      group.setAttribute("aria-label", cell.name);
      group.addEventListener("click", () => ui.play(cell.name));
    }
    svg.append(group);
  });
}
