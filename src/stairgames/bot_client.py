"""``stairgames bot``: any of this project's computer players as an outside bot of a
stairgames server, over its Bot API (docs/bots.md), as any other program would play.

The bot reads its event stream (``GET /api/stream/event``): it accepts the direct
challenges it is sent (``--accept direct``; ``none`` declines them; ``any`` asks for
the open lobby challenges it may take too, ``?lobby=true``, and accepts them as well),
and plays each game
that starts in a thread of its own, which reads the game's stream and posts a move
whenever its seat is to act. Its state is rebuilt from its seat's view alone: the moves
as the seat knows them, each hidden one (another seat's deal) replayed by a stand-in
consistent with the rest (:func:`stairgames.core.record.final_state`), so the player
searches what the seat may know and nothing more. No server code is imported.
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.record import FULL_VIEW, GameRecord, final_state
from stairgames.i18n import N_, Text, _, localize

ACCEPT_CHOICES: Final = ("direct", "any", "none")
READ_SECONDS: Final = 60.0
"""How long a stream may stay silent (the server sends an empty line every 7 s)."""


class BotError(StairgamesError):
    """The server refused the bot, or could not be reached."""


Chooser = Callable[[State, int, random.Random], int]
"""Chooses the action for a seat in a state (a determinisation of the seat's view)."""


def agent_chooser(player: str, seed: int | None = None) -> Chooser:
    """A :data:`Chooser` playing as the computer player ``player`` (``hard``, ``mcts``...):
    one agent per game and seat, made when first asked."""
    from stairgames.agents.base import make_agent  # the players load only when asked

    agents: dict[tuple[str, str, int], Any] = {}
    lock = threading.Lock()

    def choose(state: State, seat: int, rng: random.Random) -> int:
        game = state.get_game()
        key = (type(game).__name__, repr(getattr(game, "options", None)), seat)
        with lock:
            agent = agents.get(key)
            if agent is None:
                agent = agents[key] = make_agent(player, seat, seed, game=game)
        agent.rng.seed(rng.randrange(1 << 62))
        action: int = agent.act(state)
        return action

    return choose


def seat_state(view: dict[str, Any], rng: random.Random) -> State:
    """The state of a game as its seat's ``view`` (a game stream's) knows it: its moves
    replayed, each hidden one by a stand-in drawn from ``rng``."""
    options = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in view["options"].items()
    }
    seat = view["you"]
    redacted = view["history"] != [] and seat is not None
    record = GameRecord(
        game=view["game"],
        options=options,
        moves=tuple(view["history"]),
        view=seat if redacted else FULL_VIEW,
    )
    try:
        return final_state(record, rng=rng)
    except StairgamesError:  # nothing hidden after all: the moves replay as they are
        return final_state(
            GameRecord(game=view["game"], options=options, moves=tuple(view["history"])),
            rng=rng,
        )


class Bot:
    """One bot on one server: its event stream, and a thread per game."""

    def __init__(
        self,
        server: str,
        token: str,
        choose: Chooser,
        *,
        accept: str = "direct",
        games: int | None = None,
        seed: int | None = None,
        say: Callable[[str], None] = print,
        client: Callable[..., Any] | None = None,
    ) -> None:
        import httpx

        self.server = server.rstrip("/")
        self.headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
        self.choose = choose
        self.accept = accept
        self.games = games
        self.rng = random.Random(seed)
        self.say = say
        self._client = client or (
            lambda: httpx.Client(
                base_url=self.server,
                headers=self.headers,
                timeout=httpx.Timeout(30.0, read=READ_SECONDS),
            )
        )
        self.finished = 0
        self.failures: list[str] = []
        self._playing: dict[str, threading.Thread] = {}

    # ----- requests ---------------------------------------------------------------------

    def post(self, http: Any, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST ``body`` to ``path``; the answer.

        :raises BotError: the server refused it (its code and message).
        """
        reply = http.post(path, json=body or {})
        if reply.status_code != 200:
            raise _refusal(reply.status_code, reply.text)
        answer: dict[str, Any] = reply.json()
        return answer

    def lines(
        self, http: Any, path: str, opened: Callable[[], None] | None = None
    ) -> Iterator[dict[str, Any]]:
        """The JSON lines of the stream at ``path`` (keep-alive lines passed over);
        ``opened()`` is called once the server has answered."""
        with http.stream("GET", path) as response:
            if response.status_code != 200:
                raise _refusal(response.status_code, response.read().decode(errors="replace"))
            if opened is not None:
                opened()
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def challenge(self, http: Any, to: str, game: str, options: dict[str, Any]) -> str:
        """Challenge the player ``to`` to ``game``; the challenge's id."""
        body = {"game": game, "options": options, "seats": ["human", "online"], "to": to}
        made = self.post(http, "/api/challenges", body)
        challenge: str = made["challenge"]
        return challenge

    # ----- the event stream ---------------------------------------------------------------

    def run(self, challenge: tuple[str, str, dict[str, Any]] | None = None) -> int:
        """Read the event stream until :attr:`games` games have finished (for ever if
        ``None``); ``challenge``: (player, game, options) to challenge first (its game
        is named when the stream opens, if it started before). 0 if every game was
        played through, else 1."""
        with self._client() as http:
            if challenge is not None:
                made = self.challenge(http, *challenge)
                said = Text(N_("challenged {name}: {id}"), {"name": challenge[0], "id": made})
                self.say(localize(said))
            opened = Text(N_("listening for challenges and games"))
            path = "/api/stream/event" + ("?lobby=true" if self.accept == "any" else "")
            for event in self.lines(http, path, lambda: self.say(localize(opened))):
                self._event(http, event)
                if self.games is not None and self.finished >= self.games:
                    break
        for thread in list(self._playing.values()):
            thread.join()
        return 1 if self.failures else 0

    def _event(self, http: Any, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            challenge = event["challenge"]["challenge"]
            if event["challenge"].get("lobby"):  # open to all: sent only when asked for
                if self.accept == "any":
                    try:
                        self.post(http, f"/api/bot/challenge/{challenge}/accept")
                    except BotError as exc:  # taken by another first, say: not ours
                        self.say(str(exc))
            elif self.accept in ("direct", "any"):
                self.post(http, f"/api/bot/challenge/{challenge}/accept")
            else:
                self.post(http, f"/api/bot/challenge/{challenge}/decline")
        elif kind == "gameStart":
            game = event["game"]
            if game["id"] not in self._playing:
                thread = threading.Thread(
                    target=self._play_guarded, args=(game["id"], self.rng.randrange(1 << 62))
                )
                self._playing[game["id"]] = thread
                thread.start()
        elif kind == "gameFinish":
            self.finished += 1
            playing = self._playing.get(event["game"]["id"])
            if playing is not None:
                playing.join()

    # ----- a game ---------------------------------------------------------------------------

    def _play_guarded(self, match: str, seed: int) -> None:
        try:
            self.play(match, random.Random(seed))
        except Exception as exc:  # told, and the bot goes on with its other games
            self.failures.append(f"{match}: {exc}")
            self.say(
                localize(Text(N_("game {id} failed: {error}"), {"id": match, "error": str(exc)}))
            )

    def play(self, match: str, rng: random.Random) -> dict[str, Any] | None:
        """Play the bot's seat of ``match`` until it ends; its result."""
        with self._client() as http:
            moved_at = -1
            for line in self.lines(http, f"/api/bot/game/stream/{match}"):
                view = line["view"]
                if view["result"] is not None:
                    self.say(localize(Text(N_("game {id} is over"), {"id": match})))
                    result: dict[str, Any] = view["result"]
                    return result
                takeback = view.get("takeback")
                if takeback is not None and takeback["by"] != view["you"]:
                    self.post(http, f"/api/bot/game/{match}/answer", {"accept": False})
                if view["to_act"] != view["you"] or not view["legal"] or view["event"] <= moved_at:
                    continue
                state = seat_state(view, rng)
                action = self.choose(state, view["you"], rng)
                move = state.action_to_string(action)
                moved_at = view["event"]
                try:
                    self.post(
                        http, f"/api/bot/game/{match}/move/{urllib.parse.quote(move, safe='')}"
                    )
                except BotError as exc:
                    if exc.arguments.get("status") != 409:  # stale: the next view says why
                        raise
        return None


def _refusal(status: int, text: str) -> BotError:
    try:
        error = json.loads(text)["error"]
        said = f"{error['code']}: {error['message']}"
    except (ValueError, KeyError, TypeError):
        said = text[:200]
    return BotError(
        message_id=N_("the server refused ({status}): {said}"),
        arguments={"status": status, "said": said},
    )


def bot_command(argv: Sequence[str]) -> int:
    """``stairgames bot --server URL --token T --player LEVEL [--accept direct|any|none]
    [--games N] [--challenge NAME --game GAME --option K=V]``."""
    from stairgames.argparse_i18n import HelpFormatter

    parser = argparse.ArgumentParser(
        prog="stairgames bot",
        description=_(
            "Play on a stairgames server as a bot: one of this project's computer players "
            "answers challenges and plays its games over the Bot API."
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--server", required=True, metavar="URL", help=_("the server's address"))
    parser.add_argument(
        "--token", required=True, metavar="TOKEN", help=_("the bot's API token (bot:play)")
    )
    parser.add_argument(
        "--player", default="medium", metavar="PLAYER", help=_("the computer player to play as")
    )
    parser.add_argument(
        "--accept",
        choices=ACCEPT_CHOICES,
        default="direct",
        help=_(
            "accept the challenges sent to the bot (direct), those and the lobby's open "
            "challenges it may take (any), or decline them (none)"
        ),
    )
    parser.add_argument("--games", type=int, metavar="N", help=_("stop after N games"))
    parser.add_argument("--challenge", metavar="NAME", help=_("challenge this player first"))
    parser.add_argument("--game", metavar="GAME", help=_("the game of the challenge"))
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help=_("game option NAME=VALUE")
    )
    parser.add_argument("--seed", type=int, help=_("seed of the player's choices"))
    args = parser.parse_args(argv)
    challenge = None
    if args.challenge is not None:
        if args.game is None:
            parser.error(_("--challenge needs --game"))
        options: dict[str, Any] = {}
        for item in args.option or []:
            key, sep, value = item.partition("=")
            if not sep:
                parser.error(_("--option expects NAME=VALUE, got {text!r}").format(text=item))
            options[key.strip()] = _option_value(value.strip())
        challenge = (args.challenge, args.game, options)
    bot = Bot(
        args.server,
        args.token,
        agent_chooser(args.player, args.seed),
        accept=args.accept,
        games=args.games,
        seed=args.seed,
        say=lambda text: print(text, flush=True),
    )
    return bot.run(challenge)  # a refusal: told by the command line (cli.py)


def _option_value(text: str) -> Any:
    """An option's value as JSON says it (a number, true/false), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text
