"""The match service: seats and their tokens, numbered events, moves through the protocol.

The web layer holds no game logic: every move is checked and applied by the rules
engine (``state.apply_move``), each viewer's view comes from the protocol
(``history_strings(seat)``, ``public_history_strings()``, the game's ``web_view``), and
records from :func:`stairgames.core.record.make_record`.

A match is its events replayed (:class:`Match.apply_event`): ``move`` (a move in full
notation, by a seat or by chance), ``undo``, ``takeback``/``takeback_answer``,
``resign`` (in a game of three or more seats with people left to play, the
resigning person leaves and a computer takes the seat: the event names its level),
``join``, ``rematch_ask``/``rematch_decline`` (a rematch is offered and made once every
person accepts) and ``rematch``. Dice and draws come from a generator seeded by the
match's seed and the move number, so they are the same after a restart and unknown to
players until the game ends (the seed is in the record only then).

The service methods are synchronous; the web layer calls them under one lock per match
and commits before it announces (:meth:`MatchService.commit`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from stairgames.agents.levels import LEVEL_NAMES
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.options import options_to_dict
from stairgames.core.record import FULL_VIEW, make_record, moves_in_view
from stairgames.core.registry import get_spec, load
from stairgames.i18n import N_, Names, Text, arguments_json, unicode_only
from stairgames.server.store import (
    EventConflictError,
    EventRecord,
    MatchRecord,
    SeatRecord,
    Store,
)

HUMAN, ONLINE, COMPUTER = "human", "online", "computer"
LEVELS = LEVEL_NAMES


class ServerError(StairgamesError):
    """A refused request: ``status`` is the HTTP status it answers with; the message id
    and arguments go to the client, which shows them in its language."""

    def __init__(self, status: int, message_id: str, **arguments: Any) -> None:
        super().__init__(message_id=message_id, arguments=arguments)
        self.status = status


def error_json(error: BaseException) -> dict[str, Any]:
    """``{"id", "message", "args"}`` of an error: ``message`` is the English for
    programmers, ``args`` the arguments as :func:`stairgames.i18n.text_json` gives them, so
    that the client translates nested texts (a colour, a list of names) too."""
    message_id = getattr(error, "message_id", None) or str(error)
    arguments = getattr(error, "arguments", {}) or {}
    return {
        "id": unicode_only(message_id),
        "message": unicode_only(str(error)),
        "args": arguments_json(arguments),
    }


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_id() -> str:
    return secrets.token_urlsafe(12)


@dataclasses.dataclass
class Seat:
    seat: int
    kind: str
    player: str | None
    token_hash: str | None


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
        self.state: State = self.game.new_initial_state()
        self.movers: list[int | None] = []
        """The seat that made each move of the state's history (``None``: chance)."""
        self.event = 0
        self._narrations: dict[tuple[str, ...], list[list[Any]]] = {}
        """:meth:`narration` by history: the few histories of the viewers of late events."""
        self.takeback: int | None = None
        self.resigned: int | None = None
        """The seat whose resignation ended the game."""
        self.left: list[int] = []
        """The seats whose people resigned and left, a computer playing on for them."""
        self.takeback_refused: int | None = None
        """The seat whose takeback was just refused (until the next event)."""
        self.rematch_asked: set[int] = set()
        """The seats that asked for (or accepted) a rematch."""
        self.rematch: str | None = None
        self._shared_board: tuple[int, dict[str, Any]] | None = None
        for event in record.events:
            self.apply_event(event)

    # ----- events -------------------------------------------------------------

    def apply_event(self, event: EventRecord) -> None:
        """Fold one committed event into the match (the events were checked before their
        commit, so this only replays them)."""
        if event.number != self.event + 1:
            raise ValueError(f"event {event.number} of {self.id} after {self.event}")
        kind, data = event.kind, event.data
        self.takeback_refused = None
        if kind == "move":
            self.state.apply_move(data["move"])
            self.movers.append(event.seat)
            self.takeback = None
        elif kind == "undo":
            self._take_back(int(data["count"]))
        elif kind == "takeback":
            self.takeback = event.seat
        elif kind == "takeback_answer":
            if data["accept"]:
                self._take_back(int(data["count"]))
            else:
                self.takeback_refused = self.takeback
            self.takeback = None
        elif kind == "resign" and data.get("player"):
            assert event.seat is not None
            seat = self.seats[event.seat]
            seat.kind, seat.player = COMPUTER, str(data["player"])
            self.left = [*self.left, event.seat]  # (a new list: a probe shares it)
        elif kind == "resign":
            self.resigned = event.seat
        elif kind == "rematch_ask":
            assert event.seat is not None
            self.rematch_asked = self.rematch_asked | self.seats_of_person(event.seat)
        elif kind == "rematch_decline":
            self.rematch_asked = set()
        elif kind == "join":
            self.seats[int(data["seat"])].token_hash = data["token_hash"]
        elif kind == "rematch":
            self.rematch = data["match"]
        else:
            raise ValueError(f"unknown event kind {kind!r}")
        self.event = event.number

    def _take_back(self, count: int) -> None:
        history = self.state.history()[: len(self.movers) - count]
        state = self.game.new_initial_state()
        for action in history:
            state.apply_action(action)
        self.state = state
        del self.movers[len(self.movers) - count :]

    # ----- questions ----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.state.is_terminal()

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
        :func:`stairgames.i18n.arguments_json` gives them (a colour is ``{"id": "red"}``)."""
        if self.resigned is not None:
            info = self.game.info()
            returns = [
                info.min_utility if seat.seat == self.resigned else info.max_utility
                for seat in self.seats
            ]
            name = self.state.seat_name(self.resigned)
            return {
                "returns": returns,
                "winners": [s.seat for s in self.seats if s.seat != self.resigned],
                "reason": f"{name} resigns",
                "reason_id": N_("{name} resigns"),
                "reason_args": arguments_json({"name": Text(name)}),
            }
        outcome = self.state.outcome()
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

    def board(self, viewer: int | None) -> dict[str, Any]:
        """The drawing data for ``viewer``: the game's ``web_view`` when it has one, else
        the position text (games without hidden information only)."""
        web_view = getattr(get_spec(self.game_name), "web_view", None)
        if web_view is not None:
            board: dict[str, Any] = web_view(self.state, viewer)
            return board
        if not self.game.info().hidden_information or self.state.is_terminal():
            return {"position": self.state.position()}
        return {}

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
    ) -> dict[str, Any]:
        """The match as ``viewer`` (a seat, or ``None`` for a spectator) may see it;
        ``computer_error``: why the computer to act gave no move (an error as
        :func:`error_json` gives it), if it failed at this event. A person who resigned
        and left watches as a spectator does."""
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
            "result": self.result(),
            "offer": {"by": offered_by} if offer is not None else None,
            "takeback": {"by": self.takeback} if self.takeback is not None else None,
            "thinking": thinking,
            "computer_error": computer_error,
            "rematch": self.rematch,
            "rematch_asked": sorted(self.rematch_asked),
            "left": list(self.left),
            "last_mover": self.movers[-1] if self.movers else None,
            "takeback_refused": (
                {"by": self.takeback_refused} if self.takeback_refused is not None else None
            ),
            "can_undo": self.undo_refusal(viewer) is None and self.undo_count() > 0,
            "can_takeback": self.takeback_refusal(viewer) is None,
        }

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
            cache[key] = narrate_moves(self.game, history)
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
        record = make_record(self.state, seed=self.seed, players=players, viewer=viewer)
        data: dict[str, Any] = json.loads(record.to_json())
        if self.resigned is not None:  # over, though the rules have not ended it: full
            result = self.result()
            assert result is not None
            data["result"] = result["reason"]
            data["returns"] = result["returns"]
            data["seed"] = self.seed
            data["moves"] = list(moves_in_view(self.state, FULL_VIEW))
            data["view"] = FULL_VIEW
        data["options"] = public_options(data["options"])
        return data

    def replay_frames(self, viewer: int | None) -> list[dict[str, Any]]:
        """Every position of a finished game, for stepping through it: the move that led
        there and the board (``viewer``'s drawing)."""
        if not self.over:
            raise ServerError(409, N_("a game can be replayed only once it is over"))
        state = self.game.new_initial_state()
        frames: list[dict[str, Any]] = [{"move": None, "board": _board_of(self, state, viewer)}]
        for action in self.state.history():
            move = state.action_to_string(action)
            state.apply_action(action)
            frames.append({"move": move, "board": _board_of(self, state, viewer)})
        return frames


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


def _board_of(match: Match, state: State, viewer: int | None) -> dict[str, Any]:
    saved = match.state
    match.state = state
    try:
        return match.board(viewer)
    finally:
        match.state = saved


def chance_seed(seed: int, move_number: int) -> str:
    """The seed of the generator that draws the chance outcome after ``move_number``
    moves (the same after a restart)."""
    return f"{seed}:{move_number}"


@dataclasses.dataclass(frozen=True)
class Created:
    match: Match
    tokens: dict[int, str]


class MatchService:
    """Creates matches, turns requests into checked events, commits them, and keeps the
    matches in memory (reloaded from the database on first use after a restart)."""

    def __init__(self, store: Store, computer_players: Sequence[str] = LEVEL_NAMES) -> None:
        self.store = store
        self.computer_players = tuple(p.strip().lower() for p in computer_players)
        """The players a computer seat may be given (``Settings.computer_players``)."""
        self._matches: dict[str, Match] = {}

    # ----- creating and finding ------------------------------------------------

    def create(self, game_name: str, options: dict[str, Any], seat_specs: Sequence[str]) -> Created:
        """A new match; ``seat_specs``: ``human``, ``online``, ``computer:LEVEL`` (or
        another of :attr:`computer_players`) for each seat.

        :raises StairgamesError: unknown game or option, wrong seat count, a player not
            offered or one that cannot play this game (nothing is created).
        """
        game = load(game_name, **options)
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
            kind, player = _parse_seat(spec, index, game, self.computer_players)
            token_hash = None
            if kind == HUMAN:
                tokens[index] = secrets.token_urlsafe(24)
                token_hash = hash_token(tokens[index])
            seats.append(SeatRecord(index, kind, player, token_hash))
        match_id = new_id()
        stored_options = options_to_dict(game.options)
        seed = secrets.randbits(62)
        self.store.create_match(match_id, game.name, stored_options, seed, seats)
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
        if len(match_id) > 64:
            raise ServerError(404, N_("no match {match!r}"), match=match_id[:64])
        record = self.store.load_match(match_id)
        if record is None:
            raise ServerError(404, N_("no match {match!r}"), match=match_id)
        match = self._matches[match_id] = Match(record)
        return match

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

    # ----- committing ----------------------------------------------------------

    def commit(
        self,
        match: Match,
        events: list[tuple[str, int | None, dict[str, Any]]],
        *,
        claim_seat: tuple[int, str] | None = None,
    ) -> None:
        """Number ``events``, commit them, then fold them into ``match``; a move that
        leads to chance nodes is followed by their outcomes, drawn from the match's
        generator, in the same commit.

        :raises ServerError: 409, another server process changed the match first (the
            match is reloaded; nothing of this request was written).
        """
        if match.game.info().chance:
            records = self._numbered_with_chance(match, events)
        else:
            records = [
                EventRecord(match.event + offset, kind, seat, data)
                for offset, (kind, seat, data) in enumerate(events, start=1)
            ]
        try:
            self.store.append_events(match.id, records, claim_seat=claim_seat)
        except EventConflictError as exc:
            self._matches.pop(match.id, None)
            raise ServerError(409, N_("the match changed meanwhile; try again")) from exc
        for record in records:
            match.apply_event(record)

    def _numbered_with_chance(
        self, match: Match, events: list[tuple[str, int | None, dict[str, Any]]]
    ) -> list[EventRecord]:
        probe = Match.__new__(Match)
        probe.__dict__.update(match.__dict__)
        probe.state = match.state.clone()
        probe.movers = list(match.movers)
        probe.seats = [dataclasses.replace(seat) for seat in match.seats]
        records: list[EventRecord] = []

        def add(kind: str, seat: int | None, data: dict[str, Any]) -> None:
            record = EventRecord(probe.event + 1, kind, seat, data)
            probe.apply_event(record)
            records.append(record)

        for kind, seat, data in events:
            add(kind, seat, data)
        while not probe.over and probe.state.is_chance_node():
            rng = random.Random(chance_seed(probe.seed, probe.state.move_number()))
            outcome = sample_chance_outcome(probe.state, rng)
            add("move", None, {"move": probe.state.action_to_string(outcome)})
        return records

    # ----- requests --------------------------------------------------------------

    def join(self, match: Match) -> tuple[int, str]:
        """Give the first free online seat to a new browser: (seat, token).

        :raises ServerError: 409 when no seat is free.
        """
        free = next((s for s in match.seats if s.kind == ONLINE and s.token_hash is None), None)
        if free is None or match.over:
            raise ServerError(409, N_("no seat is free in this match; you can watch"))
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        self.commit(
            match,
            [("join", free.seat, {"seat": free.seat, "token_hash": digest})],
            claim_seat=(free.seat, digest),
        )
        return free.seat, token

    def move(self, match: Match, seat: int | None, move: Any) -> None:
        """Play ``move`` (its notation) for ``seat``; the rules engine checks it.

        :raises ServerError / IllegalMoveError: not a seat, not its turn, game over,
            malformed or illegal move (nothing changes).
        """
        self._require_player(match, seat)
        if not isinstance(move, str) or not move or len(move) > 200:
            raise ServerError(400, N_("a move must be a short text in the game's notation"))
        if match.to_act() != seat:
            raise ServerError(409, N_("it is not your turn"))
        self._commit_move(match, seat, move)

    def computer_move(self, match: Match, seat: int, move: str) -> None:
        """Play the move a computer player chose for ``seat`` (checked like any move)."""
        if match.computer_to_act() is None or match.to_act() != seat:
            raise ServerError(409, N_("it is not your turn"))
        self._commit_move(match, seat, move)

    def _commit_move(self, match: Match, seat: int | None, move: str) -> None:
        """Commit ``move`` in full notation once the rules engine has found it legal."""
        action = match.state.string_to_action(move)  # IllegalMoveError with the engine's id
        self.commit(match, [("move", seat, {"move": match.state.action_to_string(action)})])

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

    def _replacement(self, match: Match, seat: int) -> str:
        """The computer player that takes over ``seat``: the table's computers' level, or
        ``medium``, or the first offered that can play the game."""
        table = [s.player for s in match.seats if s.kind == COMPUTER and s.player]
        for player in (*table, "medium", *self.computer_players):
            try:
                spec = f"{COMPUTER}:{player}"
                chosen = _parse_seat(spec, seat, match.game, self.computer_players)[1]
            except StairgamesError:
                continue
            return chosen or player
        raise ServerError(409, N_("no computer player can take this seat"))

    def rematch(self, match: Match, seat: int | None) -> Match | None:
        """Ask for (or accept) the next match with the same game and options, each person
        one seat on (the same tokens play it): made once every person has asked (then
        returned; ``None`` meanwhile); asked again once made, the same one.

        :raises ServerError: the game is not over, or a spectator asks.
        """
        self._require_player(match, seat)
        assert seat is not None
        if not match.over:
            raise ServerError(409, N_("a rematch can be asked once the game is over"))
        if match.rematch is not None:
            return self.get(match.rematch)
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
        )
        self.commit(match, [("rematch_ask", seat, {}), ("rematch", seat, {"match": new_match})])
        return self.get(new_match)

    def decline_rematch(self, match: Match, seat: int | None) -> None:
        """Decline the rematch others asked for (the offer is withdrawn for everyone)."""
        self._require_player(match, seat)
        if match.rematch is not None or not match.rematch_asked:
            raise ServerError(409, N_("there is no rematch offer to decline"))
        self.commit(match, [("rematch_decline", seat, {})])

    def _require_player(self, match: Match, seat: int | None) -> None:
        if seat is None:
            raise ServerError(403, N_("spectators cannot play; join a free seat to play"))
        if seat in match.left:
            raise ServerError(403, N_("you resigned this game; you can watch it"))


def _parse_seat(
    spec: Any, index: int, game: Game, players: Sequence[str]
) -> tuple[str, str | None]:
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
