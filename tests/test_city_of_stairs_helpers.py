"""Building City of Stairs test positions and card files by hand (no tests here)."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import stairgames
from stairgames.games.city_of_stairs import CityOfStairsState, load_card_set
from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.games.city_of_stairs.rules import (
    COLUMNS,
    FILES,
    ROWS,
    STAIRS_PER_ROW,
    cell_index,
    parse_cell,
)

DEFAULT = tomllib.loads(default_cards_text())


def default_data() -> dict[str, Any]:
    """A fresh copy of the default card set as TOML data, to modify in a test."""
    return copy.deepcopy(DEFAULT)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(value)


def to_toml(data: dict[str, Any]) -> str:
    """A small TOML writer: scalars and lists, tables, arrays of tables."""
    lines = []
    tables = []
    for key, value in data.items():
        if isinstance(value, dict):
            tables.append((key, [value], False))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value, True))
        else:
            lines.append(f"{key} = {_value(value)}")
    for key, entries, array in tables:
        for entry in entries:
            lines.append(f"\n[[{key}]]" if array else f"\n[{key}]")
            lines += [f"{k} = {_value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


def card_file(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], name: str = "c.toml"
) -> str:
    """Write the default set changed by ``change`` to a file; return its path."""
    data = default_data()
    change(data)
    path = tmp_path / name
    path.write_text(to_toml(data), encoding="utf-8")
    return str(path)


def passage(data: dict[str, Any], card_id: str) -> dict[str, Any]:
    for card in data["passage"]:
        if card["id"] == card_id:
            return card  # type: ignore[no-any-return]
    raise KeyError(card_id)


FILLER_ORDER = [
    "P03",
    "P04",
    "P10",
    "P11",
    "P12",
    "P08",
    "P09",
    "P02",
    "P01",
    "P05",
    "P06",
    "P07",
    "E01",
    "E03",
    "E05",
    "E06",
    "E07",
    "E09",
    "E11",
    "E12",
    "E13",
    "E14",
    "E02",
    "E04",
    "E08",
    "E10",
    "P13",
    "P14",
]


def full_city(cells: dict[str, str]) -> str:
    """The city field of a finished city: the given cells, the rest filled within the caps."""
    cards = load_card_set()
    used = set(cells.values())
    grid: list[str | None] = [None] * (COLUMNS * ROWS)
    for name, card_id in cells.items():
        cell = parse_cell(name)
        assert cell is not None and card_id in cards.by_id, (name, card_id)
        grid[cell] = card_id
    spare_stairs = [c for c in FILLER_ORDER if cards.by_id[c].stairs and c not in used]
    spare_plain = [c for c in FILLER_ORDER if not cards.by_id[c].stairs and c not in used]
    for row in range(ROWS):
        row_cells = [cell_index(column, row) for column in range(COLUMNS)]
        stairs = sum(1 for c in row_cells if grid[c] and cards.by_id[grid[c] or ""].stairs)
        for cell in row_cells:
            if grid[cell] is None:
                if stairs < STAIRS_PER_ROW:
                    grid[cell] = spare_stairs.pop(0)
                    stairs += 1
                else:
                    grid[cell] = spare_plain.pop(0)
    rows = []
    for row in reversed(range(ROWS)):
        rows.append(",".join(grid[cell_index(c, row)] or "." for c in range(COLUMNS)))
    return "/".join(rows)


def stroll_state(
    cells: dict[str, str],
    departures: tuple[int, ...],
    *,
    start: int = 0,
    strolls: tuple[str, ...] | None = None,
    **options: Any,
) -> CityOfStairsState:
    """A state in the strolling phase of a finished city."""
    players = len(departures)
    options.setdefault("players", players)
    game = stairgames.load("city_of_stairs", **options)
    stroll_text = "/".join(strolls or ("-",) * players)
    text = (
        f"start={start} departures={','.join(map(str, departures))} stock=-,- "
        f"city={full_city(cells)} strolls={stroll_text}"
    )
    state = game.state_from_position(text)
    assert isinstance(state, CityOfStairsState)
    return state


def row(row_number: int, ids: str) -> dict[str, str]:
    """Cells of one row from 7 ids (``.`` to leave a cell to the fillers)."""
    parts = ids.split()
    assert len(parts) == COLUMNS
    return {f"{FILES[c]}{row_number}": p for c, p in enumerate(parts) if p != "."}


def new_state(**options: Any) -> CityOfStairsState:
    state = stairgames.load("city_of_stairs", **options).new_initial_state()
    assert isinstance(state, CityOfStairsState)
    return state


def moves(state: CityOfStairsState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def events(state: CityOfStairsState, seat: int) -> list[str]:
    """A walk's events compactly: ``enter b1 left``, ``diary cat``, ``move ne``..."""
    walk = state.walk(seat)
    assert walk is not None
    result = []
    for event in walk.events:
        parts = [event.kind]
        if event.cell is not None and event.kind in ("enter", "trapped"):
            parts.append(f"{FILES[event.cell % COLUMNS]}{event.cell // COLUMNS + 1}")
        if event.side:
            parts.append(event.side)
        if event.detail:
            parts.append(event.detail)
        result.append(" ".join(parts))
    return result
