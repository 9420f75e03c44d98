"""A fifth game added the way docs/architecture.md says: tic-tac-toe (``tests/tictactoe``),
registered through the same ``GameSpec`` slots as the four games, passes the protocol's
conformance check, the PettingZoo bridge's checks and the browser's, and the real
server lists it and serves its ``board.js``."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import stairgames
from stairgames.core import registry
from stairgames.core.testing import check_game
from stairgames.web.messages import gather_browser_messages
from tests.server_helpers import new_match, running, seat_get, token_of
from tests.test_import_contract import Place, broken_rule, imported_names, modules, place_of
from tests.tictactoe import SPEC

PACKAGE = Path(__file__).parent / "tictactoe"


def test_a_registered_fifth_game_loads_by_name_and_alias(tictactoe):
    assert "tictactoe" in stairgames.game_names()
    game = stairgames.load("Noughts-and-Crosses")
    assert game.info().seat_names == ("X", "O")
    state = game.new_initial_state()
    state.apply_move("b2")
    assert state.position() == ".../.X./..."
    assert repr(state) == "stairgames.load('tictactoe').state_from_position('.../.X./...')"
    assert str(SPEC.render(state, colour=False, viewer=None)).startswith("3 . . .\n2 . X .")


def test_unregistered_the_fifth_game_is_nowhere():
    """Only the tests that ask for it see it: it registers nothing when imported."""
    assert "tictactoe" not in stairgames.game_names()
    assert "Tic-tac-toe board" not in gather_browser_messages()


def test_the_fifth_game_passes_the_protocol_conformance_check(tictactoe):
    check_game(stairgames.load("tictactoe"), games=20, seed=3)


def test_its_lazy_references_resolve_to_its_players_code_and_tensor(tictactoe):
    hooks = registry.player_hooks("tictactoe")
    assert hooks.evaluate is not None
    state = stairgames.load("tictactoe").state_from_position(".../.O./X..")
    assert hooks.evaluate(state, 1) > 0  # O holds the centre: more lines open to it
    tensor = registry.observation_tensor("tictactoe")
    assert tensor is not None and tensor.encode(state, 1).shape == (3, 3, 3)
    assert registry.solver("tictactoe") is None and registry.study("tictactoe") is None


def test_the_fifth_game_keeps_the_import_contract():
    """Its engine imports only core and itself, its view the engine, its play code the
    engine (the rules of tests/test_import_contract.py, the package read as a game)."""
    package = "tests.tictactoe"
    known = modules(PACKAGE, package)

    def place(name: str) -> Place:
        parts = tuple(name.split("."))
        if name.startswith(package):
            return place_of(("games", "tictactoe", *parts[2:]))
        return place_of(parts[1:])

    broken = [
        f"{name} imports {target}"
        for name, path in known.items()
        for target in imported_names(path, name, set(known))
        if target.startswith(("stairgames.", package))
        and broken_rule(place(name), place(target)) is not None
    ]
    assert len(known) == 12 and not broken, broken


def test_the_pettingzoo_bridge_passes_pettingzoo_s_own_tests(tictactoe):
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")
    from pettingzoo.test import api_test, seed_test

    from stairgames.interop import pettingzoo as sg_pettingzoo

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observations of classic games warn
        api_test(sg_pettingzoo.env("tictactoe"), num_cycles=100)
        seed_test(lambda: sg_pettingzoo.env("tictactoe"), num_cycles=50)
    env = sg_pettingzoo.raw_env("tictactoe")
    env.reset(seed=1)
    observation = env.observe("player_0")
    assert list(observation["action_mask"]) == [1] * 9
    assert "tictactoe_v0" in sg_pettingzoo.environments()


def test_the_web_view_is_json_ready_and_board_js_draws_it(tictactoe):
    assert tictactoe.web_view is not None and tictactoe.web_assets is not None
    script = (tictactoe.web_assets / "board.js").read_text(encoding="utf-8")
    assert "export function draw(svg, board, ui)" in script
    state = stairgames.load("tictactoe").new_initial_state()
    state.apply_move("a1")
    data = tictactoe.web_view(state, None)
    assert json.loads(json.dumps(data)) == data
    assert data["cells"][0] == {"name": "a1", "mark": "X"} and data["to_move"] == "O"
    assert data == tictactoe.web_view(state, 0) == tictactoe.web_view(state, 1)
    assert "Tic-tac-toe board" in gather_browser_messages()


def test_the_real_server_lists_it_serves_its_board_js_and_plays_it(tictactoe, tmp_path: Path):
    with running(tmp_path) as client:
        listing = client.get("/api/games").json()
        board_js = client.get("/games/tictactoe/board.js")
        created = new_match(client, "tictactoe", ["human", "human"])
        match = seat_get(
            client, f"/api/matches/{created['match']}?token={token_of(created, 0)}"
        ).json()
    games = {game["name"]: game for game in listing}
    assert listing[0]["name"] == "stairs"  # the four games by their listing order, then it
    assert listing[-1]["name"] == "tictactoe"
    entry = games["tictactoe"]
    assert entry["web"] and entry["seat_names"] == ["X", "O"]
    assert entry["preview"] == {"cells": entry["preview"]["cells"], "to_move": "X"}
    assert entry["rules_summary"] == list(SPEC.rules_summary)
    # its options say their own words and kinds, so the page needs nothing of the game
    opening = {option["name"]: option for option in entry["options"]}["opening"]
    assert opening["label"] == "Who starts" and opening["kind"] == "choice"
    assert opening["choices"] == ["X", "O"] and opening["default"] == "X"
    assert board_js.status_code == 200
    assert board_js.headers["content-type"].startswith("text/javascript")
    assert "export function draw(svg, board, ui)" in board_js.text
    assert match["board"]["to_move"] == "X" and len(match["board"]["cells"]) == 9
