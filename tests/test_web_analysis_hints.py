"""The engine's better move drawn on the board for Ishigaki Race and City of Stairs (issue
31), in Chromium: a finished game analysed from its page, a marked move clicked in the
move list, and the better move found drawn on the board (Ishigaki Race: a badge by the
dice, and for stopping an arrow up the wall to a ghost ninja; City of Stairs: the card's
ghost on its cell, or the stroll's button), named "Better: ..." for assistive technology;
and the same on the analysis board, where the engine's move of the position is drawn.
The server and its tiny budgets are test_web_analysis.py's. Screenshots go to
``test-artifacts/hint-*.png``."""

from __future__ import annotations

import json
import random
import re
import urllib.parse
from typing import Any

from stairgames.core.registry import move_words_json
from tests.browser_helpers import expect, shot
from tests.test_web_analysis import analyse, finished_game, get, page, server

__all__ = ["page", "server"]  # the fixtures this module's tests use

CITY_CHOICES = ("nw", "ne", "turn", "on")


def said(game: str, move: str) -> str:
    """``move`` as the page says it: in the words the game declares for it (its
    ``move_words``, issue 51), else its notation."""
    for word in move_words_json(game):
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", re.escape(word["move"]))
        found = re.fullmatch(pattern, move)
        if found:
            return str(word["label"]).format(**found.groupdict())
    return move


def show_marked_move(page: Any, match: str, ply: int | None = None) -> dict[str, Any]:
    """Click the move of ``ply`` (else the first marked move with a better move) in the
    move list of the analysed game: its analysis entry, once the page shows it."""
    analysis = get(page.base_url, f"/api/matches/{match}/analysis")["analysis"]
    game = get(page.base_url, f"/api/matches/{match}")["game"]
    marked = [m for m in analysis["moves"] if m["mark"] and m["better"]]
    chosen: dict[str, Any] | None = next(
        (m for m in marked if ply is None or m["ply"] == ply), None
    )
    assert chosen is not None, f"no marked move at ply {ply}: {analysis['moves']}"
    page.locator(f'#moves [data-ply="{chosen["ply"]}"]').click()
    expect(page.locator("#step-text")).to_have_text(f"Viewing move {chosen['ply']}")
    expect(page.locator("#analysis-move .analysis-better")).to_have_text(
        f"Better: {said(game, chosen['better'])}"
    )
    return chosen


# ----- Ishigaki Race ---------------------------------------------------------------------


def analysed_game_with_marks(page: Any, game: str, wanted: set[str]) -> str:
    """A finished game of two random computer players, analysed from its page, whose
    marked moves have a better move of each kind in ``wanted`` (Ishigaki Race: "stop",
    "roll"; any: ""): a few games are played until one has (random players give away
    many in Ishigaki Race and a few in City of Stairs, docs/analysis.md). Its id."""
    for _ in range(8):
        match = finished_game(page.base_url, game)
        page.goto(f"{page.base_url}/m/{match}")
        analyse(page)
        moves = get(page.base_url, f"/api/matches/{match}/analysis")["analysis"]["moves"]
        found = {m["better"] for m in moves if m["mark"] and m["better"]}
        if found and all(kind in found or kind == "" for kind in wanted):
            return match
    raise AssertionError(f"no {game} game of 8 has marked moves with better {wanted}")


def ishigaki_words(choice: dict[str, Any], move: str) -> str:
    """What the badge says of ``move`` at ``choice`` (the board's choice), as its button."""
    if move == "roll":
        return "Roll the second die"
    if choice["rolloff"]:
        return f"Stop: score {choice['stop']['score']}"
    return f"Stop: climb {choice['stop']['climb']}"


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def inside(point: tuple[float, float], box: dict[str, float]) -> bool:
    x, y = point
    across = box["x"] <= x <= box["x"] + box["width"]
    return bool(across and box["y"] <= y <= box["y"] + box["height"])


def test_ishigaki_races_better_choices_are_drawn_on_the_wall(page: Any) -> None:
    match = analysed_game_with_marks(page, "ishigaki_race", {"stop", "roll"})
    frames = get(page.base_url, f"/api/matches/{match}/replay")["frames"]
    analysis = get(page.base_url, f"/api/matches/{match}/analysis")["analysis"]
    for better in ("stop", "roll"):
        entry = next(m for m in analysis["moves"] if m["mark"] and m["better"] == better)
        chosen = show_marked_move(page, match, ply=entry["ply"])
        before = frames[chosen["ply"] - 1]["board"]  # the position the better move is of
        choice = before["choice"]
        words = ishigaki_words(choice, better)
        badge = page.locator(f'#board .hint-badge[data-hint="{better}"]')
        expect(badge).to_have_attribute("aria-label", f"Better: {words}")
        expect(badge.locator("title")).to_have_text(f"Better: {words}")
        expect(badge.locator(".hint-badge-move")).to_have_text(words)
        expect(badge.locator(".hint-badge-caption")).to_have_text("better")
        # the deciding ninja's stone ringed, where it stood before the move
        step = before["ninjas"][choice["seat"]]["step"]
        wall = page.locator("#board .hint-wall")
        stone = page.locator(f'#board .stone[data-step="{step}"] .stone-face').bounding_box()
        assert inside(centre(wall.locator(".hint-from").first.bounding_box()), stone)
        # a ninja that has moved on since leaves a ghost of its colour where it decided
        ninja = before["ninjas"][choice["seat"]]
        moved = frames[chosen["ply"]]["board"]["ninjas"][choice["seat"]]["step"] != step
        ghosts = wall.locator(".hint-ghost")
        colour = {"red": "#c62828", "blue": "#1565c0"}[ninja["colour"]]
        if moved:
            expect(ghosts.first).to_have_attribute("fill", colour)
            assert inside(centre(ghosts.first.bounding_box()), stone)
        if better == "stop" and not choice["rolloff"]:
            # an arrow up the wall to where it would end, a ghost there too
            expect(wall.locator(".hint-arrow")).to_have_count(1)
            expect(ghosts).to_have_count(2 if moved else 1)
            expect(ghosts.last).to_have_attribute("fill", colour)
            to = page.locator(f'#board .stone[data-step="{choice["stop"]["to"]}"] .stone-face')
            assert inside(centre(ghosts.last.bounding_box()), to.bounding_box())
        else:
            expect(wall.locator(".hint-arrow")).to_have_count(0)
            expect(ghosts).to_have_count(1 if moved else 0)
        shot(page, f"hint-ishigaki-{better}")
    # a move that is not marked draws no better move
    plain = next(m for m in analysis["moves"] if not m["mark"])
    page.locator(f'#moves [data-ply="{plain["ply"]}"]').click()
    expect(page.locator("#step-text")).to_have_text(f"Viewing move {plain['ply']}")
    expect(page.locator("#board .hint")).to_have_count(0)


def test_the_analysis_board_marks_ishigaki_races_better_choice(page: Any) -> None:
    # red rolled 2 on step 16, blue on 19: rolling keeps 34% (exact), stopping 11%
    position = "race ninjas=16,19 turn=red dice=2"
    query = urllib.parse.urlencode({"game": "ishigaki_race", "options": "{}", "position": position})
    page.goto(f"{page.base_url}/analysis?{query}")
    expect(page.locator("#ab-eval .ab-best")).to_have_text("The engine's move: Roll the second die")
    badge = page.locator('#ab-board .hint-badge[data-hint="roll"]')
    expect(badge).to_have_attribute("aria-label", "Better: Roll the second die")
    # the choice's own button is marked too, the other not
    expect(page.locator("#ab-notes button.choice-roll.choice-better")).to_contain_text("better")
    expect(page.locator("#ab-notes button.choice-better")).to_have_count(1)
    shot(page, "hint-analysis-board-ishigaki")


# ----- City of Stairs --------------------------------------------------------------------


def city_moves_to(kind: str, seed: int = 3) -> list[str]:
    """The moves (chance outcomes included) of a seeded random game of City of Stairs
    for two, up to its first decision of ``kind``: "place" (a stock card to put) or
    "stroll" (a choice of two ways or more)."""
    import stairgames

    rng = random.Random(seed)
    state = stairgames.load("city_of_stairs", players=2).new_initial_state()
    moves: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, weights)[0]
        else:
            legal = [state.action_to_string(a) for a in state.legal_actions()]
            strolling = all(move in CITY_CHOICES for move in legal)
            if (kind == "place" and not strolling) or (
                kind == "stroll" and strolling and len(legal) > 1
            ):
                return moves
            action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    raise AssertionError(f"no {kind} decision in the game of seed {seed}")


def analysis_board(page: Any, moves: list[str]) -> str:
    """The analysis board of City of Stairs after ``moves``: the engine's move, once
    shown."""
    query = urllib.parse.urlencode(
        {"game": "city_of_stairs", "options": "{}", "moves": json.dumps(moves)}
    )
    page.goto(f"{page.base_url}/analysis?{query}")
    best = page.locator("#ab-eval .ab-best")
    expect(best).to_contain_text("The engine's move: ")
    return str(best.inner_text()).removeprefix("The engine's move: ").strip()


def test_the_analysis_board_draws_city_of_stairs_better_placement_as_a_ghost_card(
    page: Any,
) -> None:
    best = analysis_board(page, city_moves_to("place"))
    card, cell = best.split("@")
    hint = page.locator(f'#ab-board .hint[data-hint="{best}"]')
    expect(hint).to_have_attribute("aria-label", f"Better: {best}")
    expect(hint.locator(".cos-hint-tag-text")).to_have_text("better")
    # the ghost is the stock card's face (its id) over the cell, an arrow from the stock
    expect(hint.locator(".cos-hint-ghost .cos-id")).to_have_text(card)
    target = page.locator(f'#ab-board [data-cell="{cell}"] rect').first.bounding_box()
    ghost = hint.locator(".cos-hint-backing").bounding_box()
    (ghost_x, ghost_y), (cell_x, cell_y) = centre(ghost), centre(target)
    assert abs(ghost_x - cell_x) < 2 and abs(ghost_y - cell_y) < 2
    expect(hint.locator(".hint-arrow")).to_have_count(1)
    stock = page.locator(f'#ab-board [data-stock="{card}"] rect').first.bounding_box()
    ring = hint.locator(".cos-hint-ring").nth(1).bounding_box()
    assert abs(ring["x"] + 3 - stock["x"]) < 2
    # the hint lets clicks through: the cell still takes the move
    page.locator(f'#ab-board [data-stock="{card}"]').click()
    page.locator(f'#ab-board [data-cell="{cell}"]').click()
    expect(page.locator("#ab-moves .move").last).to_have_text(best)
    page.get_by_role("button", name="Take back").click()
    expect(hint).to_be_attached()
    shot(page, "hint-analysis-board-city-placement")


def test_the_analysis_board_rings_city_of_stairs_better_stroll_choice(page: Any) -> None:
    best = analysis_board(page, city_moves_to("stroll"))
    assert best in CITY_CHOICES
    hint = page.locator(f'#ab-board .hint[data-hint="{best}"]')
    expect(hint).to_have_attribute("aria-label", re.compile(r"^Better: [↖↗↺≈]: "))
    button = page.locator(f'#ab-board .cos-choice[data-choice="{best}"] rect').bounding_box()
    ring = hint.locator(".cos-hint-ring").bounding_box()
    assert abs(ring["x"] + 5 - button["x"]) < 2 and abs(ring["y"] + 5 - button["y"]) < 2
    shot(page, "hint-analysis-board-city-stroll")


def test_city_of_stairs_better_move_of_a_finished_game_is_drawn_on_the_board(
    page: Any,
) -> None:
    match = analysed_game_with_marks(page, "city_of_stairs", {""})
    chosen = show_marked_move(page, match)
    better = chosen["better"]
    hint = page.locator(f'#board .hint[data-hint="{better}"]')
    expect(hint).to_have_attribute("aria-label", re.compile(r"^Better: "))
    expect(hint.locator(".cos-hint-tag-text")).to_have_text("better")
    if "@" in better:
        card, cell = better.split("@")
        expect(hint.locator(".cos-hint-ghost .cos-id")).to_have_text(card)
        target = page.locator(f'#board [data-cell="{cell}"] rect').first.bounding_box()
        ghost = hint.locator(".cos-hint-backing").bounding_box()
        # centres: a cell's outline (the last move's is thicker) widens its box, not moves it
        (ghost_x, ghost_y), (cell_x, cell_y) = centre(ghost), centre(target)
        assert abs(ghost_x - cell_x) < 2 and abs(ghost_y - cell_y) < 2
    else:
        expect(hint.locator(".cos-hint-choice")).to_have_count(1)
    shot(page, "hint-city")
