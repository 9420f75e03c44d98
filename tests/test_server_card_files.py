"""Uploaded card files (server/play/card_files.py) are bounded: no name a card file brings may
hold a bidirectional control or another invisible character (refused at upload, and
again when a kept file is read), one uploader keeps a limited number of files no match
uses, and such files are deleted a week after their last upload (issue 48)."""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import stairgames
from stairgames.core.errors import InvalidOptionError, StairgamesError
from stairgames.games.city_of_stairs.cards import default_cards_text, parse_card_set
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import Rate
from stairgames.server.play import card_files
from stairgames.server.play.card_files import (
    UNUSED_CARD_FILE_DAYS,
    CardFiles,
    resolve_cards_option,
    start_card_sweep,
    sweep_cards_every,
)
from tests.server_helpers import JSON, TOML, FakeClock, running

SET_NAME = 'name = "stairgames reconstruction 1"'
RED_NAME = 'name = "Red"'
DAY = 86400.0
MANY = Rate(per_minute=1000, burst=1000)
"""Card uploads enough for the quota, not the rate, to refuse them."""

BIDI_AND_INVISIBLE = [
    "\u202a",  # left-to-right embedding
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",  # left-to-right mark
    "\u200f",
    "\u061c",  # Arabic letter mark
    "\u200b",  # zero width space
    "\ufeff",
    "\u2028",  # line separator
    "\x1b",
]


def escaped(text: str) -> str:
    """``text`` as a TOML basic string's content, every character escaped."""
    return "".join(f"\\u{ord(c):04X}" for c in text)


def with_set_name(name: str) -> str:
    return default_cards_text().replace(SET_NAME, f'name = "{escaped(name)}"')


def with_red_name(name: str) -> str:
    return default_cards_text().replace(RED_NAME, f'name = "{escaped(name)}"', 1)


def variant(number: int) -> bytes:
    """A valid card file of its own (another id for each ``number``)."""
    return (default_cards_text() + f"# variant {number}\n").encode()


def upload(client: TestClient, body: bytes, query: str = "") -> Any:
    return client.post(f"/api/cards{query}", content=body, headers=TOML)


def kept(data_dir: Path) -> set[str]:
    folder = data_dir / "cards"
    return {path.stem for path in folder.glob("*.toml")} if folder.is_dir() else set()


def become_player(client: TestClient, name: str) -> None:
    """The client's browser becomes a new player (its old cookie forgotten)."""
    client.cookies.clear()
    response = client.post("/api/me", json={"name": name}, headers=JSON)
    assert response.status_code == 200, response.text


def start_match_with(client: TestClient, data_dir: Path, card_id: str) -> None:
    """A match whose ``cards`` option names ``card_id``'s file, made as the route makes
    it (through the match service, from the test's thread)."""
    options = resolve_cards_option({"players": 2, "cards": card_id}, data_dir)
    client.app.state.hub.service.create("city_of_stairs", options, ["human", "human"])  # type: ignore[attr-defined]


@pytest.fixture
def small_quotas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files no match uses per uploader, three per address."""
    monkeypatch.setattr(card_files, "MAX_KEPT_CARD_FILES", 2)
    monkeypatch.setattr(card_files, "MAX_KEPT_CARD_FILES_PER_ADDRESS", 3)


# ----- names ---------------------------------------------------------------------------


@pytest.mark.parametrize("char", BIDI_AND_INVISIBLE)
@pytest.mark.parametrize("edit", [with_set_name, with_red_name], ids=["set", "character"])
@pytest.mark.slow
def test_a_name_holding_a_bidi_control_or_invisible_character_is_refused_and_not_kept(
    tmp_path: Path, char: str, edit: Any
) -> None:
    text = edit(f"Re{char}der")
    with running(tmp_path) as client:
        refused = upload(client, text.encode())
    assert refused.status_code == 400, refused.text
    error = refused.json()["error"]
    assert "field 'name': a name may not hold control or invisible characters" in error["text"]
    assert char not in error["text"]
    assert kept(tmp_path) == set()


def test_names_are_bounded_and_any_visible_script_is_taken(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        long_set = upload(client, with_set_name("x" * 61).encode())
        long_character = upload(client, with_red_name("x" * 25).encode())
        empty_character = upload(client, with_red_name("").encode())
        japanese = upload(client, with_red_name("赤　ずきん").encode())
        arabic = upload(client, with_set_name("مدينة السلالم").encode())
    for refused in (long_set, long_character, empty_character):
        assert refused.status_code == 400
        assert "a name has 1 to" in refused.json()["error"]["text"]
    assert japanese.status_code == 200 and arabic.status_code == 200
    assert arabic.json()["name"] == "مدينة السلالم"


def test_a_kept_file_with_such_a_name_is_refused_when_read_so_it_never_reaches_a_board(
    tmp_path: Path,
) -> None:
    body = with_red_name("\u202eRed").encode()
    card_id = hashlib.sha256(body).hexdigest()
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / f"{card_id}.toml").write_bytes(body)  # kept before names were checked
    with pytest.raises(InvalidOptionError, match="control or invisible"):
        stairgames.load("city_of_stairs", players=2, cards=str(folder / f"{card_id}.toml"))
    with running(tmp_path) as client:
        options = resolve_cards_option({"players": 2, "cards": card_id}, tmp_path)
        service = client.app.state.hub.service  # type: ignore[attr-defined]
        with pytest.raises(StairgamesError):
            service.create("city_of_stairs", options, ["human", "human"])


def test_the_uploaded_files_own_name_loses_its_invisible_characters_in_messages(
    tmp_path: Path,
) -> None:
    bad = default_cards_text().replace("points = 3", "points = -3").encode()
    with running(tmp_path) as client:
        refused = upload(client, bad, "?name=evil%E2%80%AElmth.toml")
    text = refused.json()["error"]["text"]
    assert refused.status_code == 400 and text.startswith("evillmth.toml ")
    assert "\u202e" not in text


def test_the_default_set_still_reads() -> None:
    assert parse_card_set(default_cards_text()).characters[0].name == "Red"


# ----- a quota per uploader ------------------------------------------------------------


def test_an_address_without_a_player_keeps_a_bounded_number_of_unused_files(
    tmp_path: Path, small_quotas: None
) -> None:
    with running(tmp_path, card_uploads_per_minute=MANY) as client:
        first, second = (upload(client, variant(n)) for n in (1, 2))
        assert first.status_code == 200 and second.status_code == 200
        refused = upload(client, variant(3))
        again = upload(client, variant(1))  # one already kept adds nothing
    assert refused.status_code == 429, refused.text
    error = refused.json()["error"]
    assert error["args"]["count"] == 2 and error["args"]["days"] == UNUSED_CARD_FILE_DAYS
    assert "card files that no match uses" in error["text"]
    assert 0 < int(refused.headers["retry-after"]) <= UNUSED_CARD_FILE_DAYS * DAY
    assert kept(tmp_path) == {first.json()["cards"], second.json()["cards"]}
    assert again.status_code == 200


def test_each_player_has_a_quota_and_their_address_one_over_them_all(
    tmp_path: Path, small_quotas: None
) -> None:
    with running(tmp_path, card_uploads_per_minute=MANY) as client:
        become_player(client, "Alice")
        alice = [upload(client, variant(n)).status_code for n in (1, 2, 3)]
        become_player(client, "Bob")
        bob = [upload(client, variant(n)).status_code for n in (4, 5)]
        again = upload(client, variant(4))  # Bob's own, kept: it adds nothing
    assert alice == [200, 200, 429]
    assert bob == [200, 429] and again.status_code == 200  # the address keeps 3
    assert len(kept(tmp_path)) == 3


def test_ja_translates_the_quota_refusal(tmp_path: Path, small_quotas: None) -> None:
    with running(tmp_path, card_uploads_per_minute=MANY) as client:
        for n in (1, 2):
            upload(client, variant(n))
        refused = upload(client, variant(3), "?lang=ja")
    assert refused.status_code == 429
    assert "card files" not in refused.json()["error"]["text"]


def test_a_file_a_match_uses_and_an_expired_one_no_longer_count(
    tmp_path: Path, small_quotas: None
) -> None:
    clock = FakeClock(1_700_000_000.0)
    with running(tmp_path, card_uploads_per_minute=MANY) as client:
        client.app.state.card_files.clock = clock  # type: ignore[attr-defined]
        used = upload(client, variant(1)).json()["cards"]
        upload(client, variant(2))
        assert upload(client, variant(3)).status_code == 429
        start_match_with(client, tmp_path, used)
        assert upload(client, variant(3)).status_code == 200
        assert upload(client, variant(4)).status_code == 429
        clock.now += UNUSED_CARD_FILE_DAYS * DAY  # variants 2 and 3 expire (not yet swept)
        assert upload(client, variant(4)).status_code == 200


# ----- expiry --------------------------------------------------------------------------


def test_the_sweep_deletes_files_no_match_uses_a_week_after_their_last_upload(
    tmp_path: Path,
) -> None:
    clock = FakeClock(1_700_000_000.0)
    start = clock.now
    with running(tmp_path, card_uploads_per_minute=MANY) as client:
        files: CardFiles = client.app.state.card_files  # type: ignore[attr-defined]
        engine = client.app.state.engine  # type: ignore[attr-defined]
        files.clock = clock
        used, unused, uploaded_again = (
            upload(client, variant(n)).json()["cards"] for n in (1, 2, 3)
        )
        old_body = variant(4)  # a file kept before uploads were recorded: its mtime dates it
        old = hashlib.sha256(old_body).hexdigest()
        files.path(old).write_bytes(old_body)
        os.utime(files.path(old), (start, start))
        part = files.folder / "half.part"
        part.write_bytes(b"half")
        os.utime(part, (start, start))
        start_match_with(client, tmp_path, used)
        clock.now = start + 5 * DAY
        assert files.sweep(engine) == []
        upload(client, variant(3))
        clock.now = start + UNUSED_CARD_FILE_DAYS * DAY
        deleted = files.sweep(engine)
        assert kept(tmp_path) == {used, uploaded_again}
        with pytest.raises(ServerError):
            resolve_cards_option({"cards": unused}, tmp_path)
        index = (files.folder / "uploads.json").read_text()
    assert deleted == sorted([unused, old])
    assert not part.exists()
    assert unused not in index and used in index


def test_the_sweep_task_runs_off_the_loop_and_outlives_a_failure(tmp_path: Path) -> None:
    class Flaky(CardFiles):
        def __init__(self) -> None:
            super().__init__(tmp_path / "cards")
            self.calls = 0
            self.second = asyncio.Event()
            self.loop: asyncio.AbstractEventLoop | None = None

        def sweep(self, engine: Any) -> list[str]:
            self.calls += 1
            assert not card_files_on_loop()
            if self.calls == 1:
                raise OSError("the folder went away")
            assert self.loop is not None
            self.loop.call_soon_threadsafe(self.second.set)
            return []

    async def run() -> int:
        files = Flaky()
        files.loop = asyncio.get_running_loop()
        task = asyncio.get_running_loop().create_task(sweep_cards_every(files, None, 0.0))  # type: ignore[arg-type]
        await files.second.wait()
        task.cancel()
        return files.calls

    assert asyncio.run(run()) >= 2


def test_start_card_sweep_dates_uploads_by_the_settings_wall_clock(tmp_path: Path) -> None:
    class Settings:
        wall_clock = FakeClock(42.0)

    class State:
        card_files = CardFiles(tmp_path / "cards")

    class App:
        state = State()

    async def start() -> float:
        tasks = start_card_sweep(App(), None, Settings())  # type: ignore[arg-type]
        for task in tasks:
            task.cancel()
        return State.card_files.clock()

    assert asyncio.run(start()) == 42.0


def card_files_on_loop() -> bool:
    """Whether the caller runs on an event loop's thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
