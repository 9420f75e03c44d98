"""The uploaded-file routes (server/play/card_files.py) come from the registry: a game
that declares another option taking a file gets its own route, folder and answer, with
no change to the server (issue 50: the server names no game's option)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from stairgames.core import registry
from stairgames.core.registry import OptionFile, uploaded_options
from stairgames.server.play.card_files import (
    card_folder,
    is_upload_route,
    resolve_cards_option,
    upload_route,
    upload_routes,
)
from tests.server_helpers import running


@dataclasses.dataclass(frozen=True)
class Layout:
    """What the fifth game's reader makes of a file: its first line, as its name."""

    name: str


def read_layout(text: str, *, source: object) -> Layout:
    """The fifth game's reader of an uploaded layout file."""
    return Layout(text.splitlines()[0] if text else str(source))


@pytest.fixture
def layouts(tictactoe: registry.GameSpec) -> Iterator[str]:
    """Tic-tac-toe registered with an option ``layout`` that takes an uploaded file."""
    registry.register(
        dataclasses.replace(
            tictactoe,
            option_files=(OptionFile("layout", f"{__name__}:read_layout"),),
        )
    )
    yield "layout"


def test_each_option_that_takes_a_file_has_its_route(layouts: str) -> None:
    assert layouts in uploaded_options()
    assert upload_routes()[upload_route(layouts)] == layouts
    assert is_upload_route(f"/api/{layouts}")
    assert not is_upload_route("/api/matches")


def test_a_new_file_option_is_uploaded_kept_and_resolved(layouts: str, tmp_path: Path) -> None:
    with running(tmp_path) as client:
        as_json = client.post(
            f"/api/{layouts}?name=mine.txt",
            content=b"corners first\n",
            headers={"content-type": "application/json"},
        )
        reply = client.post(
            f"/api/{layouts}?name=mine.txt",
            content=b"corners first\n",
            headers={"content-type": "application/toml"},
        )
    # an uploaded file, not a JSON body: its own content type (server/ops/middleware.py)
    assert as_json.status_code == 415
    assert reply.status_code == 200, reply.text
    answer = reply.json()
    assert answer["name"] == "corners first"
    kept = answer[layouts]
    assert (card_folder(tmp_path, layouts) / f"{kept}.toml").is_file()
    resolved = resolve_cards_option({layouts: kept}, tmp_path)
    assert resolved[layouts] == str((tmp_path / layouts / f"{kept}.toml").resolve())


def test_without_the_game_no_route_takes_its_files(tmp_path: Path) -> None:
    assert "layout" not in uploaded_options()
    assert not is_upload_route("/api/layout")
    with running(tmp_path) as client:
        reply = client.post(
            "/api/layout", content=b"x\n", headers={"content-type": "application/json"}
        )
    assert reply.status_code == 404
