"""Game records: JSON with the game, its options, the seed and the moves.

A record lists every action in notation, chance outcomes included, so a game
replays exactly without its seed. The seed predicts every die and draw, so it
is hidden information while the game runs: :func:`make_record` leaves it out
until the game is over.

A record of an unfinished game with hidden information is made *for a viewer*:
its moves are the history as that seat (or, with no seat, a spectator) may know
it, and its ``view`` says whose view it is (``"public"`` or the seat number). A
record of a finished game, or of a game without hidden information, is
``"full"``: every move as it was. :func:`replay` replays a view record with
stand-ins for what it hides (see there); draw its states only for
``record.viewer``, so that no stand-in is ever shown.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from stairgames.core.errors import InvalidRecordError, StairgamesError
from stairgames.core.game import State
from stairgames.core.options import options_to_dict
from stairgames.core.registry import get_spec, load
from stairgames.i18n import N_

RECORD_FORMAT = "stairgames-record/1"

FULL_VIEW = "full"
"""``GameRecord.view`` of a record holding every move as it was."""

PUBLIC_VIEW = "public"
"""``GameRecord.view`` of a record holding what a spectator may know."""

RecordView = int | str
"""``FULL_VIEW``, ``PUBLIC_VIEW``, or the seat whose view the record holds."""

MAX_STAND_IN_TRIES = 10_000
"""How many stand-in outcomes :func:`replay` tries before it gives up on a record."""


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A complete, replayable account of one game."""

    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    seed: int | None = None
    start_position: str | None = None
    view: RecordView = FULL_VIEW
    """Whose view the moves are: ``"full"`` (every move as it was), ``"public"`` (what a
    spectator may know) or a seat (what that seat may know); see :attr:`viewer`."""
    players: tuple[str, ...] = ()
    result: str | None = None
    returns: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        _checked_view(self.view)

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "players": list(self.players),
            "view": self.view,
            "start_position": self.start_position,
            "moves": list(self.moves),
            "result": self.result,
            "returns": None if self.returns is None else list(self.returns),
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRecordError(
                message_id=N_("record is not valid JSON: {exc}"),
                arguments={"exc": exc},
            ) from None
        if not isinstance(data, dict):
            raise InvalidRecordError(message_id=N_("record must be a JSON object"))
        for key, kind in (("game", str), ("moves", list)):
            if not isinstance(data.get(key), kind):
                raise InvalidRecordError(
                    message_id=N_("record field {key!r} is missing or not a {kind}"),
                    arguments={"key": key, "kind": kind.__name__},
                )
        moves = data["moves"]
        if not all(isinstance(m, str) for m in moves):
            raise InvalidRecordError(
                message_id=N_("record field 'moves' must be a list of strings")
            )
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise InvalidRecordError(message_id=N_("record field 'options' must be an object"))
        returns = data.get("returns")
        if data.get("ended_by_agreement"):
            # records written before agreement became moves (S7) ended with this flag
            moves = [*moves, "offer", "accept"]
        return cls(
            game=data["game"],
            options={k: tuple(v) if isinstance(v, list) else v for k, v in options.items()},
            moves=tuple(moves),
            seed=data.get("seed"),
            view=_checked_view(data.get("view", FULL_VIEW)),
            start_position=data.get("start_position"),
            players=tuple(data.get("players") or ()),
            result=data.get("result"),
            returns=None if returns is None else tuple(float(r) for r in returns),
        )

    @property
    def viewer(self) -> int | None:
        """The seat to draw this record's positions for: the record's viewer, or ``None``
        (public drawing) for a public or full record."""
        return self.view if isinstance(self.view, int) else None

    @property
    def is_full(self) -> bool:
        """Whether the moves are every move as it was (nothing redacted)."""
        return self.view == FULL_VIEW

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidRecordError(
                message_id=N_("cannot read record {path!r}: {exc}"),
                arguments={"path": str(path), "exc": exc},
            ) from None
        return cls.from_json(text)


def _checked_view(value: Any) -> RecordView:
    """``value`` if it is a record view, else :class:`InvalidRecordError`."""
    if value in (FULL_VIEW, PUBLIC_VIEW):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise InvalidRecordError(
        message_id=N_(
            "record field 'view' must be {full!r}, {public!r} or a seat number, got {value!r}"
        ),
        arguments={"full": FULL_VIEW, "public": PUBLIC_VIEW, "value": value},
    )


def record_view(state: State, viewer: int | None) -> RecordView:
    """The view a record of ``state`` made for ``viewer`` holds: full once the game is over
    or when nothing is hidden, else the viewer's (``None``: public)."""
    if state.is_terminal() or not state.get_game().info().hidden_information:
        return FULL_VIEW
    return PUBLIC_VIEW if viewer is None else viewer


def moves_in_view(state: State, view: RecordView) -> tuple[str, ...]:
    """``state``'s history as ``view`` (see :class:`GameRecord`) may know it."""
    if view == FULL_VIEW:
        return tuple(state.history_strings())
    if view == PUBLIC_VIEW:
        return tuple(state.public_history_strings())
    assert isinstance(view, int)
    return tuple(state.history_strings(view))


def make_record(
    state: State,
    *,
    seed: int | None = None,
    start_position: str | None = None,
    players: tuple[str, ...] = (),
    viewer: int | None = None,
) -> GameRecord:
    """The record of ``state``'s game so far, for ``viewer``.

    Once the game is over (or in a game without hidden information) the record is
    full: every move as it was, and the seed. Before that the seed is left out, and
    in a game with hidden information the moves are those ``viewer`` may know
    (``None``: a spectator), as :meth:`State.history_strings` gives them. A
    ``start_position`` is recorded as given: pass one the viewer may know.

    :raises ValueError: ``viewer`` is not a seat of the game.
    """
    if viewer is not None:
        state.seat_name(viewer)  # refuses a seat the game does not have
    game = state.get_game()
    outcome = state.outcome()
    return GameRecord(
        game=game.name,
        options=options_to_dict(game.options),
        moves=moves_in_view(state, record_view(state, viewer)),
        seed=seed if state.is_terminal() else None,
        view=record_view(state, viewer),
        start_position=start_position,
        players=players,
        result=None if outcome is None else outcome.reason,
        returns=None if outcome is None else outcome.returns,
    )


def replay(
    record: GameRecord, *, rng: random.Random | None = None
) -> Iterator[tuple[str | None, State]]:
    """Replay a record: yields ``(None, start)`` then ``(move, state after it)`` for each move.

    A view record (``record.view`` not full) replays each chance move it hides
    (``deal ? to blue``) with a stand-in: an outcome whose text, as the record's view
    sees it, is the recorded one, chosen so that the rest of the record replays too
    (trying the outcomes in order, and going back to an earlier stand-in when a
    later move does not replay). The states hold these stand-ins, so show them only
    for ``record.viewer`` (its drawing, observation and history), never in full; the
    moves yielded are the record's own text.

    With ``rng`` the stand-ins are tried in a random order drawn from it, each
    outcome as likely to come first as chance makes it: a game continued from a
    view record deals anew what the record hides (no seat can foresee it), and the
    same ``rng`` state deals the same. Without it the order is the outcomes' own, so
    a record always replays to the same states.

    :raises InvalidRecordError: unknown game or options, bad start position, or a move
        that is illegal where it stands (the message gives its number).
    """
    try:
        get_spec(record.game)
        game = load(record.game, **record.options)
        state = (
            game.new_initial_state()
            if record.start_position is None
            else game.state_from_position(record.start_position)
        )
    except StairgamesError as exc:
        raise InvalidRecordError(
            message_id=N_("record cannot be set up: {exc}"),
            arguments={"exc": exc},
        ) from None
    _check_view(record, state)
    yield None, state.clone()
    actions = _replayed_actions(record, state, rng)
    for move, action in zip(record.moves, actions, strict=True):
        state.apply_action(action)
        yield move, state.clone()


def final_state(record: GameRecord, *, rng: random.Random | None = None) -> State:
    """The state at the end of a record (``rng``: stand-ins as :func:`replay` says)."""
    last: State | None = None
    for _, state in replay(record, rng=rng):
        last = state
    assert last is not None
    return last


def _check_view(record: GameRecord, state: State) -> None:
    if record.viewer is not None and record.viewer >= state.get_game().num_players():
        raise InvalidRecordError(
            message_id=N_("record view {viewer} is not a seat of {game} ({seats} seats)"),
            arguments={
                "viewer": record.viewer,
                "game": record.game,
                "seats": state.get_game().num_players(),
            },
        )


def _seen_text(state: State, view: RecordView) -> str:
    """The last move of ``state``'s history as ``view`` sees it."""
    return moves_in_view(state, view)[-1]


def _stand_ins(
    state: State, move: str, view: RecordView, rng: random.Random | None = None
) -> list[int]:
    """The chance outcomes here that ``view`` would have recorded as ``move``: in their
    own order, or with ``rng`` in a random order by their odds (:func:`_by_odds`)."""
    if view == FULL_VIEW or not state.is_chance_node():
        return []
    found = []
    for outcome, probability in state.chance_outcomes():
        candidate = state.clone()
        candidate.apply_action(outcome)
        if _seen_text(candidate, view) == move:
            found.append((outcome, probability))
    if rng is not None:
        found = _by_odds(found, rng)
    return [outcome for outcome, _ in found]


def _by_odds(outcomes: list[tuple[int, float]], rng: random.Random) -> list[tuple[int, float]]:
    """``outcomes`` in a random order where each comes first as often as its probability
    says among those left (weighted sampling without replacement: the largest of
    ``u ** (1 / p)``, ``u`` uniform, comes first)."""
    keys = [rng.random() ** (1 / p) if p > 0 else 0.0 for _, p in outcomes]
    order = sorted(range(len(outcomes)), key=lambda i: keys[i], reverse=True)
    return [outcomes[i] for i in order]


@dataclasses.dataclass
class _Branch:
    """A point where :func:`_replayed_actions` chose a stand-in, with those left to try."""

    index: int
    before: State
    untried: list[int]


def _replayed_actions(
    record: GameRecord, start: State, rng: random.Random | None = None
) -> list[int]:
    """The actions that replay ``record`` from ``start``, stand-ins included (tried in
    the order ``rng`` draws, or in their own without it).

    :raises InvalidRecordError: no choice of stand-ins replays every move; the message
        names the move that got furthest.
    """
    state = start.clone()
    actions: list[int] = []
    branches: list[_Branch] = []
    furthest: tuple[int, str, StairgamesError | None] = (-1, "", None)
    tries = 0
    while len(actions) < len(record.moves):
        index = len(actions)
        move = record.moves[index]
        try:
            action: int | None = state.string_to_action(move)
        except StairgamesError as exc:
            action = None
            stand_ins = _stand_ins(state, move, record.view, rng)
            if stand_ins:
                action = stand_ins.pop(0)
                branches.append(_Branch(index, state.clone(), stand_ins))
            elif index > furthest[0]:
                furthest = (index, move, exc)
        if action is None:
            while branches and not branches[-1].untried:
                branches.pop()
            tries += 1
            if not branches or tries > MAX_STAND_IN_TRIES:
                number, bad_move, error = furthest
                raise InvalidRecordError(
                    message_id=N_("move {number} ({move!r}) does not replay: {exc}"),
                    arguments={"number": number + 1, "move": bad_move, "exc": error},
                )
            branch = branches[-1]
            action = branch.untried.pop(0)
            state = branch.before.clone()
            del actions[branch.index :]
        state.apply_action(action)
        actions.append(action)
    return actions
