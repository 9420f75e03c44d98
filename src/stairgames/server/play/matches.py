"""The match service: seats and their tokens, numbered events, moves through the protocol.

:class:`MatchService` creates matches (:mod:`.seats`), turns requests into checked
events, commits them and keeps the matches in memory (:mod:`.match`: a match is its
events replayed). Dice and draws come from a generator seeded by the match's seed and
the move number (:func:`chance_seed`), so they are the same after a restart and unknown
to players until the game ends (the seed is in the record only then).

The service methods are synchronous; the web layer calls them under one lock per match
and commits before it announces (:meth:`MatchService.commit`). What a person does on
every move has an ``async`` twin whose database work runs in a thread
(:func:`stairgames.server.base.store.off_loop`) while the caller holds the match's lock:
:meth:`MatchService.move_async` and :meth:`MatchService.follow_async`. A commit is
checked and folded into a copy of the match first; the match itself takes the copy's
state only once the database said yes, so nobody reads an event not committed.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, Protocol, TypeVar

from stairgames.agents.levels import LEVEL_NAMES
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game
from stairgames.core.options import options_to_dict
from stairgames.core.registry import load
from stairgames.i18n import N_, Text
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.store import (
    EventConflictError,
    EventRecord,
    SeatRecord,
    Store,
    SummaryRecord,
    off_loop,
    on_event_loop_thread,
)
from stairgames.server.people.blocks import BLOCKED, blocks_on
from stairgames.server.play.clocks import (
    CORRESPONDENCE,
    REALTIME,
    UNTIMED,
    FirstMoveLimits,
    TimeControl,
)
from stairgames.server.play.match import Match
from stairgames.server.play.seats import COMPUTER, HUMAN, hash_token, parse_seat

log = logging.getLogger(__name__)

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")

Events = list[tuple[str, int | None, dict[str, Any]]]
"""Events to commit, not numbered yet: (kind, seat, data)."""

LEVELS = LEVEL_NAMES

OFFER_SECONDS = 60.0
"""How long a takeback or rematch offer of a real-time game waits for its answer."""


def new_id() -> str:
    """A new match's id: 16 characters no one can guess."""
    return secrets.token_urlsafe(12)


def chance_seed(seed: int, move_number: int) -> str:
    """The seed of the generator that draws the chance outcome after ``move_number``
    moves (the same after a restart)."""
    return f"{seed}:{move_number}"


MAX_POSITION_LENGTH = 2000
"""The longest position text a match may start from (the request's size bounds it too)."""


def check_start_position(game: Game, text: object) -> None:
    """Refuse a start position a match cannot start from: not text, too long, a game with
    hidden information (a position text cannot say what each seat may know), one the
    engine's position parser refuses (its error), or a finished game.

    :raises StairgamesError: 400, saying why.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_POSITION_LENGTH:
        raise ServerError(
            400,
            N_("a position must be a text of at most {limit} characters"),
            limit=MAX_POSITION_LENGTH,
        )
    if game.info().hidden_information:
        raise ServerError(
            400,
            N_("a game of {title} cannot start from a position: its cards are hidden"),
            title=Text(game.info().title),
        )
    state = game.state_from_position(text)  # InvalidPositionError: 400 with its reason
    if state.is_terminal():
        raise ServerError(400, N_("the game is over in this position"))


@dataclasses.dataclass(frozen=True)
class _Planned:
    """A commit made ready: its numbered records, the match as they leave it (a copy),
    and the summary stored with them."""

    records: list[EventRecord]
    after: Match
    summary: SummaryRecord


class Replies(Protocol):
    """The replies people planned (``play/plans.py``), asked after each move."""

    def may_answer(self, match: Match, seat: int) -> bool:
        """Whether the opponent of ``seat`` may have planned a reply at all (no database
        read: where not, :meth:`after_move` is not asked)."""

    def after_move(self, match: Match, seat: int, move: str) -> tuple[int, str] | None:
        """The reply planned to ``move`` of ``seat`` (its seat, and the move), if any (a
        database read and write)."""


@dataclasses.dataclass(frozen=True)
class Created:
    match: Match
    tokens: dict[int, str]


class MatchService:
    """Creates matches, turns requests into checked events, commits them, and keeps the
    matches in memory (reloaded from the database on first use after a restart)."""

    def __init__(
        self,
        store: Store,
        computer_players: Sequence[str] = LEVEL_NAMES,
        *,
        clock: Callable[[], float] = time.time,
        first_moves: FirstMoveLimits | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        """Now, in seconds since the epoch: when each event is accepted (the clocks'
        time; a test gives a fake one)."""
        self.first_moves = first_moves
        """How long a person's first turn of a timed match may run before the match is
        aborted (``None``: never aborted, a first turn is flagged as any other)."""
        self.computer_players = tuple(p.strip().lower() for p in computer_players)
        """The players a computer seat may be given (``Settings.computer_players``)."""
        self._matches: dict[str, Match] = {}
        self.committed: list[Callable[[Match, Sequence[EventRecord]], None]] = []
        """Told each match and the events just committed to it, by this process (the
        fan-out's publish and the metrics: :mod:`stairgames.server.play.fanout`), always on
        the event loop's thread (a commit made in a database thread tells them there)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        """The event loop the service serves, once :meth:`in_thread` was used."""
        self.replies: Replies | None = None
        """The replies planned ahead, played as soon as the move they answer is
        (:meth:`move_async`; ``None``: none are)."""
        self.moved: list[Callable[[Match, int], None]] = []
        """Told each match and seat after a person's move (:meth:`move_async`), on the
        event loop, the match's lock held: they may only start work of their own
        (``play/vacation.py`` ends a vacation the server started)."""

    async def in_thread(
        self, call: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
    ) -> _Result:
        """``call(*args, **kwargs)``, one of this service's requests (a join, an undo,
        a rematch, a new match...), in a database thread (:func:`off_loop`), awaited: its
        reads, its commit and its replay keep off the event loop. The caller holds the
        match's lock, as for :meth:`commit_async`; the :attr:`committed` listeners are
        told on the event loop, before this returns."""
        self._loop = asyncio.get_running_loop()
        return await off_loop(call, *args, **kwargs)

    # ----- creating and finding ------------------------------------------------

    def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seat_specs: Sequence[str],
        time_control: TimeControl = UNTIMED,
        start_position: str | None = None,
        holder: str | None = None,
    ) -> Created:
        """A new match; ``seat_specs``: ``human``, ``online``, ``computer:LEVEL`` (or
        another of :attr:`computer_players`) for each seat; ``time_control``: its clocks;
        ``start_position``: the position text it starts from (games without hidden
        information only; ``None``: the game's start); ``holder``: the player who holds
        the seats made for this browser (those given a token), recorded with the match.

        :raises StairgamesError: unknown game or option, wrong seat count, a player not
            offered or one that cannot play this game, a start position refused
            (nothing is created).
        """
        game = load(game_name, **options)
        if start_position is not None:
            check_start_position(game, start_position)
        count = game.num_players()
        if len(seat_specs) != count:
            raise ServerError(
                400,
                N_("{game} needs {count} seats, not {given}"),
                game=game.info().title,
                count=count,
                given=len(seat_specs),
            )
        seats: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        for index, spec in enumerate(seat_specs):
            kind, player = parse_seat(spec, index, game, self.computer_players)
            token_hash = None
            if kind == HUMAN:
                tokens[index] = secrets.token_urlsafe(24)
                token_hash = hash_token(tokens[index])
            seats.append(SeatRecord(index, kind, player, token_hash))
        match_id = new_id()
        stored_options = options_to_dict(game.options)
        seed = secrets.randbits(62)
        self.store.create_match(
            match_id,
            game.name,
            stored_options,
            seed,
            seats,
            created_at=self.clock(),
            time_control=time_control.to_json() if time_control.timed else None,
            start_position=start_position,
            holders=None if holder is None else dict.fromkeys(tokens, holder),
        )
        match = self.get(match_id)
        if match.state.is_chance_node():  # the first dice or deal
            self.commit(match, [])
        return Created(match, tokens)

    def get(self, match_id: str) -> Match:
        """The match, from memory or the database.

        :raises ServerError: 404, no such match.
        """
        match = self._matches.get(match_id)
        if match is not None:
            return match
        _check_id(match_id)
        return self._kept(match_id, self._made(match_id))

    async def get_async(self, match_id: str) -> Match:
        """:meth:`get`, the database read in a database thread (a socket opening)."""
        match = self._matches.get(match_id)
        if match is not None:
            return match
        _check_id(match_id)
        made = await off_loop(self._made, match_id)  # its replay too: many ms for a long game
        return self._kept(match_id, made)

    def _made(self, match_id: str) -> Match | None:
        """The match as the database has it, replayed (``None``: no such match)."""
        record = self.store.load_match(match_id)
        return None if record is None else Match(record)

    def _kept(self, match_id: str, made: Match | None) -> Match:
        """``made`` (:meth:`_made`), kept in memory (unless another request read the
        match meanwhile: that one is kept)."""
        if made is None:
            raise ServerError(404, N_("no match {match!r}"), match=match_id)
        known = self._matches.get(match_id)
        if known is not None:
            return known
        self._matches[match_id] = made
        return made

    def cached_ids(self) -> set[str]:
        """The matches held in memory."""
        return set(self._matches)

    def forget(self, match_id: str) -> None:
        """Drop a match from memory (it stays in the database)."""
        self._matches.pop(match_id, None)

    def cached_event(self, match_id: str) -> int:
        """The last event of the match as this process has it (-1: not in memory)."""
        match = self._matches.get(match_id)
        return -1 if match is None else match.event

    def refresh(self, match: Match) -> Match:
        """The match with any events other server processes committed since."""
        if self.store.last_event(match.id) == match.event:
            return match
        self._matches.pop(match.id, None)
        return self.get(match.id)

    def follow(self, match: Match) -> Match:
        """The match with the events other server processes committed since, read in one
        query and folded into a copy of it (``match`` itself is left as it was, so a new
        object means a change, as with :meth:`refresh`); the fan-out's way, which does not
        replay the whole match for each event (:mod:`stairgames.server.play.fanout`)."""
        return self._folded(match, self.store.events_after(match.id, match.event))

    async def follow_async(self, match: Match) -> Match:
        """:meth:`follow`, its query in a database thread (the caller holds the match's
        lock): what the fan-out and every request of a shared database do first."""
        return self._folded(match, await off_loop(self.store.events_after, match.id, match.event))

    def fold(self, match: Match, events: Sequence[EventRecord]) -> Match:
        """``match`` with ``events`` another process committed after its last one (as its
        notification carried them: :mod:`stairgames.server.play.fanout`) folded into a
        copy, as :meth:`follow` folds those it reads."""
        return self._folded(match, events)

    def _folded(self, match: Match, events: Sequence[EventRecord]) -> Match:
        """``match`` with ``events`` (read after its last one) folded into a copy."""
        if not events:
            return match
        try:
            fresh = _copy_of(match)
            for record in events:
                fresh.apply_event(record)
        except Exception:  # not what the events say: read the whole match again
            self._matches.pop(match.id, None)
            return self.get(match.id)
        if self._matches.get(match.id) is match:
            self._matches[match.id] = fresh
        return fresh

    # ----- committing ----------------------------------------------------------

    def commit(
        self,
        match: Match,
        events: Events,
        *,
        claim_seat: tuple[int, str] | None = None,
        holder: str | None = None,
    ) -> None:
        """Number ``events``, commit them with the match's summary (and ``claim_seat``,
        ``holder``: :meth:`Store.append_events`), then fold them into ``match``; a move
        that leads to chance nodes is followed by their outcomes, drawn from the match's
        generator, in the same commit.

        :raises ServerError: 409, another server process changed the match first (the
            match is reloaded; nothing of this request was written).
        """
        planned = self._planned(match, events)
        try:
            self.store.append_events(
                match.id,
                planned.records,
                claim_seat=claim_seat,
                holder=holder,
                summary=planned.summary,
            )
        except EventConflictError as exc:
            raise self._conflict(match) from exc
        self._committed(match, planned)

    async def commit_async(self, match: Match, events: Events, *, at: float | None = None) -> None:
        """:meth:`commit`, the database's part in a database thread (the caller holds
        the match's lock: the match changes only after the commit, as one step); ``at``:
        the moment the events were received, when it is not now (:meth:`_planned`)."""
        planned = self._planned(match, events, at)
        try:
            await off_loop(
                self.store.append_events, match.id, planned.records, summary=planned.summary
            )
        except EventConflictError as exc:
            raise self._conflict(match) from exc
        except BaseException:  # failed or cancelled: whether it went through is unknown
            self.forget(match.id)
            raise
        self._committed(match, planned)

    def _planned(self, match: Match, events: Events, received: float | None = None) -> _Planned:
        """``events`` numbered and folded into a copy of ``match``, followed by the
        chance outcomes they lead to (drawn from the match's generator), accepted now or
        at ``received`` (the moment their request arrived, if the server took longer to
        come to it: its clocks charge the mover up to then, never before an earlier
        event of the match)."""
        at = self.clock() if received is None else max(received, match.last_at or received)
        after = _copy_of(match)
        records: list[EventRecord] = []

        def add(kind: str, seat: int | None, data: dict[str, Any]) -> None:
            record = EventRecord(after.event + 1, kind, seat, data, at)
            after.apply_event(record)
            records.append(record)

        for kind, seat, data in events:
            add(kind, seat, data)
        while not after.over and after.state.is_chance_node():
            rng = random.Random(chance_seed(after.seed, after.state.move_number()))
            outcome = sample_chance_outcome(after.state, rng)
            add("move", None, {"move": after.state.action_to_string(outcome)})
        summary = SummaryRecord(after.event, after.summary(), at if after.over else None)
        return _Planned(records, after, summary)

    def _conflict(self, match: Match) -> ServerError:
        """Another process wrote first: the match is read again on its next use."""
        self._matches.pop(match.id, None)
        return ServerError(409, N_("the match changed meanwhile; try again"))

    def _committed(self, match: Match, planned: _Planned) -> None:
        """The commit went through: ``match`` becomes what its events made of the copy,
        and the :attr:`committed` listeners hear of it."""
        match.__dict__.update(planned.after.__dict__)
        loop = self._loop
        for listener in self.committed:
            if loop is None or on_event_loop_thread():
                listener(match, planned.records)
            else:  # in a database thread (in_thread): on the loop, before the caller resumes
                loop.call_soon_threadsafe(listener, match, planned.records)

    # ----- requests --------------------------------------------------------------

    def join(self, match: Match, holder: str | None = None) -> tuple[int, str]:
        """Give the first free online seat to a new browser: (seat, token); ``holder``:
        the player taking it, recorded in the same commit (a browser with no name: none).

        :raises ServerError: 409 when no seat is free.
        """
        free = next(iter(match.free_seats()), None)
        if free is None or match.over:
            raise ServerError(409, N_("no seat is free in this match; you can watch"))
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        self.commit(
            match,
            [("join", free, {"seat": free, "token_hash": digest})],
            claim_seat=(free, digest),
            holder=holder,
        )
        return free, token

    def move(self, match: Match, seat: int | None, move: Any) -> None:
        """Play ``move`` (its notation) for ``seat``; the rules engine checks it.

        :raises ServerError / IllegalMoveError: not a seat, not its turn, game over,
            malformed or illegal move (nothing changes).
        """
        self.commit(match, self._move_events(match, seat, move))

    def computer_move(self, match: Match, seat: int, move: str) -> None:
        """Play the move a computer player chose for ``seat`` (checked like any move)."""
        if match.computer_to_act() is None or match.to_act() != seat:
            raise ServerError(409, N_("it is not your turn"))
        self._commit_move(match, seat, move)

    async def move_async(
        self, match: Match, seat: int | None, move: Any, *, received: float | None = None
    ) -> None:
        """:meth:`move`, its commit in a database thread (:meth:`commit_async`).

        ``received``: when the move arrived (the server's clock). A move that arrived
        after its seat's time was up is refused and the seat flagged, however long the
        server took to come to it; one that arrived in time is played as of then.

        :raises ServerError: 409, the mover's time was up (the match is flagged: announce
            it), or as :meth:`move`.
        """
        if received is not None and await self.abort_if_late(match, seat, received):
            raise ServerError(409, N_("the game was aborted before your first move arrived"))
        if received is not None and await self.flag_if_late(match, seat, received):
            raise ServerError(409, N_("your time ran out before this move arrived"))
        events = self._move_events(match, seat, move)
        await self.commit_async(match, events, at=received)
        if seat is not None:
            for listener in self.moved:
                listener(match, seat)
        if self.replies is not None and seat is not None:
            await self._planned_reply(match, seat, str(events[0][2]["move"]))

    async def _planned_reply(self, match: Match, seat: int, move: str) -> None:
        """Play the reply the opponent of ``seat`` planned to ``move``, if any, as
        their move (``play/plans.py``); one no longer legal is dropped (its text never
        logged: plans are private)."""
        assert self.replies is not None
        if not self.replies.may_answer(match, seat):  # most games: no database thread
            return
        reply = await off_loop(self.replies.after_move, match, seat, move)
        if reply is None:
            return
        planner, planned = reply
        try:
            events = _move_event(match, planner, planned)
        except StairgamesError:
            log.info("a planned reply in match %s was no longer legal", match.id)
            return
        await self.commit_async(match, events)

    async def flag_if_late(self, match: Match, seat: int | None, received: float) -> bool:
        """Flag ``seat`` if its clock runs and its time was up at ``received``; whether it
        was (the flag is committed: the caller announces the match)."""
        deadline = match.deadline()
        if seat is None or deadline is None or match.clock_seat() != seat:
            return False
        if received < deadline:
            return False
        await self.commit_async(match, self._flag_events(match, seat))
        return True

    async def abort_if_late(self, match: Match, seat: int | None, received: float) -> bool:
        """Abort the match if ``seat``'s first turn runs and its limit was up at
        ``received`` (:meth:`abort_due`); whether it was (the abort is committed: the
        caller announces the match)."""
        due = self.abort_due(match)
        if seat is None or due is None or match.clock_seat() != seat or received < due:
            return False
        await self.commit_async(match, [("abort", seat, {})])
        return True

    def abort_due(self, match: Match) -> float | None:
        """When the match is aborted for a first move not made (``None``: not so)."""
        return None if self.first_moves is None else match.abort_due(self.first_moves)

    def _move_events(self, match: Match, seat: int | None, move: Any) -> Events:
        """The event of ``move`` for ``seat``, checked (see :meth:`move`)."""
        self._require_player(match, seat)
        if not isinstance(move, str) or not move or len(move) > 200:
            raise ServerError(400, N_("a move must be a short text in the game's notation"))
        if match.to_act() != seat:
            raise ServerError(409, N_("it is not your turn"))
        return _move_event(match, seat, move)

    def _commit_move(self, match: Match, seat: int | None, move: str) -> None:
        """Commit ``move`` in full notation once the rules engine has found it legal."""
        self.commit(match, _move_event(match, seat, move))

    def undo(self, match: Match, seat: int | None) -> None:
        """Take back the last move of a person at this screen (and the computer's reply):
        only in matches without online seats, in games without dice or hidden cards."""
        refusal = match.undo_refusal(seat)
        if refusal is not None:
            raise refusal
        count = match.undo_count()
        if count == 0:
            raise ServerError(409, N_("there is no move to take back"))
        self.commit(match, [("undo", seat, {"count": count})])

    def ask_takeback(self, match: Match, seat: int | None) -> None:
        """Ask the online opponent to let ``seat`` take back its last move."""
        refusal = match.takeback_refusal(seat)
        if refusal is not None:
            raise refusal
        assert seat is not None
        if match.takeback is not None:
            raise ServerError(409, N_("a takeback is already asked"))
        if match.moves_back_to(seat) == 0:
            raise ServerError(409, N_("there is no move to take back"))
        self.commit(match, [("takeback", seat, {})])

    def answer_takeback(self, match: Match, seat: int | None, accept: Any) -> None:
        self._require_player(match, seat)
        if not isinstance(accept, bool):
            raise ServerError(400, N_("'accept' must be true or false"))
        if match.takeback is None or match.takeback == seat:
            raise ServerError(409, N_("there is no takeback for you to answer"))
        count = match.moves_back_to(match.takeback) if accept else 0
        self.commit(match, [("takeback_answer", seat, {"accept": accept, "count": count})])

    def resign(self, match: Match, seat: int | None) -> None:
        """``seat`` resigns. With two seats, or nobody else left to play, that ends the
        game; in a game of three or more seats with other people playing, the person
        leaves and a computer plays on for the seat (at the level of the table's
        computers, else ``medium``)."""
        self._require_player(match, seat)
        assert seat is not None
        if match.over:
            raise ServerError(409, N_("the game is over"))
        others = [s for s in match.seats if s.seat != seat and s.kind != COMPUTER]
        if len(match.seats) <= 2 or not others:
            self.commit(match, [("resign", seat, {})])
            return
        player = self._replacement(match, seat)
        self.commit(match, [("resign", seat, {"player": player})])

    def end_stale(self, match: Match, idle_seconds: float) -> bool:
        """End ``match`` by itself if it is a stale game against the computer: going on,
        with a computer and one person (:func:`against_the_computer_only`), its last
        event (or its making) ``idle_seconds`` ago or more by the service's clock. The
        end is an ``abort`` of no seat: no winner, nobody's rating changes. Whether it
        ended."""
        if match.over or not against_the_computer_only(match):
            return False
        since = match.last_at if match.last_at is not None else match.created_at
        if since is None or self.clock() - since < idle_seconds:
            return False
        self.commit(match, [("abort", None, {})])
        return True

    def _replacement(self, match: Match, seat: int) -> str:
        """The computer player that takes over ``seat``: the table's computers' level, or
        ``medium``, or the first offered that can play the game."""
        table = [s.player for s in match.seats if s.kind == COMPUTER and s.player]
        for player in (*table, "medium", *self.computer_players):
            try:
                spec = f"{COMPUTER}:{player}"
                chosen = parse_seat(spec, seat, match.game, self.computer_players)[1]
            except StairgamesError:
                continue
            return chosen or player
        raise ServerError(409, N_("no computer player can take this seat"))

    def rematch(self, match: Match, seat: int | None) -> Match | None:
        """Ask for (or accept) the next match with the same game and options, each person
        one seat on (the same tokens play it): made once every person has asked (then
        returned; ``None`` meanwhile); asked again once made, the same one.

        :raises ServerError: the game is not over, or a spectator asks; 403, a block
            stands between the asker and another player of the match
            (:mod:`stairgames.server.people.blocks`).
        """
        self._require_player(match, seat)
        assert seat is not None
        if not match.over:
            raise ServerError(409, N_("a rematch can be asked once the game is over"))
        if match.rematch is not None:
            return self.get(match.rematch)
        if blocks_on(self.store.engine).seat_blocked(match.id, seat):
            raise ServerError(403, BLOCKED)
        asked = match.rematch_asked | match.seats_of_person(seat)
        if not match.rematch_askers_needed() <= asked:
            if not match.seats_of_person(seat) <= match.rematch_asked:
                self.commit(match, [("rematch_ask", seat, {})])
            return None
        count = len(match.seats)
        seats = [
            SeatRecord(
                (old.seat + 1) % count,
                old.kind,
                old.player,
                None if old.kind == COMPUTER else old.token_hash,  # one who resigned and left
            )
            for old in match.seats
        ]
        seats.sort(key=lambda seat: seat.seat)
        new_match = new_id()
        self.store.create_match(
            new_match,
            match.game_name,
            match.options,
            secrets.randbits(62),
            seats,
            rematch_of=match.id,
            created_at=self.clock(),
            time_control=match.time_control.to_json() if match.time_control.timed else None,
            start_position=match.start_position,
        )
        self.commit(match, [("rematch_ask", seat, {}), ("rematch", seat, {"match": new_match})])
        return self.get(new_match)

    def decline_rematch(self, match: Match, seat: int | None) -> None:
        """Decline the rematch others asked for (the offer is withdrawn for everyone)."""
        self._require_player(match, seat)
        if match.rematch is not None or not match.rematch_asked:
            raise ServerError(409, N_("there is no rematch offer to decline"))
        self.commit(match, [("rematch_decline", seat, {})])

    # ----- the clocks ----------------------------------------------------------

    def due(self, match: Match) -> float | None:
        """When the clocks next need the server: the running clock's deadline, or the
        moment an unanswered offer of a real-time game lapses (``None``: never)."""
        moments = [match.deadline(), self.abort_due(match)]
        if match.time_control.kind == REALTIME and match.offer_since is not None:
            moments.append(match.offer_since + OFFER_SECONDS)
        return min((m for m in moments if m is not None), default=None)

    def keep_time(self, match: Match) -> bool:
        """Do what is due at the clock's present moment: abort the match whose person to
        act let their first turn run out (:meth:`abort_due`), flag the seat whose time
        is up (it loses; in a game of three or more seats with other people playing, a
        computer at ``medium`` takes the seat and the others play on), withdraw an offer
        unanswered for :data:`OFFER_SECONDS` in real time. Whether anything was done."""
        now = self.clock()
        abort = self.abort_due(match)
        if abort is not None and now >= abort:
            self.commit(match, [("abort", match.clock_seat(), {})])
            return True
        deadline = match.deadline()
        seat = match.clock_seat()
        if deadline is not None and seat is not None and now >= deadline:
            self.commit(match, self._flag_events(match, seat))
            return True
        offer = match.open_offer()
        since = match.offer_since
        lapses = match.time_control.kind == REALTIME and since is not None
        if offer is not None and lapses and since is not None and now >= since + OFFER_SECONDS:
            self.commit(match, [("lapse", None, {"offer": offer})])
            return True
        return False

    def _flag_events(self, match: Match, seat: int) -> Events:
        """The flag of ``seat`` (it loses; in a game of three or more seats with other
        people playing, a computer takes the seat and the others play on)."""
        others = [s for s in match.seats if s.seat != seat and s.kind != COMPUTER]
        data: dict[str, Any] = {}
        if len(match.seats) > 2 and others:
            data["player"] = (
                "medium" if "medium" in self.computer_players else self._replacement(match, seat)
            )
        return [("flag", seat, data)]

    def resume(self, match: Match, down_since: float) -> bool:
        """Give back to the running clock the time since ``down_since`` (the server was
        down); whether a clock ran."""
        if match.clock is None or match.clock_seat() is None:
            return False
        self.commit(match, [("resume", None, {"down_since": down_since})])
        return True

    def away(self, match: Match, seat: int, until: float, *, automatic: bool = False) -> bool:
        """``seat`` goes on vacation until ``until`` at most: its correspondence clock is
        held (``server/play/vacation.py``); whether the match took it (only a
        correspondence match going on does)."""
        if match.over or match.time_control.kind != CORRESPONDENCE:
            return False
        data: dict[str, Any] = {"until": until, **({"automatic": True} if automatic else {})}
        self.commit(match, [("away", seat, data)])
        return True

    def back(self, match: Match, seat: int) -> bool:
        """``seat`` is back from vacation; whether it was away in the match."""
        clock = match.clock
        if match.over or clock is None or seat not in clock.away_until(self.clock()):
            return False
        self.commit(match, [("back", seat, {})])
        return True

    def _require_player(self, match: Match, seat: int | None) -> None:
        if seat is None:
            raise ServerError(403, N_("spectators cannot play; join a free seat to play"))
        if seat in match.left:
            raise ServerError(403, N_("you resigned this game; you can watch it"))


def against_the_computer_only(match: Match) -> bool:
    """Whether ``match`` is one person's game against the computer: one seat is not
    a computer's, and some seat was a computer's from the start (a person who resigned
    and left, a computer playing on for them, is no computer of the table: a game of
    people is never ended as stale)."""
    people = [seat for seat in match.seats if seat.kind != COMPUTER]
    computers = [s for s in match.seats if s.kind == COMPUTER and s.seat not in match.left]
    return len(people) == 1 and bool(computers)


def _check_id(match_id: str) -> None:
    """:raises ServerError: 404, an id no match has (too long to look for)."""
    if len(match_id) > 64:
        raise ServerError(404, N_("no match {match!r}"), match=match_id[:64])


def _move_event(match: Match, seat: int | None, move: str) -> Events:
    """``move`` in full notation, once the rules engine has found it legal.

    :raises IllegalMoveError: with the engine's message id.
    """
    action = match.state.string_to_action(move)
    return [("move", seat, {"move": match.state.action_to_string(action)})]


def _copy_of(match: Match) -> Match:
    """A copy of ``match`` that events may be folded into without changing it."""
    copied = Match.__new__(Match)
    copied.__dict__.update(match.__dict__)
    copied.state = match.state.clone()
    copied.movers = list(match.movers)
    copied.seats = [dataclasses.replace(seat) for seat in match.seats]
    copied.clock = copy.deepcopy(match.clock)
    copied.away_automatic = dict(match.away_automatic)
    copied._premoves = {}
    return copied


__all__ = [
    "LEVELS",
    "Created",
    "Match",
    "MatchService",
    "ServerError",
    "against_the_computer_only",
    "chance_seed",
    "error_json",
]
