"""The API answers a recorded session as the server did before issue 50 restructured it.

``tests/golden/api_session.json`` is the session of :mod:`tests.api_session_recorder`
recorded against the server of commit 6c25b4a (before the restructuring); it is
replayed here against the current server and every answer's status and body, and every
WebSocket message waited for, compared. These differences are allowed, each by name:

- an error answer (HTTP or WebSocket) may carry a ``code`` key, at its top level or in
  its ``error`` object, that the golden lacks: the stable machine code issue 50 added
  to every error (the message id and its arguments must stay as they were);
- ``/api/games`` may describe each option with more fields (issue 50 moved what the
  page knew of each game's options there: kinds, labels, bounds, help, and more as
  the page needs them); the fields it had (``name``, ``type``, ``default``,
  ``choices``) keep their values, and nothing else of the listing may change;
- ``/api/games`` may tell each game's ``move_words`` (issue 51: the moves the page says
  in words, Stairs' pass and offer, Ishigaki Race's dice, declared by each game rather
  than named by the page); that one field by name, nothing else of a game.
- a match view's seats may carry ``rating`` (a rating as shown, ``"1500?"``) and
  ``rating_change`` (whole points) where the golden's had none (issue 51: a rated game
  shows its players' ratings and what it changed); those two fields by name, of those
  shapes, nothing else of a seat;
- a profile's ratings are shown in points (issue 51): each pool's ``rating`` and
  ``shown`` may differ, and its ``deviation`` be added, exactly as
  ``people/ratings.py``'s scale makes them of the golden's own ``mu``, ``sigma`` and
  ``games`` (which must not change);
- ``/api/games`` may say whether each game has puzzles, ``puzzles``, and name its
  puzzle themes, ``puzzle_themes`` (issue 52); those two fields by name;
- a profile may say whether its player is a bot, ``bot`` (issue 53), ``false`` here
  (nobody in this session is a bot); that one field by name, of that value;
- My games (``GET /api/my/games``) may count the games its player hid, ``hidden``
  (issue 51: a stale game against the computer hidden from the list), which is 0 in
  this session (nobody hides a game); that one field by name, of that value;
- a match view may list the moves its seat may queue while the opponent thinks,
  ``premoves`` (issue 54: premove), a list of texts; that one field by name;
- a match view may carry the screen-reader mode's texts, ``accessible`` (issue 54),
  ``null`` unless its page asked for them, as nobody in this session does; that one
  field by name, of that value.

Anything else that differs is a change of the API: a regression, or a change to make on
purpose by recording the golden again (the recorder's docstring says how).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from stairgames.server.people.ratings import Rating
from tests.api_session_recorder import GOLDEN, Step, differences, record_session, timing_free

MOVE_WORDS = "move_words"
"""The field of each game of ``/api/games`` that issue 51 added (the module's docstring)."""

SEAT_RATING = {"rating": re.compile(r"\d+\??"), "rating_change": re.compile(r"-?\d+")}
"""The fields a match view's seats gained in issue 51, and the shapes of their values."""

PUZZLE_FIELDS = ("puzzles", "puzzle_themes")
"""The fields of each game of ``/api/games`` that issue 52 added."""

BOT = "bot"
"""The field of a profile that issue 53 added: ``false`` here, nobody is a bot."""

PREMOVES = "premoves"
"""The field of a match view that issue 54 added: a list of moves in notation."""

ACCESSIBLE = "accessible"
"""The other field of a match view that issue 54 added: ``null`` unless asked for."""

MY_GAMES_HIDDEN = "hidden"
"""The field of My games' answer that issue 51 added: 0 here, nobody hid a game."""

SCALED = ("rating", "shown", "deviation")
"""The fields of a profile's rating that issue 51 put on the scale of points."""


def golden() -> list[Step]:
    """The recorded session, normalised as a session recorded today would be (its
    ``chances`` were recorded raw: :func:`tests.api_session_recorder.timing_free`)."""
    steps: list[Step] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return [timing_free(step) for step in steps]


def answer_of(step: Step) -> Any:
    return step.get("body", step.get("message"))


def without_allowed(expected: Step, found: Step) -> Step:
    """``found`` less the differences from ``expected`` that the module's docstring
    allows (``found`` itself unchanged)."""
    found = copy.deepcopy(found)
    before, after = answer_of(expected), answer_of(found)
    was_error = isinstance(before, dict) and isinstance(before.get("error"), dict)
    if was_error and isinstance(after, dict):
        if "code" not in before:
            after.pop("code", None)
        if isinstance(after.get("error"), dict) and "code" not in before["error"]:
            after["error"].pop("code", None)
    if expected.get("request") == "GET /api/games" and isinstance(after, list):
        for game, was in zip(after, before, strict=False):
            for field in (MOVE_WORDS, *PUZZLE_FIELDS):
                if field not in was:
                    game.pop(field, None)
            known = {option["name"]: option for option in was.get("options", [])}
            for option in game.get("options", []):
                had = known.get(option["name"], {})
                for field in option.keys() - had.keys():
                    del option[field]
    if isinstance(before, dict) and isinstance(after, dict) and after.get("type") == "state":
        _without_seat_ratings(before.get("seats", []), after.get("seats", []))
        listed = after.get(PREMOVES)
        moves = isinstance(listed, list) and all(isinstance(move, str) for move in listed)
        if PREMOVES not in before and moves:
            del after[PREMOVES]
    if _texts_not_asked(before, after):
        del after[ACCESSIBLE]
    if _my_games_hid_none(expected, before, after):
        del after[MY_GAMES_HIDDEN]
    if str(expected.get("request", "")).startswith("GET /api/players/"):
        _without_points(before.get("ratings", {}), after.get("ratings", {}))
        if BOT not in before and after.get(BOT) is False:
            del after[BOT]
    return found


def _texts_not_asked(before: Any, after: Any) -> bool:
    """Whether ``after`` is a match view whose :data:`ACCESSIBLE` is ``null`` where the
    golden's ``before`` has no such field."""
    return (
        isinstance(before, dict)
        and isinstance(after, dict)
        and "seats" in after
        and ACCESSIBLE not in before
        and ACCESSIBLE in after
        and after[ACCESSIBLE] is None
    )


def _my_games_hid_none(expected: Step, before: Any, after: Any) -> bool:
    """Whether ``after`` is My games' answer with :data:`MY_GAMES_HIDDEN` 0 where the
    golden's ``before`` has no such field."""
    return (
        str(expected.get("request", "")).startswith("GET /api/my/games")
        and isinstance(before, dict)
        and isinstance(after, dict)
        and MY_GAMES_HIDDEN not in before
        and after.get(MY_GAMES_HIDDEN) == 0
    )


def _without_seat_ratings(before: list[Any], after: list[Any]) -> None:
    """Drop from ``after``'s seats the rating fields of issue 51 that ``before``'s lack,
    where their values have the shapes :data:`SEAT_RATING` says."""
    for was, seat in zip(before, after, strict=False):
        for field, shape in SEAT_RATING.items():
            if field not in was and shape.fullmatch(str(seat.get(field))):
                del seat[field]


def _without_points(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Put back ``before``'s values of :data:`SCALED` in ``after``'s ratings where they
    are the points the scale makes of ``before``'s own μ, σ and games."""
    for pool, rating in after.items():
        was = before.get(pool)
        if not isinstance(was, dict) or "deviation" in was:
            continue
        points = Rating(was["mu"], was["sigma"], was["games"]).json()
        if all(rating.get(field) == points[field] for field in SCALED):
            rating.update(rating=was["rating"], shown=was["shown"])
            del rating["deviation"]


def changes(expected: list[Step], found: list[Step]) -> list[str]:
    """Every difference between the two sessions that is not allowed, one a line."""
    if [s["step"] for s in expected] != [s["step"] for s in found]:
        return ["the session's steps differ (the script changed: record it again)"]
    return [
        f"{want['step']!r}{line}"
        for want, got in zip(expected, found, strict=True)
        for line in differences(want, without_allowed(want, got))
    ]


@pytest.mark.slow
def test_the_api_answers_the_recorded_session_as_before_issue_50() -> None:
    found = changes(golden(), record_session())
    assert not found, "\n".join(found[:40])


# ----- the comparison can fail ---------------------------------------------------------


def step_named(steps: list[Step], name: str) -> Step:
    return next(step for step in steps if step["step"] == name)


def test_an_error_may_gain_a_code_and_nothing_else() -> None:
    steps = golden()
    changed = copy.deepcopy(steps)
    refused = step_named(changed, "unknown match")
    refused["body"]["error"]["code"] = "no_match"
    refused["body"]["code"] = "no_match"
    assert changes(steps, changed) == []
    refused["body"]["error"]["id"] = "no such match"
    refused["body"]["error"]["hint"] = "look again"
    assert sorted(changes(steps, changed)) == [
        "'unknown match'.body.error.hint: added (\"look again\")",
        '\'unknown match\'.body.error.id: "no match {match!r}" became "no such match"',
    ]


def test_a_code_in_an_answer_that_is_no_error_is_a_change() -> None:
    steps = golden()
    changed = copy.deepcopy(steps)
    step_named(changed, "me as ann")["body"]["code"] = "ok"
    step_named(changed, "stairs move 1, seat 0")["message"]["code"] = "ok"
    assert changes(steps, changed) == [
        "'me as ann'.body.code: added (\"ok\")",
        "'stairs move 1, seat 0'.message.code: added (\"ok\")",
    ]


def test_a_status_a_missing_key_or_another_value_is_a_change() -> None:
    steps = golden()
    changed = copy.deepcopy(steps)
    step_named(changed, "stairs at one screen")["status"] = 201
    del step_named(changed, "ann's profile")["body"]["ratings"]
    step_named(changed, "stairs move 1, seat 1")["message"]["legal"].reverse()
    found = changes(steps, changed)
    assert found[0] == "'stairs at one screen'.status: 200 became 201"
    assert found[1].startswith("'stairs move 1, seat 1'.message.legal[0]: ")
    assert found[-1] == '"ann\'s profile".body.ratings: missing'


def test_api_games_may_describe_options_more_and_change_nothing_else() -> None:
    steps = golden()
    changed = copy.deepcopy(steps)
    listing = step_named(changed, "games")["body"]
    option = listing[0]["options"][0]
    option.update(kind="flag", label="Pie rule", min=None)
    listing[0]["move_words"] = [{"move": "pass", "label": "Pass"}]
    assert changes(steps, changed) == []
    option["default"] = not option["default"]
    listing[0]["colour"] = "red"
    assert changes(steps, changed) == [
        "'games'.body[0].colour: added (\"red\")",
        f"'games'.body[0].options[0].default: {json.dumps(not option['default'])} became "
        f"{json.dumps(option['default'])}",
    ]


def test_seats_may_gain_their_ratings_and_nothing_else() -> None:
    steps = golden()
    changed = copy.deepcopy(steps)
    seats = step_named(changed, "rated game view")["body"]["seats"]
    seats[0].update(rating="1422?", rating_change=-78)
    seats[1].update(rating="1578?", rating_change=78)
    assert changes(steps, changed) == []
    seats[0]["rating"] = "best"
    seats[1]["rating_change"] = "+78"
    seats[1]["elo"] = 1578
    assert changes(steps, changed) == [
        "'rated game view'.body.seats[0].rating: added (\"best\")",
        "'rated game view'.body.seats[1].elo: added (1578)",
        "'rated game view'.body.seats[1].rating_change: added (\"+78\")",
    ]


def test_profiles_may_show_points_made_of_their_own_mu_and_sigma_only() -> None:
    steps = golden()
    changed = copy.deepcopy(steps)
    rating = step_named(changed, "ann's profile")["body"]["ratings"]["stairs size=4"]
    made = Rating(rating["mu"], rating["sigma"], rating["games"]).json()
    rating.update(rating=made["rating"], shown=made["shown"], deviation=made["deviation"])
    assert changes(steps, changed) == []
    rating["shown"] = f"{made['rating'] + 1}?"
    found = changes(steps, changed)
    assert '"ann\'s profile".body.ratings.stairs size=4.deviation: added' in found[0]
    assert any(".shown: " in line for line in found)


def test_chances_solved_or_not_yet_read_alike_and_nothing_else_does() -> None:
    solved = {"step": "view", "status": 200, "body": {"board": {"chances": {"roll": [0.5]}}}}
    unsolved = {"step": "view", "status": 200, "body": {"board": {"chances": None}}}
    assert changes([timing_free(solved)], [timing_free(unsolved)]) == []
    moved = {"step": "view", "status": 200, "body": {"board": {"chances": None, "turn": 1}}}
    assert changes([timing_free(solved)], [timing_free(moved)]) != []
