"""Two ``stairgames bot`` processes play a whole game of each game against each other on
a real server (uvicorn on loopback), through the Bot API alone (issue 53; docs/bots.md):
one waits for challenges, the other challenges it; both stop once their game is over,
and the server's record of the game says it is over, with winners, not aborted. No
sleeps: the challenger starts once the other says it listens."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from stairgames.server.people.players import COOKIE
from tests.browser_helpers import serving
from tests.server_helpers import JSON, TEST_PLAYERS

ENTRY = "import sys; from stairgames.cli import main; sys.exit(main())"
GAME_SECONDS = 300.0
"""How long one whole game of two bot processes may take (a cold machine compiles)."""

GAMES: list[tuple[str, list[str], str]] = [
    ("stairs", ["--option", "size=4"], "random"),
    ("twenty_seven", [], "easy"),
    ("ishigaki_race", ["--option", "players=2"], "random"),
    ("city_of_stairs", ["--option", "players=2"], "random"),
]
"""Each game, the options of its challenge, and the player the challenged bot plays as
(the challenger plays ``random``)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    folder = tmp_path_factory.mktemp("bots")
    settings = Settings(
        data_dir=folder,
        computer_workers=0,
        computer_players=TEST_PLAYERS,
        static_dir=folder / "no-static",
        loop_guard=True,
    )
    app = create_app(settings)
    with serving(app, settings) as url:
        yield app, url


def bot_token(app: Any, url: str, name: str) -> str:
    """A new account called ``name``, its API token (``bot:play``), and it made a bot."""
    players = app.state.players
    made, secret = players.create(name)
    players.add_password(made, "a long password")
    cookie = {**JSON, "cookie": f"{COOKIE}={secret}"}
    reply = httpx.post(
        f"{url}/api/account/tokens",
        json={"description": "bot", "scopes": ["bot:play"]},
        headers=cookie,
    )
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["token"]
    upgraded = httpx.post(
        f"{url}/api/bot/account/upgrade",
        json={},
        headers={**JSON, "authorization": f"Bearer {token}"},
    )
    assert upgraded.status_code == 200, upgraded.text
    return token


def bot(url: str, token: str, *arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            ENTRY,
            "--lang",
            "en",
            "bot",
            "--server",
            url,
            "--token",
            token,
            "--games",
            "1",
            "--seed",
            "7",
            *arguments,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> str:
    try:
        out, _ = process.communicate(timeout=GAME_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
        raise AssertionError(f"the bot did not finish its game:\n{out}") from None
    assert process.returncode == 0, out
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "player"), GAMES, ids=[g[0] for g in GAMES])
def test_two_bot_processes_play_a_whole_game(
    site: tuple[Any, str], game: str, options: list[str], player: str
) -> None:
    app, url = site
    host, guest = f"Host_{game[:10]}", f"Guest_{game[:10]}"
    waiting = bot(url, bot_token(app, url, host), "--player", player, "--accept", "direct")
    try:
        assert waiting.stdout is not None
        heard = waiting.stdout.readline()
        assert "listening" in heard, heard
        challenger = bot(
            url,
            bot_token(app, url, guest),
            "--player",
            "random",
            "--challenge",
            host,
            "--game",
            game,
            *options,
        )
        said = finish(challenger)
        said += finish(waiting)
    finally:
        for process in (waiting,):
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert "is over" in said, said
    guest_player = app.state.players.by_name(guest)
    (row,) = app.state.lobby.store.matches_of(guest_player.id)
    assert row.game == game
    assert row.summary["over"], row.summary
    result = row.summary["result"]
    assert result["winners"] is not None and not result.get("aborted"), result
