"""Ishigaki Race drawing data for the browser (``web/board.js`` draws it).

Ishigaki Race hides nothing, so every viewer gets the same wall: each ninja's step,
the "−2" squares, the die of the roll in progress and the choice it leaves (what
``stop`` would do), the last roll, the goal round or roll-off, the winner, and an
account of the last turns as unfilled sentences that the browser shows in its own
language. For two players it adds the exact winning chance of each choice once the
solution of that wall is known (it is worked out once, in the background, on the first
view that needs it, so that no view waits for it).

>>> import stairgames
>>> state = stairgames.load("ishigaki_race", players=3, first_player=0).new_initial_state()
>>> _ = state.apply_move("die:5")
>>> view = board_view(state, None)
>>> view["ninjas"][0], view["dice"], view["choice"]["stop"]
({'seat': 0, 'colour': 'red', 'step': 0}, [5], {'move': 'stop', 'climb': 2, 'to': 2})
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, Final

from stairgames.core.game import Game, State
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.notation import DECISIONS, ROLL, STOP
from stairgames.games.ishigaki_race.position import SEAT_NAMES
from stairgames.games.ishigaki_race.rules import Board, Phase, Race
from stairgames.games.ishigaki_race.view.narrate import Joined, Plural, Said, account, awaiting_die
from stairgames.i18n import Count, Names, Text

WEB_ASSETS: Traversable = files("stairgames.games.ishigaki_race.view")
"""The folder holding ``board.js``."""

ACCOUNT_TURNS: Final = 8
"""Turns (rolls) the account goes back."""
_CACHE_SIZE: Final = 256


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The wall as JSON-ready data (``docs/browser.md``, "Drawing data"). ``viewer`` is
    unused: nothing in Ishigaki Race is hidden."""
    del viewer
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    if not isinstance(state, IshigakiRaceState):
        raise TypeError(f"an Ishigaki Race state is needed, not {type(state).__name__}")
    board, race = state.board, state.race
    races = _races(state)
    return {
        "goal": board.goal,
        "crumbling": sorted(board.crumbling),
        "ninjas": [
            {"seat": seat, "colour": SEAT_NAMES[seat], "step": step}
            for seat, step in enumerate(race.heights)
        ],
        "phase": race.phase.value,
        "turn": race.turn if race.turn >= 0 else None,
        "dice": [race.first_die] if race.first_die else [],
        "choice": _choice(board, race),
        "last_roll": _last_roll(state.history(), races),
        "goal_round": _goal_round(race),
        "rolloff": _rolloff(race),
        "winner": race.winner if race.phase == Phase.OVER else None,
        "account": _account(board, state.history(), races),
        "chances": _chances(board, race),
    }


# ----- the decision -------------------------------------------------------------------


def _deciding(race: Race) -> bool:
    return race.phase in (Phase.RACE, Phase.GOAL, Phase.ROLLOFF) and not awaiting_die(race)


def _choice(board: Board, race: Race) -> dict[str, Any] | None:
    """What the roller's two moves do: ``stop`` climbs (to a step, after any "−2" drop) or,
    in the roll-off, scores the die; ``roll`` rolls the second die."""
    if not _deciding(race):
        return None
    stop: dict[str, Any] = {"move": DECISIONS[STOP]}
    if race.phase == Phase.ROLLOFF:
        stop["score"] = rules.rolloff_score(race.first_die, None)
    else:
        effect = rules.turn_effect(board, race.heights, race.turn, race.first_die, None)
        move = effect.moves[0]
        stop["climb"] = effect.steps
        stop["to"] = move.end
        if move.end != move.moved_to:
            stop["crumbles_at"] = move.moved_to
    return {
        "seat": race.turn,
        "first": race.first_die,
        "rolloff": race.phase == Phase.ROLLOFF,
        "stop": stop,
        "roll": {"move": DECISIONS[ROLL]},
    }


def _goal_round(race: Race) -> dict[str, Any] | None:
    if race.phase != Phase.GOAL:
        return None
    return {"arrived": list(race.arrived), "left": list(race.goal_round_left())}


def _rolloff(race: Race) -> dict[str, Any] | None:
    if race.phase != Phase.ROLLOFF:
        return None
    return {"rollers": list(race.rollers), "scores": list(race.scores)}


# ----- the past: replayed on race values, cached per history ------------------------------

_races_cache: collections.OrderedDict[tuple[Any, ...], tuple[Race, ...]] = collections.OrderedDict()
_cache_lock = threading.Lock()


def _apply(board: Board, race: Race, action: int) -> Race:
    """``action`` on ``race``, as the state applies it."""
    if race.phase == Phase.SETUP:
        return rules.choose_start(race, action)
    if awaiting_die(race):
        return rules.roll_die(board, race, action)
    return rules.decide(board, race, action == ROLL)


def _races(state: Any) -> tuple[Race, ...]:
    """The race before every action of ``state``'s history and after the last (one more
    than the actions), replayed from the race the history starts from (the game's start,
    or the position the state was read from). Views of the same or a one-move-longer
    history from the same start reuse the work; the start is part of the key, so a game
    read from a position never lends its races to a game played from the start."""
    history = tuple(state.history())
    start_race: Race = state.start_race
    key = (state._game.options, start_race, history)
    with _cache_lock:
        known = _races_cache.get(key)
        if known is not None:
            _races_cache.move_to_end(key)
            return known
        start: tuple[Race, ...] = (start_race,)
        for back in range(1, min(len(history), 4) + 1):
            cached = _races_cache.get((key[0], start_race, history[:-back]))
            if cached is not None:
                start = cached
                break
    board = state.board
    races = list(start)
    for action in history[len(races) - 1 :]:
        races.append(_apply(board, races[-1], action))
    if races[-1] != state.race:  # the history does not lead to the state: never cached
        return (state.race,)
    found = tuple(races)
    with _cache_lock:
        _races_cache[key] = found
        while len(_races_cache) > _CACHE_SIZE:
            _races_cache.popitem(last=False)
    return found


def _last_roll(history: list[int], races: tuple[Race, ...]) -> dict[str, Any] | None:
    """The dice of the last finished roll: who rolled, one or two dice, what they did."""
    if len(races) != len(history) + 1:
        return None
    for index in range(len(history) - 1, -1, -1):
        before, after = races[index], races[index + 1]
        finished = before.first_die != 0 and (after.first_die == 0 or after.phase == Phase.OVER)
        if before.phase in (Phase.SETUP, Phase.OVER) or not finished:
            continue
        second = history[index] if before.rolling else None
        dice = [before.first_die] if second is None else [before.first_die, second]
        if before.phase == Phase.ROLLOFF:
            result = "score"
        else:
            result = rules.result_of(before.first_die, second).value
        return {"seat": before.turn, "dice": dice, "result": result}
    return None


def _account(board: Board, history: list[int], races: tuple[Race, ...]) -> list[dict[str, Any]]:
    """The last :data:`ACCOUNT_TURNS` turns, oldest first: whose turn (``None``: the draw of
    the start player) and its sentences."""
    if len(races) != len(history) + 1:
        return []
    starts: list[int] = []
    first = len(history)
    while first > 0 and len(starts) < ACCOUNT_TURNS:
        first -= 1
        before = races[first]
        if before.phase == Phase.SETUP or (awaiting_die(before) and before.first_die == 0):
            starts.append(first)
    starts.reverse()
    turns: list[dict[str, Any]] = []
    if not starts:
        return turns
    for start, end in zip(starts, [*starts[1:], len(history)], strict=True):
        before = races[start]
        lines = [
            said_json(line)
            for index in range(start, end)
            for line in account(board, races[index], history[index], races[index + 1])
        ]
        seat = None if before.phase == Phase.SETUP else before.turn
        turns.append({"seat": seat, "lines": lines})
    return turns


def narrate_moves(game: Game, history: Sequence[str], start: str | None = None) -> list[list[Any]]:
    """Each move of ``history`` (its notation: ``start:1``, ``die:6``, ``stop``) told as the
    terminal tells it, as JSON texts (:func:`said_json`): "Red rolls 6.", "Red stops on 6:
    climbs 2 steps." and where the ninjas went. Nothing is hidden in Ishigaki Race, so the
    moves are replayed from the start (``start``'s position where the game began from
    one)."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    state = game.new_initial_state() if start is None else game.state_from_position(start)
    assert isinstance(state, IshigakiRaceState)
    told: list[list[Any]] = []
    for text in history:
        before = state.race
        action = state.apply_move(text)
        lines = account(state.board, before, action, state.race)
        told.append([said_json(line) for line in lines])
    return told


def said_json(value: Said | object) -> Any:
    """A sentence or one of its arguments as JSON: ``{"id", "args"}`` (a message id and its
    arguments), plurals with ``"plural"`` and ``"n"`` added, ``{"names": [...]}`` for a
    list of names (message ids) joined with "and", ``{"join": [...]}`` for texts written
    one after the other; numbers and plain text as they are."""
    if isinstance(value, Text):
        if not value.arguments:
            return {"id": value.message_id}
        return {"id": value.message_id, "args": _arguments_json(value.arguments)}
    if isinstance(value, Plural):
        return {
            "id": value.singular,
            "plural": value.plural,
            "n": value.count,
            "args": _arguments_json(value.arguments),
        }
    if isinstance(value, Count):
        return {
            "id": value.singular,
            "plural": value.plural,
            "n": value.count,
            "args": {"count": value.count},
        }
    if isinstance(value, Names):
        return {
            "names": [said_json(Text(i) if isinstance(i, str) else i) for i in value.items],
            "and": value.conjunction,
        }
    if isinstance(value, Joined):
        return {"join": [said_json(item) for item in value.items]}
    if isinstance(value, int | float | str) or value is None:
        return value
    return str(value)


def _arguments_json(arguments: Mapping[str, Any]) -> dict[str, Any]:
    return {name: said_json(value) for name, value in arguments.items()}


# ----- winning chances (two players) ---------------------------------------------------

_solutions: dict[Board, Any] = {}
_solving: set[Board] = set()
_solution_lock = threading.Lock()


def _chances(board: Board, race: Race) -> dict[str, list[float]] | None:
    """Each seat's chance of winning after ``stop`` and after ``roll``, with perfect play
    from there: two players only, and only once the wall's solution is known (asked
    for here, worked out in a background thread)."""
    if race.players != 2 or not _deciding(race):
        return None
    solution = solution_if_ready(board)
    if solution is None:
        return None
    try:
        stop, roll = solution.decision_values(race)
    except KeyError:  # a position no game reaches (read from a text)
        return None
    return {"stop": [round(p, 4) for p in stop], "roll": [round(p, 4) for p in roll]}


def solution_if_ready(board: Board) -> Any:
    """The two-player solution of ``board`` if it is worked out; otherwise ``None``, and
    it is started in a background thread (about 1-2 s)."""
    with _solution_lock:
        if board in _solutions:
            return _solutions[board]
        if board in _solving:
            return None
        _solving.add(board)
    threading.Thread(target=prepare_solution, args=(board,), daemon=True).start()
    return None


def prepare_solution(board: Board) -> Any:
    """Work out (or find) the two-player solution of ``board`` now."""
    from stairgames.games.ishigaki_race.research.value_iteration import solve

    solution = solve(board, 2)
    with _solution_lock:
        _solutions[board] = solution
        _solving.discard(board)
    return solution
