"""The players' routes' models (``/api/me``, ``/api/account``, ``/api/login``...) and
the shapes other domains show of a player (docs/web.md, "The contract"; the pieces:
``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import JsonValue

from stairgames.server.base.contract import Answer, Body, Refusals


class NameBody(Body):
    """``POST /api/me``: the ``name`` to take (none: a name the server gives, or the
    one held)."""

    refusals: ClassVar[Refusals] = {}
    name: str | None = None


class PasswordBody(Body):
    """``POST /api/account``: the ``password`` that makes the player an account."""

    refusals: ClassVar[Refusals] = {}
    password: str


class NewPasswordBody(Body):
    """``POST /api/account/password``: the ``old`` password (text; anything else is
    a wrong one) and the ``new`` one."""

    refusals: ClassVar[Refusals] = {}
    old: JsonValue = None
    new: str


class LoginBody(Body):
    """``POST /api/login``: an account's ``name`` and ``password``."""

    refusals: ClassVar[Refusals] = {}
    name: str
    password: str


class PlayerAnswer(Answer):
    """A player as ``GET /api/me`` answers (``id`` and ``name`` ``None``: the browser is
    no player yet; ``account``: it has a password)."""

    id: str | None
    name: str | None
    account: bool


class Rating(Answer):
    """A player's rating in one pool: the ``rating`` in points (1500 for a new player:
    ``people/ratings.py``) and its ``deviation``, OpenSkill's ``mu`` and ``sigma`` it is
    made of, the ``games`` rated, whether still ``provisional``, and the rating as ``shown``
    (``"1578?"`` while provisional)."""

    rating: int
    deviation: int
    mu: float
    sigma: float
    games: int
    provisional: bool
    shown: str


class FormerName(Answer):
    """A name a player left after rated games (kept for them), and the day they left it."""

    name: str
    until: str


class NameHistory(Answer):
    """``GET /api/names/{name}``: the player holding ``name`` (or who held it): their
    ``id``, ``name`` now and ``former`` names, the oldest first."""

    id: str
    name: str
    former: list[FormerName]
