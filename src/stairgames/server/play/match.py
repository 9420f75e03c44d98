"""One match in memory: its seats and the state its events give, and what each viewer sees.

The web layer holds no game logic: every move is checked and applied by the rules
engine (``state.apply_move``), each viewer's view comes from the protocol
(``history_strings(seat)``, ``public_history_strings()``, the game's ``web_view``), and
records from :func:`stairgames.core.record.make_record`.

A match is its events replayed (:meth:`Match.apply_event`): ``move`` (a move in full
notation, by a seat or by chance), ``undo``, ``takeback``/``takeback_answer``,
``resign`` (in a game of three or more seats with people left to play, the
resigning person leaves and a computer takes the seat: the event names its level),
``join``, ``rematch_ask``/``rematch_decline`` (a rematch is offered and made once every
person accepts), ``rematch``, ``flag`` (a seat's time ran out: it loses, or in a game of
three or more seats with people left to play, a computer takes it, as when resigning),
``resume`` (the server was down since ``down_since``: that time is given back to the
clocks), ``away``/``back`` (the event's seat went on vacation, its correspondence
clock held until the event's ``until`` at most, and came back), ``lapse`` (an offer
nobody answered in time is withdrawn) and ``abort`` (the event's seat did not make its
first move in time: the match ends, no winner; an ``abort`` of no seat: a game against
the computer nobody moved in for the stale limit ended by itself, no winner). The events
are checked, numbered and committed by the service
(:mod:`stairgames.server.play.matches`).
"""

from __future__ import annotations

import hmac
import json
import time
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from stairgames.core.game import Game, State
from stairgames.core.record import FULL_VIEW, make_record, moves_in_view
from stairgames.core.registry import accessible_view, get_spec, load
from stairgames.i18n import N_, Count, Text, arguments_json, deferred
from stairgames.server.base.errors import ServerError
from stairgames.server.base.store import EventRecord, MatchRecord
from stairgames.server.play.clocks import (
    CORRESPONDENCE,
    Clock,
    FirstMoveLimits,
    TimeControl,
    time_control_from_json,
)
from stairgames.server.play.contract import (
    AbortEvent,
    AwayEvent,
    BackEvent,
    Event,
    FlagEvent,
    JoinEvent,
    LapseEvent,
    MatchEvent,
    MoveEvent,
    RematchAskEvent,
    RematchDeclineEvent,
    RematchEvent,
    ResignEvent,
    ResumeEvent,
    TakebackAnswerEvent,
    TakebackEvent,
    UndoEvent,
    read_event,
)
from stairgames.server.play.seats import COMPUTER, HUMAN, ONLINE, Seat, hash_token

DAY_SECONDS = 86_400.0
PREMOVE_BRANCHES = 400
"""The most moves an opponent may have for :meth:`Match.premoves` to look past them."""
STALE_DAYS = deferred.ngettext("{count} day", "{count} days")
"""The days a stale game went without a move, as its end's reason counts them."""
ENDED_STALE = N_("The game ended after {days} without a move")
"""The reason of a stale game's end (:attr:`Match.idle_days`)."""


def outcome_json(state: State) -> dict[str, Any] | None:
    """How the game of ``state`` ended by its rules, ``None`` while it goes on (the shape
    of :meth:`Match.result`)."""
    outcome = state.outcome()
    if outcome is None:
        return None
    text = outcome.text
    return {
        "returns": list(outcome.returns),
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "reason_id": text.message_id if isinstance(text, Text) else outcome.reason,
        "reason_args": arguments_json(text.arguments) if text is not None else {},
    }


class Match:
    """One match in memory: its seats and the state its events give."""

    def __init__(self, record: MatchRecord) -> None:
        self.id = record.id
        self.game_name = record.game
        self.options = record.options
        self.seed = record.seed
        self.rematch_of = record.rematch_of
        self.seats = [Seat(s.seat, s.kind, s.player, s.token_hash) for s in record.seats]
        self.game: Game = load(record.game, **record.options)
        self.start_position = record.start_position
        """The position text the match started from (``None``: the game's start)."""
        self.state: State = self.initial_state()
        self.movers: list[int | None] = []
        """The seat that made each move of the state's history (``None``: chance)."""
        self.event = 0
        self.last_was_join = False
        """Whether the last event was a join (someone took an online seat)."""
        self.last_at: float | None = None
        """When the last event was accepted (``None``: none yet, or not known)."""
        self._premoves: dict[int, tuple[int, list[str]]] = {}
        """:meth:`premoves` of each seat, and the event they were made at."""
        self._narrations: dict[tuple[str, ...], list[list[Any]]] = {}
        """:meth:`narration` by history: the few histories of the viewers of late events."""
        self.takeback: int | None = None
        self.resigned: int | None = None
        """The seat whose resignation ended the game."""
        self.left: list[int] = []
        """The seats whose people resigned and left, a computer playing on for them."""
        self.takeback_refused: int | None = None
        self.takeback_outcome: tuple[int, str] | None = None
        """The seat whose takeback was just answered, and how: ``accepted``, ``refused``
        or ``lapsed`` (until the next event)."""
        """The seat whose takeback was just refused (until the next event)."""
        self.rematch_asked: set[int] = set()
        """The seats that asked for (or accepted) a rematch."""
        self.rematch: str | None = None
        self.flagged: int | None = None
        """The seat whose time ran out and ended the game."""
        self.aborted: int | None = None
        """The seat that made no first move in time: the match was aborted."""
        self.idle_days: int | None = None
        """The whole days nobody had moved when the match ended by itself, stale (an
        ``abort`` of no seat: :meth:`MatchService.end_stale`); ``None``: not so."""
        self.created_at = record.created_at
        self.time_control: TimeControl = time_control_from_json(record.time_control)
        self.clock: Clock | None = (
            Clock(self.time_control, len(self.seats)) if self.time_control.timed else None
        )
        self.offer_since: float | None = None
        """When the open takeback or rematch offer was made."""
        self.away_automatic: dict[int, bool] = {}
        """The seats whose last vacation began here (``away``), and whether the server
        started it by itself (a deadline near)."""
        self._shared_board: tuple[int, dict[str, Any]] | None = None
        if self.clock is not None and record.created_at is not None:
            self.clock.run(self.clock_seat(), record.created_at)
        for event in record.events:
            self.apply_event(event)

    # ----- events -------------------------------------------------------------

    def apply_event(self, event: EventRecord) -> None:
        """Fold one committed event into the match (the events were checked before their
        commit, so this only replays them)."""
        if event.number != self.event + 1:
            raise ValueError(f"event {event.number} of {self.id} after {self.event}")
        told = read_event(event.kind, event.data)
        self.takeback_refused = None
        self.takeback_outcome = None
        running = self.clock.running if self.clock is not None else None
        if self.clock is not None and event.at is not None:
            if isinstance(told, ResumeEvent):
                self.clock.resume(told.down_since, event.at)
            elif isinstance(told, AwayEvent) and event.seat is not None:
                self.clock.away(event.seat, event.at, told.until)
            elif isinstance(told, BackEvent) and event.seat is not None:
                self.clock.back(event.seat, event.at)
            else:
                self.clock.charge(event.at)
        offer_was_open = self.open_offer() is not None
        if isinstance(told, AbortEvent) and event.seat is None:
            self.idle_days = self._days_idle_at(event.at)
        self._fold(event.seat, told)
        if self.open_offer() is None:
            self.offer_since = None
        elif not offer_was_open or isinstance(told, TakebackEvent):
            self.offer_since = event.at
        if self.clock is not None and event.at is not None:
            if isinstance(told, MoveEvent) and event.seat is not None and event.seat == running:
                self.clock.moved(event.seat)
            self.clock.run(self.clock_seat(), event.at)
        self.event = event.number
        self.last_was_join = isinstance(told, JoinEvent)
        if event.at is not None:
            self.last_at = event.at

    def _days_idle_at(self, moment: float | None) -> int:
        """The whole days from the match's last event (or its making) to ``moment``."""
        since = self.last_at if self.last_at is not None else self.created_at
        if moment is None or since is None:
            return 0
        return max(0, int((moment - since) // DAY_SECONDS))

    def _fold(self, seat: int | None, event: MatchEvent) -> None:
        _FOLDS[type(event)](self, seat, event)

    def _fold_move(self, seat: int | None, event: MoveEvent) -> None:
        self.state.apply_move(event.move)
        self.movers.append(seat)
        self.takeback = None

    def _fold_undo(self, _seat: int | None, event: UndoEvent) -> None:
        self._take_back(event.count)

    def _fold_takeback(self, seat: int | None, _event: TakebackEvent) -> None:
        self.takeback = seat

    def _fold_takeback_answer(self, _seat: int | None, event: TakebackAnswerEvent) -> None:
        if event.accept:
            self._take_back(event.count)
        else:
            self.takeback_refused = self.takeback
        if self.takeback is not None:
            self.takeback_outcome = (self.takeback, "accepted" if event.accept else "refused")
        self.takeback = None

    def _fold_resign(self, seat: int | None, event: ResignEvent) -> None:
        if event.player:
            self._leave(seat, event.player)
        else:
            self.resigned = seat

    def _fold_flag(self, seat: int | None, event: FlagEvent) -> None:
        if event.player:
            self._leave(seat, event.player)
        else:
            self.resigned = self.flagged = seat

    def _fold_abort(self, seat: int | None, _event: AbortEvent) -> None:
        if seat is not None:  # (no seat: ended stale, apply_event counted the days)
            self.aborted = seat

    def _leave(self, seat: int | None, computer: str) -> None:
        """The person at ``seat`` left (resigned, or out of time, in a game of three or
        more seats): ``computer`` plays on for them."""
        assert seat is not None
        taken = self.seats[seat]
        taken.kind, taken.player = COMPUTER, computer
        self.left = [*self.left, seat]  # (a new list: a probe shares it)

    def _fold_rematch_ask(self, seat: int | None, _event: RematchAskEvent) -> None:
        assert seat is not None
        self.rematch_asked = self.rematch_asked | self.seats_of_person(seat)

    def _fold_rematch_decline(self, _seat: int | None, _event: RematchDeclineEvent) -> None:
        self.rematch_asked = set()

    def _fold_lapse(self, _seat: int | None, event: LapseEvent) -> None:
        if self.takeback is not None:
            self.takeback_outcome = (self.takeback, "lapsed")
        self.takeback = None
        if event.offer == "rematch":
            self.rematch_asked = set()

    def _fold_resume(self, _seat: int | None, _event: ResumeEvent) -> None:
        pass  # (the clocks were given the time back: apply_event)

    def _fold_away(self, seat: int | None, event: AwayEvent) -> None:
        if seat is not None:
            self.away_automatic[seat] = event.automatic
        # (the clock holds the seat's time: apply_event)

    def _fold_back(self, seat: int | None, _event: BackEvent) -> None:
        self.away_automatic.pop(seat if seat is not None else -1, None)

    def _fold_join(self, _seat: int | None, event: JoinEvent) -> None:
        self.seats[event.seat].token_hash = event.token_hash

    def _fold_rematch(self, _seat: int | None, event: RematchEvent) -> None:
        self.rematch = event.match

    def initial_state(self) -> State:
        """The state the match started from: the game's start, or its start position."""
        if self.start_position is None:
            return self.game.new_initial_state()
        return self.game.state_from_position(self.start_position)

    def _take_back(self, count: int) -> None:
        history = self.state.history()[: len(self.movers) - count]
        state = self.initial_state()
        for action in history:
            state.apply_action(action)
        self.state = state
        del self.movers[len(self.movers) - count :]

    # ----- questions ----------------------------------------------------------

    def open_offer(self) -> str | None:
        """The offer waiting for an answer: ``takeback``, ``rematch`` or ``None``."""
        if self.takeback is not None:
            return "takeback"
        if self.rematch_asked and self.rematch is None:
            return "rematch"
        return None

    def clock_seat(self) -> int | None:
        """The seat whose clock runs: a person to act, once every seat is taken, in a
        timed match (chance, a computer and a finished game run none)."""
        if self.clock is None or self.free_seats():
            return None
        seat = self.to_act()
        if seat is None or self.seats[seat].kind == COMPUTER:
            return None
        return seat

    def deadline(self) -> float | None:
        """When the running clock's time is up (``None``: none runs)."""
        return None if self.clock is None else self.clock.deadline()

    def abort_due(self, limits: FirstMoveLimits) -> float | None:
        """When the match is aborted unless the seat whose clock runs moves: that seat has
        made no move yet, and its first turn runs out of ``limits`` (or its time is up
        first: a person is never flagged before a first move). ``None``: not so."""
        seat = self.clock_seat()
        limit = limits.of(self.time_control)
        if seat is None or seat in self.movers or limit is None or self.clock is None:
            return None
        since = self.clock.since
        if since is None:
            return None
        deadline = self.deadline()
        limit += self.clock.held(seat)  # a vacation holds the first turn too
        return since + limit if deadline is None else min(since + limit, deadline)

    @property
    def over(self) -> bool:
        return self.ended_early or self.state.is_terminal()

    @property
    def ended_early(self) -> bool:
        """Whether the match ended before its rules' end: resigned, flagged, aborted or
        ended stale."""
        return self.resigned is not None or self.aborted is not None or self.idle_days is not None

    def to_act(self) -> int | None:
        if self.over:
            return None
        player = self.state.current_player()
        return player if player >= 0 else None

    def computer_to_act(self) -> Seat | None:
        seat = self.to_act()
        if seat is None or self.seats[seat].kind != COMPUTER:
            return None
        return self.seats[seat]

    def has_online_seats(self) -> bool:
        return any(seat.kind == ONLINE for seat in self.seats)

    def free_seats(self) -> list[int]:
        """The online seats nobody took yet, in seat order."""
        return [seat.seat for seat in self.seats if seat.kind == ONLINE and seat.token_hash is None]

    def seats_of_person(self, seat: int) -> set[int]:
        """The seats played by the person (or the people at one screen) at ``seat``: the
        screen's seats together, an online seat alone."""
        if self.seats[seat].kind == HUMAN:
            return {s.seat for s in self.seats if s.kind == HUMAN}
        return {seat}

    def rematch_askers_needed(self) -> set[int]:
        """The seats whose people must accept a rematch: every seat a person plays (an
        online seat nobody joined is left out)."""
        return {
            s.seat
            for s in self.seats
            if s.kind == HUMAN or (s.kind == ONLINE and s.token_hash is not None)
        }

    def undo_count(self) -> int:
        """How many moves an undo takes back: back to the last move of a person at this
        screen (0: none made)."""
        humans = {s.seat for s in self.seats if s.kind == HUMAN}
        return next(
            (back for back, mover in enumerate(reversed(self.movers), 1) if mover in humans), 0
        )

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` holds; ``None`` for no token (a spectator).

        :raises ServerError: 403, a token that holds no seat of this match.
        """
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise ServerError(403, N_("this token holds no seat in this match"))

    def undo_refusal(self, seat: int | None) -> ServerError | None:
        """Why ``seat`` may not undo here at all (``None``: it may, given a move to take
        back): a spectator, an online match, dice or hidden cards, a finished game."""
        return self._take_back_refusal(seat) or (
            ServerError(409, N_("online, ask your opponent for a takeback instead"))
            if self.has_online_seats()
            else None
        )

    def takeback_refusal(self, seat: int | None) -> ServerError | None:
        """Why ``seat`` may not ask an online opponent for a takeback at all."""
        return self._take_back_refusal(seat) or (
            None
            if self.has_online_seats()
            else ServerError(409, N_("takebacks are asked of an online opponent; use undo"))
        )

    def _take_back_refusal(self, seat: int | None) -> ServerError | None:
        info = self.game.info()
        if seat is None:
            return ServerError(403, N_("spectators cannot play; join a free seat to play"))
        if info.chance or info.hidden_information:
            return ServerError(409, N_("moves cannot be taken back in games with dice or cards"))
        if self.over:
            return ServerError(409, N_("the game is over"))
        return None

    def moves_back_to(self, seat: int) -> int:
        """How many moves to take back so that ``seat``'s last move is undone (with
        every move after it); 0 when it has made none."""
        for back, mover in enumerate(reversed(self.movers), start=1):
            if mover == seat:
                return back
        return 0

    def result(self) -> dict[str, Any] | None:
        """How the game ended, ``None`` while it goes on: ``returns``, ``winners``, the
        English ``reason`` and, for players, ``reason_id`` with ``reason_args`` as
        :func:`stairgames.i18n.arguments_json` gives them (a colour is ``{"id": "red"}``);
        an aborted match has no winner, nothing won (``returns`` all 0) and ``aborted``, and
        so has a stale one that ended by itself."""
        if self.idle_days is not None:
            days = Count(*STALE_DAYS, self.idle_days)
            return {
                "returns": [0.0] * len(self.seats),
                "winners": [],
                "reason": str(Text(ENDED_STALE, {"days": days})),
                "reason_id": ENDED_STALE,
                "reason_args": arguments_json({"days": days}),
                "aborted": True,
            }
        if self.aborted is not None:
            name = self.state.seat_name(self.aborted)
            return {
                "returns": [0.0] * len(self.seats),
                "winners": [],
                "reason": f"The game was aborted: {name} did not make a first move",
                "reason_id": N_("The game was aborted: {name} did not make a first move"),
                "reason_args": arguments_json({"name": Text(name)}),
                "aborted": True,
            }
        if self.resigned is not None:
            info = self.game.info()
            returns = [
                info.min_utility if seat.seat == self.resigned else info.max_utility
                for seat in self.seats
            ]
            name = self.state.seat_name(self.resigned)
            on_time = self.flagged is not None
            return {
                "returns": returns,
                "winners": [s.seat for s in self.seats if s.seat != self.resigned],
                "reason": f"{name} runs out of time" if on_time else f"{name} resigns",
                "reason_id": N_("{name} runs out of time") if on_time else N_("{name} resigns"),
                "reason_args": arguments_json({"name": Text(name)}),
            }
        return outcome_json(self.state)

    def summary(self) -> dict[str, Any]:
        """What a list of games shows of the match as it is: ``to_act``, ``over``, the
        ``result`` (winners and the reason's id) and each seat's ``kind`` and computer
        ``level`` (public: nothing of any seat's hidden information)."""
        result = self.result()
        return {
            "to_act": self.to_act(),
            "over": self.over,
            "result": None
            if result is None
            else {
                "winners": result["winners"],
                "reason_id": result.get("reason_id"),
                **({"aborted": True} if result.get("aborted") else {}),
            },
            "seats": [{"kind": s.kind, "level": s.player} for s in self.seats],
        }

    def board(self, viewer: int | None) -> dict[str, Any]:
        """The drawing data for ``viewer``: the game's ``web_view`` when it has one, else
        the position text (games without hidden information only)."""
        return board_of(self.game_name, self.game, self.state, viewer)

    def _live_board(self, viewer: int | None) -> dict[str, Any]:
        """:meth:`board` of the match as it is; a game without hidden information draws
        the same board for every viewer, so it is made once per event and shared."""
        if self.game.info().hidden_information:
            return self.board(viewer)
        cached = self._shared_board
        if cached is None or cached[0] != self.event:
            cached = self._shared_board = (self.event, self.board(None))
        return cached[1]

    def view(
        self,
        viewer: int | None,
        *,
        connected: set[int],
        thinking: bool,
        computer_error: dict[str, Any] | None = None,
        now: float | None = None,
        texts: bool = False,
    ) -> dict[str, Any]:
        """The match as ``viewer`` (a seat, or ``None`` for a spectator) may see it;
        ``computer_error``: why the computer to act gave no move (an error as
        :func:`error_json` gives it), if it failed at this event; ``texts``: with the
        screen-reader mode's texts (``accessible``; else ``None``: they cost a view
        several kilobytes and their making, so only a page in that mode asks). A person
        who resigned and left watches as a spectator does."""
        if viewer is not None and viewer in self.left:
            viewer = None
        state = self.state
        to_act = self.to_act()
        history = (
            state.history_strings(viewer) if viewer is not None else state.public_history_strings()
        )
        legal: list[str] = []
        if to_act is not None and to_act == viewer:
            legal = [state.action_to_string(a, viewer) for a in state.legal_actions()]
        offer = state.agreement_offer() if not self.over else None
        offered_by = next((m for m in reversed(self.movers) if m is not None), None)
        return {
            "type": "state",
            "match": self.id,
            "event": self.event,
            "game": self.game_name,
            "options": public_options(self.options),
            "title": self.game.info().title,
            "seats": [self._seat_json(seat, viewer, connected) for seat in self.seats],
            "you": viewer,
            "to_act": to_act,
            "legal": legal,
            "history": list(history),
            "narration": self.narration(history),
            "last_move": history[-1] if history else None,
            "board": self._live_board(viewer),
            "accessible": accessible_view(self.game_name, state, viewer, legal) if texts else None,
            "result": self.result(),
            "offer": {"by": offered_by} if offer is not None else None,
            "takeback": {"by": self.takeback} if self.takeback is not None else None,
            "thinking": thinking,
            "computer_error": computer_error,
            "rematch": self.rematch,
            "rematch_asked": sorted(self.rematch_asked),
            "left": list(self.left),
            "last_mover": self.movers[-1] if self.movers else None,
            "takeback_outcome": (
                None
                if self.takeback_outcome is None
                else {"by": self.takeback_outcome[0], "outcome": self.takeback_outcome[1]}
            ),
            "takeback_refused": (
                {"by": self.takeback_refused} if self.takeback_refused is not None else None
            ),
            "can_undo": self.undo_refusal(viewer) is None and self.undo_count() > 0,
            "can_takeback": self.takeback_refusal(viewer) is None,
            "time_control": self.time_control.to_json(),
            "clock": None if self.clock is None else self.clock.view(now or time.time()),
            "premoves": self.premoves(viewer),
        }

    def premoves(self, viewer: int | None) -> list[str]:
        """The moves ``viewer`` may queue while its opponent thinks, to be played on
        arrival if legal then (the page's premove): every move that is legal for it after
        some move of the opponent to act. Only in a game of two seats without hidden cards
        or dice, going on, not in correspondence (there, replies are planned:
        ``play/plans.py``), and where the opponent has at most :data:`PREMOVE_BRANCHES`
        moves; none otherwise. Made once per event and seat; each move is named once, from
        one position where it is legal (a game's notation names an action alike in every
        position: ``tests/test_server_premove.py``)."""
        to_act = self.to_act()
        info = self.game.info()
        if (
            viewer is None
            or to_act is None
            or to_act == viewer
            or viewer in self.left
            or len(self.seats) != 2
            or info.chance
            or info.hidden_information
            or self.time_control.kind == CORRESPONDENCE
        ):
            return []
        event, state = self.event, self.state  # as they are now, should a thread ask
        cached = self._premoves.get(viewer)
        if cached is not None and cached[0] == event:
            return cached[1]
        found: dict[int, State] = {}  # each action, and a position where it is legal
        actions = state.legal_actions()
        if len(actions) <= PREMOVE_BRANCHES:
            for action in actions:
                after = state.clone()
                after.apply_action(action)
                if after.is_terminal() or after.current_player() != viewer:
                    continue
                for mine in after.legal_actions():
                    found.setdefault(mine, after)
        # named once each: the notation of an action is the same in every position
        moves = sorted({after.action_to_string(mine, viewer) for mine, after in found.items()})
        self._premoves[viewer] = (event, moves)
        return moves

    def narration(self, history: Sequence[str]) -> list[list[Any]] | None:
        """Each move of ``history`` (as one viewer may know it) told in a few words, by the
        game's ``narrate_moves`` from that history alone; ``None`` for a game without one
        (the browser shows the notation)."""
        narrate_moves = get_spec(self.game_name).narrate_moves
        if narrate_moves is None:
            return None
        key = tuple(history)
        cache = self._narrations
        if key not in cache:
            if len(cache) > 8:  # a history for each seat and the spectators, kept per event
                cache.clear()
            cache[key] = narrate_moves(self.game, history, self.start_position)
        return cache[key]

    def _seat_json(self, seat: Seat, viewer: int | None, connected: set[int]) -> dict[str, Any]:
        name = self.state.seat_name(seat.seat)
        level = seat.player if seat.kind == COMPUTER else None
        if seat.seat == viewer:
            label = f"{name} (you)"
        elif seat.kind == COMPUTER:
            label = f"{name} ({level})"
        else:
            label = name
        return {
            "seat": seat.seat,
            "name": name,
            "kind": seat.kind,
            "label": label,
            "connected": seat.kind == COMPUTER or seat.seat in connected,
            "taken": seat.kind != ONLINE or seat.token_hash is not None,
            "level": level,
        }

    def record(self, viewer: int | None) -> dict[str, Any]:
        """The game record for ``viewer`` (full once the game is over)."""
        players = tuple(
            seat.player if seat.kind == COMPUTER and seat.player else seat.kind
            for seat in self.seats
        )
        record = make_record(
            self.state,
            seed=self.seed,
            start_position=self.start_position,
            players=players,
            viewer=viewer,
        )
        data: dict[str, Any] = json.loads(record.to_json())
        if self.ended_early:  # over before the rules' end
            result = self.result()
            assert result is not None
            data["result"] = result["reason"]
            data["returns"] = result["returns"]
            data["seed"] = self.seed
            data["moves"] = list(moves_in_view(self.state, FULL_VIEW))
            data["view"] = FULL_VIEW
        data["options"] = public_options(data["options"])
        if self.time_control.timed:
            data["time_control"] = self.time_control.to_json()
        return data

    def replay_frames(self, viewer: int | None) -> Callable[[], list[dict[str, Any]]]:
        """Every position of the game so far, for stepping through it: the move that led
        there and the board, ``viewer``'s drawing; made by the function returned, which
        may run in another thread (a long game's take many milliseconds): it reads what
        the match was when this was called and never touches the match, so that moves
        committed meanwhile neither change the frames nor are changed by them.

        Once the game is over the moves are the full history (nothing is secret any
        more). During the game they are the history as ``viewer`` may know it now (the
        view's ``history``: another seat's deal is ``deal ? to blue``), and each board is
        the game's drawing of that earlier position for ``viewer`` (its ``web_view``,
        which shows a seat only what it may know): what that seat's own view showed at
        that position, never more. A seat whose person resigned and left sees what a
        spectator sees, as in :meth:`view`."""
        over = self.over
        if not over and viewer is not None and viewer in self.left:
            viewer = None
        history = list(self.state.history())
        if over:
            moves = None
        elif viewer is None:
            moves = list(self.state.public_history_strings())
        else:
            moves = list(self.state.history_strings(viewer))
        game_name, game, start = self.game_name, self.game, self.initial_state()

        def frames() -> list[dict[str, Any]]:
            state = start
            made: list[dict[str, Any]] = [
                {"move": None, "board": board_of(game_name, game, state, viewer)}
            ]
            for number, action in enumerate(history):
                move = state.action_to_string(action) if moves is None else moves[number]
                state.apply_action(action)
                made.append({"move": move, "board": board_of(game_name, game, state, viewer)})
            return made

        return frames


_FOLDS: dict[type[Event], Callable[[Match, int | None, Any], None]] = {
    MoveEvent: Match._fold_move,
    UndoEvent: Match._fold_undo,
    TakebackEvent: Match._fold_takeback,
    TakebackAnswerEvent: Match._fold_takeback_answer,
    ResignEvent: Match._fold_resign,
    FlagEvent: Match._fold_flag,
    AbortEvent: Match._fold_abort,
    RematchAskEvent: Match._fold_rematch_ask,
    RematchDeclineEvent: Match._fold_rematch_decline,
    LapseEvent: Match._fold_lapse,
    ResumeEvent: Match._fold_resume,
    AwayEvent: Match._fold_away,
    BackEvent: Match._fold_back,
    JoinEvent: Match._fold_join,
    RematchEvent: Match._fold_rematch,
}
"""How each event of :data:`MatchEvent` (``play/contract.py``) changes a match: one
fold for every kind (``tests/test_api_contract.py`` checks that none is missing)."""


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as anyone may see them: an option naming a file on the server (City of
    Stairs' uploaded ``cards``) shows the file's id, its name without folder or suffix,
    never the server's path."""
    return {name: _public_value(value) for name, value in options.items()}


def _public_value(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    for path in (PurePosixPath(value), PureWindowsPath(value)):
        if path.is_absolute():
            return path.stem
    return value


def board_of(game_name: str, game: Game, state: State, viewer: int | None) -> dict[str, Any]:
    """The drawing data of ``state`` for ``viewer``: the game's ``web_view`` when it has
    one, else the position text (games without hidden information, or once over)."""
    web_view = get_spec(game_name).web_view
    if web_view is not None:
        board: dict[str, Any] = web_view(state, viewer)
        return board
    if not game.info().hidden_information or state.is_terminal():
        return {"position": state.position()}
    return {}


__all__ = ["Match", "public_options"]
