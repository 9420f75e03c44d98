"""A rated game's view shows each seat's rating and, once it is over, the change (issue
51, item 3): ``rating`` as shown (``"1500?"``, people/ratings.py's scale) while it is
played, the rating after it and ``rating_change`` once it is rated; other games' views
carry neither."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.people.players import COOKIE
from stairgames.server.people.rating_store import RatingStore
from stairgames.server.people.ratings import RatedResult, RatingBook
from stairgames.server.play.contract import MatchView
from tests.server_helpers import JSON, connect, receive_until, running

POOL = "stairs size=4"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a request made by a new player called ``name`` (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def started(
    client: TestClient, ann: dict[str, str], bob: dict[str, str], rated: bool = True
) -> str:
    """A Stairs challenge of Ann's (light) that Bob accepted: its match."""
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/challenges", json={**body, "rated": rated}, headers=ann)
    assert made.status_code == 200, made.text
    accepted = client.post(f"/api/challenges/{made.json()['challenge']}/accept", headers=bob)
    assert accepted.status_code == 200, accepted.text
    match: str = made.json()["match"]
    return match


def view_of(client: TestClient, match: str) -> dict[str, Any]:
    reply = client.get(f"/api/matches/{match}")
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    MatchView.model_validate(view)
    return view


def resign(client: TestClient, match: str, who: dict[str, str]) -> dict[str, Any]:
    """``who`` resigns over their match socket: the view it is sent then."""
    with connect(client, f"/ws/matches/{match}", headers=who) as ws:
        view = receive_until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "resign", "event": view["event"]})
        over = receive_until(ws, lambda m: m["type"] == "state" and m["result"] is not None)
    MatchView.model_validate(over)
    return over


def ratings(view: dict[str, Any]) -> list[tuple[Any, Any]]:
    return [(seat.get("rating"), seat.get("rating_change")) for seat in view["seats"]]


def shown(client: TestClient, name: str) -> str:
    profile = client.get(f"/api/players/{name}").json()
    rating: str = profile["ratings"][POOL]["shown"]
    return rating


def test_a_rated_game_shows_each_rating_then_the_change(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    match = started(client, ann, bob)
    assert ratings(view_of(client, match)) == [("1500?", None), ("1500?", None)]
    over = resign(client, match, ann)
    (ann_before, ann_after), (bob_before, bob_after) = (
        RatingBook().add(RatedResult(POOL, ("ann", "bob"), (-1.0, 1.0))).values()
    )
    lost, won = ann_after.change_from(ann_before), bob_after.change_from(bob_before)
    assert lost < 0 < won
    expected = [(ann_after.shown(), lost), (bob_after.shown(), won)]
    assert ratings(over) == expected == ratings(view_of(client, match))
    assert [rating for rating, _ in expected] == [shown(client, "Ann"), shown(client, "Bob")]


def test_an_old_game_shows_the_change_it_made_not_the_rating_now(
    client: TestClient, tmp_path: Path
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    first = started(client, ann, bob)
    resign(client, first, ann)
    then = ratings(view_of(client, first))
    assert then[0][1] is not None and then[0][1] < 0
    second = started(client, ann, bob)
    resign(client, second, bob)
    assert shown(client, "Ann") != then[0][0]  # Ann's rating moved on
    store = client.app.state.ratings  # type: ignore[attr-defined]
    afresh = RatingStore(store.engine)  # another process: nothing kept, folded again
    assert afresh.changes_of(first) == store.changes_of(first)
    assert ratings(view_of(client, first)) == then


def test_an_unrated_game_shows_no_ratings(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    match = started(client, ann, bob, rated=False)
    over = resign(client, match, ann)
    for view in (over, view_of(client, match)):
        assert all("rating" not in seat and "rating_change" not in seat for seat in view["seats"])


def test_a_game_against_the_computer_shows_no_ratings(client: TestClient) -> None:
    made = client.post(
        "/api/matches",
        json={"game": "stairs", "options": {"size": 4}, "seats": ["human", "random"]},
    )
    assert made.status_code == 200, made.text
    view = view_of(client, made.json()["match"])
    assert all("rating" not in seat for seat in view["seats"])
