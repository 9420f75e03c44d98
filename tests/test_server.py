"""The web server: HTTP API and WebSocket, bad inputs, restarts (SQLite)."""

from __future__ import annotations

import contextlib
import json
import random
import re
import select
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core import registry
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.record import GameRecord, final_state
from stairgames.core.registry import get_spec
from stairgames.i18n import localize, set_language
from stairgames.server.base.store import EventRecord, MatchRecord, SeatRecord
from stairgames.server.ops import pages
from stairgames.server.ops.pages import catalog_messages
from stairgames.server.play import computer
from stairgames.server.play.matches import Match, chance_seed
from tests.server_helpers import (
    JSON,
    connect,
    error_reply,
    new_match,
    receive_until,
    running,
    seat_get,
    state_at_rest,
    token_of,
)
from tests.test_i18n import said_like_the_browser

NOT_OFFERED = "unknown_level"
BAD_SEAT = "bad_seat"
NO_EVENT = "event_missing"
BAD_MOVE_TEXT = "bad_move_text"
STALE = "stale"
BAD_ACCEPT = "bad_accept"


def first_legal(view: dict[str, Any]) -> str:
    return str(view["legal"][0])


# ----- the API ---------------------------------------------------------------------


def test_the_games_listing_is_made_once_for_the_games_registered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tictactoe: registry.GameSpec
) -> None:
    """Making it loads every game (over a millisecond): made once, in a thread, and again
    only when the registered games change."""
    made: list[int] = []
    real = pages.games_listing

    def counted() -> list[dict[str, Any]]:
        made.append(1)
        return real()

    monkeypatch.setattr(pages, "games_listing", counted)
    with running(tmp_path) as client:
        first = client.get("/api/games").json()
        again = client.get("/api/games").json()
        registry.unregister("tictactoe")
        without = client.get("/api/games").json()
        registry.register(tictactoe)
    assert first == again and len(made) == 2
    assert [g["name"] for g in without] == [g["name"] for g in first][:-1]


def test_games_listing_has_stairs_and_27_with_options_and_levels(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["stairs"]["seat_names"] == ["light", "dark"]
    assert {o["name"] for o in games["stairs"]["options"]} == {"pie_rule", "agreement", "size"}
    size = next(o for o in games["stairs"]["options"] if o["name"] == "size")
    assert (size["type"], size["default"]) == ("int", 6)
    variant = next(o for o in games["twenty_seven"]["options"] if o["name"] == "variant")
    assert variant["choices"] == ["basic", "advanced", "expert"]
    assert games["twenty_seven"]["levels"] == ["easy", "medium", "hard", "expert"]


def test_i18n_serves_the_japanese_catalog_and_english_as_identity(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ja = client.get("/api/i18n/ja").json()
        en = client.get("/api/i18n/en").json()
        unknown = client.get("/api/i18n/xx")
    assert (
        ja["lang"] == "ja" and ja["messages"]["it is not your turn"] == "あなたの手番ではありません"
    )
    assert en == {"lang": "en", "messages": {}}
    assert unknown.status_code == 404


def test_the_app_starts_without_the_static_folder_and_serves_it_when_there(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        assert client.get("/").status_code == 404
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<html>stairgames</html>")
    (static / "app.js").write_text("export {};")
    with running(tmp_path, static_dir=static) as client:
        assert "stairgames" in client.get("/").text
        assert "stairgames" in client.get("/m/abc").text
        assert client.get("/static/app.js").text == "export {};"


def test_a_new_match_gives_tokens_for_this_screens_seats_only(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"], pie_rule=True)
        view = client.get(f"/api/matches/{created['match']}").json()
    assert [s["seat"] for s in created["seats"]] == [0]
    assert created["invite"] == f"/m/{created['match']}"
    assert view["options"] == {"pie_rule": True, "agreement": True, "size": 6}
    assert view["you"] is None and view["legal"] == [] and view["event"] == 0
    draw = get_spec("stairs").web_view
    assert draw is not None  # the game's own drawing data (games/stairs/view/board.py)
    assert view["board"] == draw(stairgames.load("stairs").new_initial_state(), None)


def test_a_stairs_match_on_a_4x4_board_draws_16_squares(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"], size=4)
        view = client.get(f"/api/matches/{created['match']}").json()
        refused = client.post(
            "/api/matches",
            json={"game": "stairs", "options": {"size": 9}, "seats": ["human", "human"]},
        )
    assert view["options"]["size"] == 4
    assert view["board"]["size"] == 4 and len(view["board"]["squares"]) == 16
    assert refused.status_code == 400


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess", "seats": ["human", "human"]}, 400, "invalid_option"),
        ({"game": "stairs", "seats": ["human"]}, 400, "seat_count"),
        ({"game": "stairs", "seats": ["human", "wizard"]}, 400, NOT_OFFERED),
        ({"game": "stairs", "seats": ["human", 7]}, 400, BAD_SEAT),
        ({"game": "stairs", "options": {"pie": True}, "seats": ["human", "human"]}, 400, None),
        ({"game": "stairs"}, 400, "bad_seats"),
        ([1, 2], 400, "malformed_body"),
    ],
)
def test_bad_match_requests_are_refused_with_their_code(
    tmp_path: Path, body: Any, status: int, code: str | None
) -> None:
    with running(tmp_path) as client:
        response = client.post("/api/matches", json=body)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["message"]
    if code is not None:
        assert error["code"] == code


def test_oversized_and_malformed_bodies_are_refused(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        huge = client.post(
            "/api/matches",
            content=json.dumps({"game": "stairs", "pad": "x" * 10_000}),
            headers=JSON,
        )
        broken = client.post("/api/matches", content=b"{not json", headers=JSON)
    assert huge.status_code == 413
    assert huge.json()["error"]["code"] == "body_too_large"
    assert broken.status_code == 400


def test_unknown_match_and_wrong_token_are_refused(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"])
        match = created["match"]
        assert client.get("/api/matches/nope").status_code == 404
        assert seat_get(client, f"/api/matches/{match}?token=forged").status_code == 403
        assert seat_get(client, f"/api/matches/{match}/record?token=forged").status_code == 403
        with connect(client, f"/ws/matches/{match}?token=forged") as ws:
            assert ws.receive_json()["error"]["code"] == "not_seated"
        with connect(client, "/ws/matches/nope") as ws:
            assert ws.receive_json()["error"]["code"] == "match_not_found"


# ----- playing -----------------------------------------------------------------------


def test_against_the_computer_the_reply_arrives_over_the_websocket(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "computer:random"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = state_at_rest(ws)
            assert view["you"] == 0 and view["to_act"] == 0 and view["legal"]
            move = first_legal(view)
            ws.send_json({"type": "move", "move": move, "event": view["event"]})
            after = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
    assert after["history"][0] == move and len(after["history"]) == 2
    assert after["to_act"] == 0 and after["seats"][1]["kind"] == "computer"
    assert after["seats"][1]["level"] == "random"


def test_online_moves_reach_the_opponent_and_spectators_see_the_public_view(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        match = created["match"]
        joined = client.post(f"/api/matches/{match}/join", headers=JSON).json()
        assert joined["seat"] == 1
        full = client.post(f"/api/matches/{match}/join", headers=JSON)
        assert full.status_code == 409
        assert full.json()["error"]["code"] == "match_full"
        with (
            connect(client, f"/ws/matches/{match}?token={token_of(created, 0)}") as light,
            connect(client, f"/ws/matches/{match}?token={joined['token']}") as dark,
            connect(client, f"/ws/matches/{match}") as watcher,
        ):
            view = state_at_rest(light)
            light.send_json({"type": "move", "move": first_legal(view), "event": view["event"]})
            seen = receive_until(dark, lambda m: m["type"] == "state" and m["history"])
            watched = receive_until(watcher, lambda m: m["type"] == "state" and m["history"])
            assert seen["you"] == 1 and seen["to_act"] == 1 and seen["legal"]
            assert watched["you"] is None and watched["legal"] == []
            assert seen["seats"][0]["connected"] and seen["seats"][1]["connected"]
            # nobody can move for another seat
            light.send_json({"type": "move", "move": seen["legal"][0], "event": seen["event"]})
            assert error_reply(light)["error"]["code"] == "not_your_turn"
            watcher.send_json({"type": "move", "move": seen["legal"][0], "event": seen["event"]})
            assert error_reply(watcher)["error"]["code"] == "spectator"
        # the opponent sees when someone has left
        with connect(client, f"/ws/matches/{match}?token={joined['token']}") as dark:
            left = receive_until(dark, lambda m: m["type"] == "state")
            assert left["seats"][1]["connected"] and not left["seats"][0]["connected"]


def test_bad_websocket_messages_get_errors_and_change_nothing(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"])
        match = created["match"]
        with connect(client, f"/ws/matches/{match}?token={token_of(created, 0)}") as ws:
            view = state_at_rest(ws)
            bad: list[tuple[str, str | None]] = [
                ("{not json", "malformed_body"),
                ("[1]", "malformed_body"),
                (json.dumps({"type": "fly"}), "unknown_request_type"),
                (json.dumps({"type": "move", "move": "a1-a2"}), NO_EVENT),
                (json.dumps({"type": "move", "move": "z9-z8", "event": 0}), None),
                (json.dumps({"type": "move", "move": "c3-d4", "event": 0}), None),
                (json.dumps({"type": "move", "move": 5, "event": 0}), BAD_MOVE_TEXT),
                (json.dumps({"type": "move", "move": "b1-b2", "event": 7}), STALE),
                (json.dumps({"type": "takeback_answer", "accept": "yes"}), BAD_ACCEPT),
                ("x" * 5000, "body_too_large"),
            ]
            for text, message_id in bad:
                ws.send_text(text)
                error = error_reply(ws)
                assert error["event"] == 0
                if message_id is not None:
                    assert error["error"]["code"] == message_id, text
                else:  # the engine's own message id
                    assert error["error"]["code"] == "illegal_move", text
                    assert "{" in error["error"]["id"] and error["error"]["args"]
            # a move replayed from an old event is refused
            ws.send_json({"type": "move", "move": "b1-b2", "event": 0})
            moved = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 1)
            ws.send_json({"type": "move", "move": "b1-b2", "event": 0})
            assert error_reply(ws)["error"]["code"] == STALE
        after = client.get(f"/api/matches/{match}").json()
    assert after["history"] == ["b1-b2"] == moved["history"] and after["event"] == 1
    assert view["history"] == []


def test_one_connection_is_rate_limited(tmp_path: Path) -> None:
    with running(tmp_path, messages_per_second=0.5, message_burst=3) as client:
        created = new_match(client, "stairs", ["human", "human"])
        with connect(client, f"/ws/matches/{created['match']}?token={token_of(created, 0)}") as ws:
            state_at_rest(ws)
            for _ in range(6):
                ws.send_json({"type": "sync"})
            replies = [ws.receive_json() for _ in range(6)]
    refused = [r for r in replies if r["type"] == "error"]
    assert len(refused) == 3
    assert refused[0]["error"]["code"] == "too_many_messages"


def test_undo_at_one_screen_takes_back_one_move_and_against_the_computer_two(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"])
        with connect(client, f"/ws/matches/{created['match']}?token={token_of(created, 0)}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "undo", "event": 0})
            assert error_reply(ws)["error"]["code"] == "nothing_to_take_back"
            ws.send_json({"type": "move", "move": first_legal(view), "event": 0})
            ws.send_json({"type": "undo", "event": 1})
            undone = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
            assert undone["history"] == [] and undone["to_act"] == 0
        computer_match = new_match(client, "stairs", ["human", "computer:random"])
        with connect(
            client, f"/ws/matches/{computer_match['match']}?token={token_of(computer_match, 0)}"
        ) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": first_legal(view), "event": 0})
            replied = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
            ws.send_json({"type": "undo", "event": replied["event"]})
            undone = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 3)
            assert undone["history"] == [] and undone["to_act"] == 0


def test_online_takeback_needs_the_opponents_consent(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        match = created["match"]
        joined = client.post(f"/api/matches/{match}/join", headers=JSON).json()
        with (
            connect(client, f"/ws/matches/{match}?token={token_of(created, 0)}") as light,
            connect(client, f"/ws/matches/{match}?token={joined['token']}") as dark,
        ):
            view = state_at_rest(light)
            light.send_json({"type": "move", "move": first_legal(view), "event": view["event"]})
            moved = receive_until(light, lambda m: m["type"] == "state" and m["history"])
            light.send_json({"type": "undo", "event": moved["event"]})
            assert error_reply(light)["error"]["code"] == "ask_takeback"
            light.send_json({"type": "takeback", "event": moved["event"]})
            asked = receive_until(dark, lambda m: m["type"] == "state" and m["takeback"])
            assert asked["takeback"] == {"by": 0}
            light.send_json({"type": "takeback_answer", "accept": True})
            assert error_reply(light)["error"]["code"] == "no_takeback_asked"
            dark.send_json({"type": "takeback_answer", "accept": False, "event": asked["event"]})
            declined = receive_until(light, lambda m: m["type"] == "state" and not m["takeback"])
            assert declined["history"] == moved["history"]
            assert declined["takeback_outcome"] == {"by": 0, "outcome": "refused"}
            light.send_json({"type": "takeback", "event": declined["event"]})
            asked = receive_until(dark, lambda m: m["type"] == "state" and m["takeback"])
            dark.send_json({"type": "takeback_answer", "accept": True, "event": asked["event"]})
            taken = receive_until(
                light, lambda m: m["type"] == "state" and m["event"] > asked["event"]
            )
    assert taken["history"] == [] and taken["to_act"] == 0 and taken["takeback"] is None
    assert taken["takeback_outcome"] == {"by": 0, "outcome": "accepted"}


def test_resign_gives_the_result_the_record_the_replay_and_a_rematch(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"])
        match = created["match"]
        light, dark = token_of(created, 0), token_of(created, 1)
        with connect(client, f"/ws/matches/{match}?token={dark}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "rematch"})
            assert error_reply(ws)["error"]["code"] == "rematch_too_early"
            ws.send_json({"type": "resign", "event": view["event"]})
            over = receive_until(ws, lambda m: m["type"] == "state" and m["result"])
            ws.send_json({"type": "resign", "event": over["event"]})
            assert error_reply(ws)["error"]["code"] == "game_over"
            ws.send_json({"type": "rematch"})
            rematched = receive_until(ws, lambda m: m["type"] == "state" and m["rematch"])
        record = seat_get(client, f"/api/matches/{match}/record?token={light}").json()
        frames = client.get(f"/api/matches/{match}/replay").json()["frames"]
        again = rematched["rematch"]
        # the same people play the rematch with the same tokens, one seat on
        assert seat_get(client, f"/api/matches/{again}?token={light}").json()["you"] == 1
        assert seat_get(client, f"/api/matches/{again}?token={dark}").json()["you"] == 0
    assert over["result"]["returns"] == [1.0, -1.0] and over["result"]["winners"] == [0]
    assert over["result"]["reason_id"] == "{name} resigns"
    assert over["to_act"] is None and over["legal"] == []
    assert record["game"] == "stairs" and record["result"] == "dark resigns"
    assert record["view"] == "full" and record["seed"] is not None
    assert len(frames) == 1 and frames[0]["move"] is None


def test_record_of_an_unfinished_game_with_dice_hides_the_seed(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "ishigaki_race", ["human", "human"])
        match = created["match"]
        view = seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").json()
        record = client.get(f"/api/matches/{match}/record").json()
        replay = client.get(f"/api/matches/{match}/replay")
    assert view["history"], "the first roll is drawn by the server at once"
    assert record["seed"] is None and "seed" not in json.dumps(view)
    # stepping back during the game: the positions so far, and no seed among them
    assert replay.status_code == 200 and replay.json()["over"] is False
    assert [frame["move"] for frame in replay.json()["frames"][1:]] == record["moves"]
    assert "seed" not in replay.text


def test_a_hidden_card_game_sends_each_seat_only_its_own_view(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "city_of_stairs", ["human", "human"])
        match = created["match"]
        red = seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").json()
        blue = seat_get(client, f"/api/matches/{match}?token={token_of(created, 1)}").json()
        public = client.get(f"/api/matches/{match}").json()
        record = seat_get(
            client, f"/api/matches/{match}/record?token={token_of(created, 1)}"
        ).json()
    assert red["history"] != blue["history"]
    assert all("?" in move for move in public["history"] if move.startswith("deal"))
    assert record["view"] == 1 and record["moves"] == blue["history"]
    # the web view (games/city_of_stairs/view/board.py): a departure card only for its owner
    assert [s["departure"] is None for s in public["board"]["seats"]] == [True, True]
    assert [s["departure"] is None for s in red["board"]["seats"]] == [False, True]
    assert [s["departure"] is None for s in blue["board"]["seats"]] == [True, False]


# ----- restarts --------------------------------------------------------------------


def test_a_server_restart_in_the_middle_of_a_game_loses_nothing(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "twenty_seven", ["human", "online"], variant="advanced")
        match = created["match"]
        joined = client.post(f"/api/matches/{match}/join", headers=JSON).json()
        with connect(client, f"/ws/matches/{match}?token={token_of(created, 0)}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": first_legal(view), "event": view["event"]})
            before = receive_until(ws, lambda m: m["type"] == "state" and m["history"])
    with running(tmp_path) as client:  # a new server process on the same database
        after = seat_get(client, f"/api/matches/{match}?token={joined['token']}").json()
        assert after["history"] == before["history"] and after["event"] == before["event"]
        with connect(client, f"/ws/matches/{match}?token={joined['token']}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": first_legal(view), "event": view["event"]})
            later = receive_until(ws, lambda m: m["type"] == "state" and len(m["history"]) == 2)
    assert later["to_act"] == 0 and later["options"]["variant"] == "advanced"


def test_dice_drawn_before_a_restart_replay_the_same_after_it(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "ishigaki_race", ["human", "human"])
        match = created["match"]
        before = client.get(f"/api/matches/{match}").json()
    with running(tmp_path) as client:
        after = client.get(f"/api/matches/{match}").json()
    assert after["history"] == before["history"] and after["board"] == before["board"]


def test_a_computer_interrupted_by_a_restart_thinks_again_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def stuck(*args: Any) -> str:
        release.wait(10)
        raise RuntimeError("the server stopped while this computer was thinking")

    monkeypatch.setattr(computer, "choose_move", stuck)
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["computer:random", "human"])
        match = created["match"]
        thinking = client.get(f"/api/matches/{match}").json()
        assert thinking["thinking"] and thinking["to_act"] == 0
    release.set()
    monkeypatch.undo()
    with running(tmp_path) as client:
        url = f"/ws/matches/{match}?token={token_of(created, 1)}"
        with connect(client, url) as ws:
            moved = receive_until(ws, lambda m: m["type"] == "state" and m["history"])
    assert moved["to_act"] == 1 and len(moved["history"]) == 1 and not moved["thinking"]


def test_computer_players_think_in_a_process_pool(tmp_path: Path) -> None:
    with running(tmp_path, computer_workers=1) as client:
        created = new_match(client, "twenty_seven", ["computer:easy", "human"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 1)}"
        with connect(client, url) as ws:
            moved = receive_until(ws, lambda m: m["type"] == "state" and m["history"], 20)
    assert moved["to_act"] == 1 and moved["legal"]


def test_two_writers_on_one_database_cannot_both_write_the_same_event(tmp_path: Path) -> None:
    from stairgames.server.base.store import Store, make_engine
    from stairgames.server.migrations import upgrade
    from stairgames.server.play.matches import MatchService, ServerError

    engine = make_engine(f"sqlite:///{tmp_path / 'shared.db'}")
    upgrade(engine)
    first, second = MatchService(Store(engine)), MatchService(Store(engine))
    created = first.create("stairs", {}, ["human", "human"])
    stale = second.get(created.match.id)
    first.move(created.match, 0, "b1-b2")
    with pytest.raises(ServerError) as refused:
        second.move(stale, 0, "b1-c2")
    assert refused.value.status == 409 and refused.value.code == "match_changed"
    assert second.get(created.match.id).state.history_strings() == ["b1-b2"]
    engine.dispose()


def test_the_quick_start_up_check_knows_alembics_newest_revision(tmp_path: Path) -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from stairgames.server.base.store import make_engine
    from stairgames.server.migrations import HEAD, MIGRATIONS_DIR, current_revision, upgrade

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD
    engine = make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    assert current_revision(engine) is None
    upgrade(engine)
    assert current_revision(engine) == HEAD
    engine.dispose()


def test_serve_reads_postgresql_urls_with_psycopg_3() -> None:
    from stairgames.server.serve import with_driver

    assert with_driver("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert with_driver("sqlite:///x.db") == "sqlite:///x.db" and with_driver(None) is None


@pytest.mark.slow
def test_stairgames_serve_answers_on_sqlite_in_its_data_folder(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    entry = "import sys; from stairgames.cli import main; sys.exit(main())"
    server = subprocess.Popen(
        [sys.executable, "-c", entry, "serve", "--port", str(port), "--data-dir", "here"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
    )
    try:
        assert server.stdout is not None
        # it says where to open once it listens (the guard only turns a hang into a failure)
        ready, _, _ = select.select([server.stdout], [], [], 120)
        assert ready, "stairgames serve said nothing in 120 s"
        line = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/".encode() in line, line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as reply:
            games = json.loads(reply.read())
    finally:
        server.terminate()
        server.wait(10)
    assert "stairs" in {g["name"] for g in games}
    assert (tmp_path / "here" / "stairgames.db").is_file()


def test_the_computer_answers_an_offer_to_end_by_agreement_and_declines_a_loss(
    tmp_path: Path,
) -> None:
    """Stairs S7 online: an offer is an ordinary move; the computer answers through
    Agent.act, declining a result it is not proven to deserve."""
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "computer:random"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": "d3-c4", "event": view["event"]})
            after = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
            assert "offer" in after["legal"]
            ws.send_json({"type": "move", "move": "offer", "event": after["event"]})
            answered = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 4)
    assert answered["history"][-2:] == ["offer", "decline"]
    assert answered["to_act"] == 0 and answered["result"] is None


def test_idle_matches_leave_memory_and_come_back_from_the_database(tmp_path: Path) -> None:
    """The in-memory matches and their locks are bounded: a sweep forgets those nobody
    watches or used for the idle time, never a watched one, and a forgotten match loads
    again from the database as it was."""
    with running(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        idle = [new_match(client, "stairs", ["human", "human"])["match"] for _ in range(3)]
        created = new_match(client, "stairs", ["human", "online"])
        watched = created["match"]
        with connect(client, f"/ws/matches/{watched}?token={token_of(created, 0)}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": first_legal(view), "event": view["event"]})
            before = receive_until(ws, lambda m: m["type"] == "state" and m["history"])
            assert hub.sweep(idle_seconds=60.0) == 0  # all used just now
            later = time.monotonic() + 61.0
            assert hub.sweep(idle_seconds=60.0, now=later) == 3
            assert hub.service.cached_ids() == {watched}
        assert hub.sweep(idle_seconds=60.0, now=later + 61.0) == 1
        assert hub.cached() == (0, 0)
        again = seat_get(client, f"/api/matches/{watched}?token={token_of(created, 0)}").json()
        assert again["history"] == before["history"] and again["event"] == before["event"]
        assert client.get(f"/api/matches/{idle[0]}").status_code == 200


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.slow
def test_a_finished_game_with_dice_records_the_seed_that_draws_every_roll_again(
    tmp_path: Path, players: int
) -> None:
    """I-rules dice come from the server's generator seeded by the match's seed and the
    move number (chance_seed); the finished game's record carries the seed, and drawing
    again from it gives every roll in the record, and the record replays to the end."""
    with running(tmp_path) as client:
        created = new_match(client, "ishigaki_race", ["human"] * players, players=players)
        match = created["match"]
        sockets = {}
        with contextlib.ExitStack() as stack:
            for seat in range(players):
                url = f"/ws/matches/{match}?token={token_of(created, seat)}"
                sockets[seat] = stack.enter_context(connect(client, url))
            view = seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").json()
            for _ in range(2000):
                if view["result"] is not None:
                    break
                seat = view["to_act"]
                mine = seat_get(
                    client, f"/api/matches/{match}?token={token_of(created, seat)}"
                ).json()
                move = sorted(mine["legal"])[-1]  # "stop" before "roll": games end
                sockets[seat].send_json({"type": "move", "move": move, "event": view["event"]})
                seen = view["event"]
                view = receive_until(
                    sockets[seat], lambda m, seen=seen: m["type"] == "state" and m["event"] > seen
                )
        record = GameRecord.from_json(client.get(f"/api/matches/{match}/record").text)
    assert view["result"] is not None and record.seed is not None
    state = stairgames.load("ishigaki_race", players=players).new_initial_state()
    rolls = 0
    for move in record.moves:
        if state.is_chance_node():
            rng = random.Random(chance_seed(record.seed, state.move_number()))
            assert state.action_to_string(sample_chance_outcome(state, rng)) == move
            rolls += 1
        state.apply_move(move)
    assert rolls > players and state.is_terminal()
    assert list(final_state(record).returns()) == list(view["result"]["returns"])


def test_the_view_says_whether_its_viewer_may_undo_or_ask_a_takeback(tmp_path: Path) -> None:
    """Undo and takeback are the server's rules: the page shows their buttons from the
    view's can_undo and can_takeback, never working them out itself."""
    with running(tmp_path) as client:
        one_screen = new_match(client, "stairs", ["human", "computer:easy"])
        online = new_match(client, "stairs", ["human", "online"])
        dice = new_match(client, "ishigaki_race", ["human", "human"])

        def view(created: dict[str, Any], token: str | None) -> dict[str, Any]:
            headers = {"x-seat-token": token} if token else {}
            answer: dict[str, Any] = client.get(
                f"/api/matches/{created['match']}", headers=headers
            ).json()
            return answer

        at_screen = view(one_screen, token_of(one_screen, 0))
        # nothing of this screen's to take back yet (tests/test_server_newcomers.py)
        assert not at_screen["can_undo"] and not at_screen["can_takeback"]
        friend = view(online, token_of(online, 0))
        assert friend["can_takeback"] and not friend["can_undo"]
        watcher = view(online, None)
        assert not watcher["can_undo"] and not watcher["can_takeback"]
        rolled = view(dice, token_of(dice, 0))
        assert not rolled["can_undo"] and not rolled["can_takeback"]


def test_a_finished_city_of_stairs_match_gives_its_result_arguments_as_texts() -> None:
    rng = random.Random(3)
    state = stairgames.load("city_of_stairs", players=3).new_initial_state()
    events: list[EventRecord] = []
    while not state.is_terminal():
        seat = None if state.is_chance_node() else state.current_player()
        if seat is None:
            action = sample_chance_outcome(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        move = state.action_to_string(action)
        state.apply_action(action)
        events.append(EventRecord(len(events) + 1, "move", seat, {"move": move}))
    seats = tuple(SeatRecord(seat, "human", None, None) for seat in range(3))
    match = Match(MatchRecord("m", "city_of_stairs", {"players": 3}, 1, None, seats, tuple(events)))
    result = match.result()
    assert result is not None and result["reason"].startswith("red ")
    args = json.loads(json.dumps(result["reason_args"]))
    assert args["scores"]["and"] is False
    assert args["scores"]["names"][0]["args"]["name"] == {"id": "red"}
    set_language("ja")
    said = said_like_the_browser({"id": result["reason_id"], "args": args}, catalog_messages("ja"))
    assert said == localize(state.outcome().text)  # type: ignore[union-attr]
    assert said.startswith("赤 ") and "red" not in said


def test_an_engine_error_with_a_nested_reason_reaches_the_client_as_a_text(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "city_of_stairs", ["human"] * 3, players=3, first_player=0)
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = state_at_rest(ws)
            card = first_legal(view).split("@")[0]
            illegal = next(
                f"{card}@{column}{row}"
                for column in "abcdefg"
                for row in "1234"
                if f"{card}@{column}{row}" not in view["legal"]
            )
            ws.send_json({"type": "move", "move": illegal, "event": view["event"]})
            error = error_reply(ws)["error"]
    assert error["id"] == "illegal move {text!r}: {reason}"
    assert error["message"].startswith(f"illegal move '{illegal}': ")
    reason = error["args"]["reason"]
    assert isinstance(reason, dict) and "id" in reason, "the reason is a text, not English"
    said = said_like_the_browser({"id": error["id"], "args": error["args"]}, catalog_messages("ja"))
    assert said.startswith(f"「{illegal}」はできません：")
    assert not re.search(r"[A-Za-z]{3,}", said.replace(illegal, "")), said
