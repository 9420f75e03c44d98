"""``stairgames moderate`` (issue 51, item 7): the reports a moderator reads, newest
first, and renaming or disabling a player, on the database ``stairgames serve`` uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from stairgames.cli import main
from stairgames.server.base.store import make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.people.blocks import BlockStore
from stairgames.server.people.players import PlayerStore


def players_in(data_dir: Path) -> PlayerStore:
    """The players of the SQLite database ``stairgames serve --data-dir data_dir`` uses."""
    from stairgames.server.base.settings import Settings

    engine = make_engine(Settings(data_dir=data_dir).url())
    upgrade(engine)
    return PlayerStore(engine)


def test_reports_are_listed_newest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = players_in(tmp_path)
    ann, _ = store.create("Ann")
    bob, _ = store.create("Bob")
    blocks = BlockStore(store.engine)
    blocks.report(ann.id, bob.id, "rude in the chat", "m1", 4)
    blocks.report(bob.id, ann.id, "left every game")
    assert main(["moderate", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.index("Bob reported Ann") < out.index("Ann reported Bob")
    assert "left every game" in out
    assert "/m/m1 #4" in out


def test_no_reports_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moderate", "--data-dir", str(tmp_path)]) == 0
    assert "no reports" in capsys.readouterr().out


def test_a_player_is_renamed_and_their_name_freed(tmp_path: Path) -> None:
    store = players_in(tmp_path)
    bad, _ = store.create("Rudename")
    assert main(["moderate", "--data-dir", str(tmp_path), "--rename", "rudename", "Kind"]) == 0
    assert store.by_name("Kind") == store.by_id(bad.id)
    assert store.by_name("Rudename") is None  # free again, not kept for them
    store.create("Rudename")


def test_a_rename_to_a_taken_or_refused_name_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = players_in(tmp_path)
    store.create("Ann")
    store.create("Bob")
    assert main(["moderate", "--data-dir", str(tmp_path), "--rename", "Ann", "B0b"]) == 2
    assert main(["moderate", "--data-dir", str(tmp_path), "--rename", "Nobody", "Cy"]) == 2
    assert "no such player" in capsys.readouterr().err
    assert store.by_name("Ann") is not None


def test_a_disabled_player_cannot_log_in_and_their_sessions_end(tmp_path: Path) -> None:
    store = players_in(tmp_path)
    eve, secret = store.create("Eve")
    store.add_password(eve, "a long password")
    assert store.by_secret(secret) == store.by_id(eve.id)
    assert main(["moderate", "--data-dir", str(tmp_path), "--disable", "Eve"]) == 0
    assert store.by_secret(secret) is None
    assert store.by_id(eve.id) is not None and not store.by_id(eve.id).account  # type: ignore[union-attr]


def test_a_disabled_player_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = players_in(tmp_path)
    store.create("Eve")
    main(["moderate", "--data-dir", str(tmp_path), "--disable", "Eve"])
    capsys.readouterr()
    main(["moderate", "--data-dir", str(tmp_path)])
    assert "disabled: Eve" in capsys.readouterr().out
