"""The match API's and the match WebSocket's models (docs/web.md, "The contract";
the pieces they are built of: ``base/contract.py``)."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, ErrorDetail, JsonObject

A_GAME_AND_OPTIONS = N_("a match needs a game name and an object of options")
A_LIST_OF_SEATS = N_("a match needs a list of seats")


class NewMatch(Body):
    """``POST /api/matches``: a match of ``game`` with its ``options``, one seat kind
    for each of its ``seats`` (``human``, ``online``, a computer's level...; the game
    checks them), a ``time_control`` and a start ``position`` (both optional, checked
    by the server)."""

    refusals: ClassVar[dict[str, str]] = {
        "game": A_GAME_AND_OPTIONS,
        "options": A_GAME_AND_OPTIONS,
        "seats": A_LIST_OF_SEATS,
    }

    game: str
    options: JsonObject = Field(default_factory=dict)
    seats: list[JsonValue]
    time_control: JsonValue = None
    position: JsonValue = None


class SeatToken(Answer):
    """A seat made for the caller, and the token that plays it."""

    seat: int
    token: str


class MatchCreated(Answer):
    """``POST /api/matches``: the new match's id, the seats made for the caller and
    the page that invites others to it."""

    match: str
    seats: list[SeatToken]
    invite: str


class JoinedSeat(Answer):
    """``POST /api/matches/{id}/join``: the free seat taken, and its token."""

    seat: int
    token: str


A_LIST_OF_LINES = N_("planned replies are a list of lines, each a list of moves")


class PlansBody(Body):
    """``PUT /api/matches/{id}/plans``: the ``lines`` of planned replies, each a list of
    moves in the game's notation, the opponent's first, then the reply, and so on
    (``play/plans.py`` checks each move)."""

    refusals: ClassVar[dict[str, str]] = {"lines": A_LIST_OF_LINES}

    lines: list[JsonValue]


class PlansView(Answer):
    """A seat's planned replies (``GET``/``PUT``/``DELETE /api/matches/{id}/plans``), for
    its holder only: the ``lines`` left, each from the position after ``ply`` moves (none:
    no plans); and to pick a line of one reply from, each move the opponent may make now
    with the replies to it (``choices``)."""

    lines: list[list[str]]
    ply: int | None
    choices: dict[str, list[str]] = Field(default_factory=dict)


# ----- the events of a match (stored, replayed: play/match.py) ---------------------------


class Event(BaseModel):
    """One committed event of a match, as its ``kind`` and data are stored
    (``base/store.py``'s ``EventRecord``); read leniently: what an older server wrote is
    read as it was (an unknown field ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class MoveEvent(Event):
    """A move in full notation, by a seat or by chance."""

    kind: Literal["move"]
    move: str


class UndoEvent(Event):
    """The last ``count`` moves taken back (at one screen)."""

    kind: Literal["undo"]
    count: int


class TakebackEvent(Event):
    """A takeback asked of an online opponent."""

    kind: Literal["takeback"]


class TakebackAnswerEvent(Event):
    """The takeback answered: accepted (``count`` moves taken back) or refused."""

    kind: Literal["takeback_answer"]
    accept: bool
    count: int = 0


class ResignEvent(Event):
    """A seat resigned; with a computer ``player``, its person left and that computer
    plays on for them (a game of three or more seats)."""

    kind: Literal["resign"]
    player: str | None = None


class FlagEvent(Event):
    """A seat's time ran out; ``player`` as in :class:`ResignEvent`."""

    kind: Literal["flag"]
    player: str | None = None


class AbortEvent(Event):
    """The match was aborted: the event's seat did not make its first move in time."""

    kind: Literal["abort"]


class RematchAskEvent(Event):
    """A seat asked for (or accepted) a rematch."""

    kind: Literal["rematch_ask"]


class RematchDeclineEvent(Event):
    """The rematch declined."""

    kind: Literal["rematch_decline"]


class LapseEvent(Event):
    """An ``offer`` (``takeback`` or ``rematch``) nobody answered in time, withdrawn."""

    kind: Literal["lapse"]
    offer: str | None = None


class ResumeEvent(Event):
    """The server was down since ``down_since``: that time is given back to the clocks."""

    kind: Literal["resume"]
    down_since: float


class AwayEvent(Event):
    """The event's seat went on vacation: its correspondence clock is held until
    ``until`` at most (``automatic``: the server started it, a deadline being near)."""

    kind: Literal["away"]
    until: float
    automatic: bool = False


class BackEvent(Event):
    """The event's seat came back from vacation (before its days ran out)."""

    kind: Literal["back"]


class JoinEvent(Event):
    """Someone took the online ``seat``; its token's digest."""

    kind: Literal["join"]
    seat: int
    token_hash: str


class RematchEvent(Event):
    """The rematch was made: its ``match``."""

    kind: Literal["rematch"]
    match: str


MatchEvent = Annotated[
    MoveEvent
    | UndoEvent
    | TakebackEvent
    | TakebackAnswerEvent
    | ResignEvent
    | FlagEvent
    | AbortEvent
    | RematchAskEvent
    | RematchDeclineEvent
    | LapseEvent
    | ResumeEvent
    | AwayEvent
    | BackEvent
    | JoinEvent
    | RematchEvent,
    Field(discriminator="kind"),
]
"""Every event of a match, told apart by its ``kind``."""

EVENT_TYPES: tuple[type[Event], ...] = typing.get_args(typing.get_args(MatchEvent)[0])
_EVENTS: TypeAdapter[MatchEvent] = TypeAdapter(MatchEvent)


def read_event(kind: str, data: Mapping[str, Any]) -> MatchEvent:
    """The event of ``kind`` with the stored ``data``.

    :raises ValueError: an unknown kind, or data that does not fit it.
    """
    return _EVENTS.validate_python({**data, "kind": kind})


# ----- what a seat sends over the match's WebSocket ---------------------------------------


class SocketRequest(BaseModel):
    """A request a seat sends over the match's WebSocket: ``event``, the last event it
    saw (a request made at an older one is refused as stale; a move must say it). Its
    other fields are checked by the service that carries it out (their refusals are its
    own), so they are any JSON here."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    event: int | None = None


class SyncRequest(SocketRequest):
    """Send me the view again; ``texts`` true: and from now on with the screen-reader
    mode's texts (``accessible``), false: without them (the default)."""

    type: Literal["sync"]
    texts: bool | None = None


class MoveRequest(SocketRequest):
    """Play ``move`` (its notation, for the game to check)."""

    type: Literal["move"]
    move: JsonValue = None


class UndoRequest(SocketRequest):
    """Take back to my last move (people at one screen)."""

    type: Literal["undo"]


class TakebackRequest(SocketRequest):
    """Ask my online opponent to take back my last move."""

    type: Literal["takeback"]


class TakebackAnswerRequest(SocketRequest):
    """Answer the takeback asked of me: ``accept`` true or false."""

    type: Literal["takeback_answer"]
    accept: JsonValue = None


class ResignRequest(SocketRequest):
    """I resign."""

    type: Literal["resign"]


class RematchRequest(SocketRequest):
    """Ask for (or accept) a rematch."""

    type: Literal["rematch"]


class RematchDeclineRequest(SocketRequest):
    """Decline the rematch offered."""

    type: Literal["rematch_decline"]


SeatRequest = Annotated[
    SyncRequest
    | MoveRequest
    | UndoRequest
    | TakebackRequest
    | TakebackAnswerRequest
    | ResignRequest
    | RematchRequest
    | RematchDeclineRequest,
    Field(discriminator="type"),
]
"""Every request of a seat over the match's WebSocket, told apart by its ``type``."""

REQUEST_TYPES: tuple[type[SocketRequest], ...] = typing.get_args(typing.get_args(SeatRequest)[0])
_REQUESTS: TypeAdapter[SeatRequest] = TypeAdapter(SeatRequest)


def read_request(message: Mapping[str, Any]) -> SeatRequest | None:
    """``message`` as the request its ``type`` names (``None``: no such type)."""
    try:
        return _REQUESTS.validate_python(message)
    except ValidationError:
        return None


class Hello(BaseModel):
    """The first message of a socket opened with ``?auth=message``: the seat's token."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: Literal["hello"]
    token: str


# ----- what a seat sees (the view: GET /api/matches/{id} and the socket's "state") -------


class SeatView(Answer):
    """One seat as the view shows it: ``label`` says ``(you)`` or a computer's level;
    ``player`` is who holds it (a name), if anyone does. In a rated game (a rated
    challenge's) ``rating`` is its player's rating in the game's pool as shown
    (``"1500?"``: ``people/ratings.py``) and, once the game is over and rated,
    ``rating_change`` the points it gained or lost (the rating then is the one after);
    both are absent from the views of other games. ``bot``: true where a bot account
    holds the seat (absent otherwise)."""

    seat: int
    name: str
    kind: str
    label: str
    connected: bool
    taken: bool
    level: str | None
    player: str | None = None
    bot: bool | None = None
    rating: str | None = None
    rating_change: int | None = None


class Result(Answer):
    """How the game ended: each seat's ``returns``, the ``winners``, the English
    ``reason`` and, to translate, ``reason_id`` with ``reason_args``."""

    returns: list[float]
    winners: list[int]
    reason: str
    reason_id: str
    reason_args: JsonObject
    aborted: bool = False
    """Present (true) only when the match was aborted before a first move: no winner."""


class By(Answer):
    """An offer or a takeback, and the seat that made it."""

    by: int | None


class TakebackOutcome(Answer):
    """The takeback just answered: ``accepted``, ``refused`` or ``lapsed``."""

    by: int
    outcome: Literal["accepted", "refused", "lapsed"]


class TimeControlJson(Answer):
    """A match's time control: ``none``, ``realtime`` (``minutes``, ``increment``) or
    ``correspondence`` (``days``)."""

    kind: str
    minutes: float | None = None
    increment: int | None = None
    days: int | None = None


class AwaySeat(Answer):
    """A seat on vacation, its correspondence clock held until ``until_ms`` at most."""

    seat: int
    until_ms: int


class ClockView(TimeControlJson):
    """The clocks as the page shows them: the seat whose clock ``running``, the server's
    ``now_ms``; in real time each seat's ``remaining_ms`` and the ``increment_ms``, in
    correspondence the running seat's ``deadline_ms`` and the seats ``away`` on
    vacation (absent: none)."""

    running: int | None
    now_ms: int
    remaining_ms: list[int] | None = None
    increment_ms: int | None = None
    deadline_ms: int | None = None
    away: list[AwaySeat] | None = None


class StandInView(Answer):
    """A computer's stand-in, played while its compiled code is compiled: the ``level``
    it plays for, and how strong the game measured the stand-in: ``like``, the level it
    is about as strong as, or ``above`` and ``below``, the levels it is stronger and
    weaker than (each ``None``: not measured so; all ``None``: only weaker)."""

    level: str
    like: str | None
    above: str | None = None
    below: str | None = None


class MatchView(Answer):
    """The match as one seat (``you``; ``None``: a spectator) may see it: the same for
    ``GET /api/matches/{id}`` and the socket's ``state`` message. ``board`` is the game's
    own drawing data (its ``web_view``), ``narration`` its words for each move."""

    type: Literal["state"]
    match: str
    event: int
    game: str
    options: JsonObject
    title: str
    seats: list[SeatView]
    you: int | None
    to_act: int | None
    legal: list[str]
    history: list[str]
    narration: list[list[Any]] | None
    last_move: str | None
    board: JsonObject
    accessible: JsonObject | None = None
    """What the screen-reader mode reads, for this seat (``registry.accessible_view``:
    the position row by row and as a list, whose turn, the last move, the legal moves
    by piece); ``None`` for a game that offers none."""
    result: Result | None
    offer: By | None
    takeback: By | None
    thinking: bool
    computer_error: JsonObject | None
    rematch: str | None
    rematch_asked: list[int]
    left: list[int]
    last_mover: int | None
    takeback_outcome: TakebackOutcome | None
    takeback_refused: By | None
    can_undo: bool
    can_takeback: bool
    time_control: TimeControlJson
    clock: ClockView | None
    premoves: list[str] = Field(default_factory=list)
    computer_note: str | None
    computer_stand_in: StandInView | None = None
    """While ``computer_note`` is ``"warming"``: the level the stand-in plays for and the
    level it is about as strong as (absent otherwise)."""
    spectators: int


class MatchRecord(Answer):
    """``GET /api/matches/{id}/record``: the game record (``core/record.py``'s JSON, as
    the viewer may know it; full once the game is over), with who played each seat and,
    once made, the computer's ``analysis`` (``analysis/contract.py``'s shape)."""

    format: str
    game: str
    options: JsonObject
    seed: int | None
    players: list[str]
    view: str | int
    start_position: str | None
    moves: list[str]
    result: str | None
    returns: list[float] | None
    time_control: TimeControlJson | None = None
    analysis: JsonObject | None = None


class Frame(Answer):
    """One position of a replay: the ``move`` that led there and the viewer's ``board``."""

    move: str | None
    board: JsonObject


class Replay(Answer):
    """``GET /api/matches/{id}/replay``: every position of the game so far."""

    match: str
    event: int
    over: bool
    frames: list[Frame]


class Presence(Answer):
    """The socket's ``presence`` message: the seats ``connected`` and how many
    ``spectators`` watch, as of ``event``."""

    type: Literal["presence"]
    match: str
    event: int
    connected: list[int]
    spectators: int


class SocketError(Answer):
    """The socket's ``error`` message: a request refused (``event``: the match's event
    then; ``None``: the socket itself was refused, and closes)."""

    type: Literal["error"]
    error: ErrorDetail
    event: int | None
