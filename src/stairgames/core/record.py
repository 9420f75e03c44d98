"""Game records: JSON with the game, its options, the seed and the moves.

A record lists every action in notation, chance outcomes included, so a game
replays exactly without its seed. The seed predicts every die and draw, so it
is hidden information while the game runs: :func:`make_record` leaves it out
until the game is over.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from stairgames.core.errors import InvalidRecordError, StairgamesError
from stairgames.core.game import State
from stairgames.core.options import options_to_dict
from stairgames.core.registry import get_spec, load
from stairgames.i18n import N_

RECORD_FORMAT = "stairgames-record/1"


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A complete, replayable account of one game."""

    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    seed: int | None = None
    start_position: str | None = None
    players: tuple[str, ...] = ()
    result: str | None = None
    returns: tuple[float, ...] | None = None
    ended_by_agreement: bool = False

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "players": list(self.players),
            "start_position": self.start_position,
            "moves": list(self.moves),
            "ended_by_agreement": self.ended_by_agreement,
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
        return cls(
            game=data["game"],
            options={k: tuple(v) if isinstance(v, list) else v for k, v in options.items()},
            moves=tuple(moves),
            seed=data.get("seed"),
            start_position=data.get("start_position"),
            players=tuple(data.get("players") or ()),
            result=data.get("result"),
            returns=None if returns is None else tuple(float(r) for r in returns),
            ended_by_agreement=bool(data.get("ended_by_agreement", False)),
        )

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


def make_record(
    state: State,
    *,
    seed: int | None = None,
    start_position: str | None = None,
    players: tuple[str, ...] = (),
) -> GameRecord:
    """The record of ``state``'s game so far. The seed is kept only once the game is over."""
    game = state.get_game()
    outcome = state.outcome()
    agreed = bool(getattr(state, "ended_by_agreement", lambda: False)())
    return GameRecord(
        game=game.name,
        options=options_to_dict(game.options),
        moves=tuple(state.history_strings()),
        seed=seed if state.is_terminal() else None,
        start_position=start_position,
        players=players,
        result=None if outcome is None else outcome.reason,
        returns=None if outcome is None else outcome.returns,
        ended_by_agreement=agreed,
    )


def replay(record: GameRecord) -> Iterator[tuple[str | None, State]]:
    """Replay a record: yields ``(None, start)`` then ``(move, state after it)`` for each move.

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
    yield None, state.clone()
    for number, move in enumerate(record.moves, start=1):
        try:
            state.apply_move(move)
        except StairgamesError as exc:
            raise InvalidRecordError(
                message_id=N_("move {number} ({move!r}) does not replay: {exc}"),
                arguments={"number": number, "move": move, "exc": exc},
            ) from None
        yield move, state.clone()
    if record.ended_by_agreement:
        end = getattr(state, "end_by_agreement", None)
        if end is None:
            raise InvalidRecordError(
                message_id=N_("game {game!r} cannot end by agreement"),
                arguments={"game": record.game},
            )
        end()
        yield "(ended by agreement)", state.clone()


def final_state(record: GameRecord) -> State:
    """The state at the end of a record."""
    last: State | None = None
    for _, state in replay(record):
        last = state
    assert last is not None
    return last
