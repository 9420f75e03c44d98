"""The seats of a match: who plays each (a person at this screen, a person online, or a
computer player), the tokens that hold them, and seat specs as a new match names them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import Any, Final

from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game
from stairgames.i18n import N_, Names, Text
from stairgames.server.base.errors import ServerError

HUMAN: Final = "human"
"""A seat played by a person at the screen that made the match."""
ONLINE: Final = "online"
"""A seat for a person who joins from another browser (with its own token)."""
COMPUTER: Final = "computer"
"""A seat a computer player plays."""


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclasses.dataclass
class Seat:
    """One seat of a match: its number, who plays it (:data:`HUMAN`, :data:`ONLINE`,
    :data:`COMPUTER`), the computer player, and the hash of the token that holds it."""

    seat: int
    kind: str
    player: str | None
    token_hash: str | None


def parse_seat(spec: Any, index: int, game: Game, players: Sequence[str]) -> tuple[str, str | None]:
    """(kind, computer player) of a seat spec. A computer plays one of ``players`` (a
    browser chooses a level; any other player could think for as long as its settings
    say), and only one that can play ``game`` with its options: a level is resolved to
    the game's player, and that player's :meth:`Agent.check_game` asked (which is quick;
    preparing, :meth:`Agent.prepare`, may compile for seconds, and is left to the
    worker that plays)."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise ServerError(400, N_("seat {seat}: say human, online or computer:LEVEL"), seat=index)
    text = spec.strip().lower()
    if text in (HUMAN, ONLINE):
        return text, None
    player = text.partition(":")[2] if text.startswith(COMPUTER + ":") else text
    if text == COMPUTER:
        player = "medium"
    if player not in players:
        raise ServerError(
            400,
            N_("seat {seat}: a computer plays at one of the levels {levels}, not {player!r}"),
            seat=index,
            levels=Names(tuple(players), conjunction=False),
            player=player[:40],
        )
    from stairgames.agents import make_agent

    try:
        make_agent(player, index).check_game(game)
    except StairgamesError as exc:
        raise ServerError(
            400,
            N_("seat {seat}: the computer player {player!r} cannot play {game}: {reason}"),
            seat=index,
            player=player,
            game=Text(game.info().title),
            reason=exc,
        ) from exc
    return COMPUTER, player


__all__ = ["COMPUTER", "HUMAN", "ONLINE", "Seat", "hash_token", "parse_seat"]


TOKEN_IN_ADDRESS: Final = N_(
    "a seat's token is not taken in an address: send it in the X-Seat-Token header, "
    "or as the WebSocket's first message"
)
"""Why a request with a seat's token in its address (``?token=``) is refused: addresses
end up in logs, histories and the ``Referer`` of other sites."""
