"""Ratings on a scale people know (issue 51, item 3): OpenSkill's μ shown as chess-like
points, a new player at 1500 with "?", a first game moving it by tens of points, and a
difference of 400 points meaning what it means for Elo (people/ratings.py)."""

from __future__ import annotations

import math

from stairgames.server.people.ratings import (
    BETA,
    POINTS_PER_MU,
    PROVISIONAL_GAMES,
    START_MU,
    START_POINTS,
    RatedResult,
    Rating,
    RatingBook,
    points,
    signed,
)


def elo_expected(difference: float) -> float:
    """Elo's expected score of the player ``difference`` points above the other."""
    return float(1.0 / (1.0 + 10.0 ** (-difference / 400.0)))


def test_a_new_player_shows_1500_with_a_question_mark() -> None:
    new = Rating()
    assert (new.mu, new.sigma) == (START_MU, START_MU / 3.0)  # OpenSkill's own start
    assert new.points == START_POINTS == 1500 and new.shown() == "1500?"
    assert new.json()["rating"] == 1500 and new.json()["shown"] == "1500?"


def test_a_first_game_moves_both_by_tens_of_points_and_evenly() -> None:
    changes = RatingBook().add(RatedResult("stairs", ("ann", "bob"), (1.0, -1.0)))
    won = changes["ann"][1].change_from(changes["ann"][0])
    lost = changes["bob"][1].change_from(changes["bob"][0])
    assert 10 <= won < 100 and won == -lost
    assert changes["ann"][1].shown() == f"{1500 + won}?"


def test_a_settled_rating_has_no_question_mark() -> None:
    settled = Rating(mu=30.0, sigma=2.0, games=PROVISIONAL_GAMES)
    assert settled.shown() == str(points(30.0)) and not settled.shown().endswith("?")
    assert Rating(mu=30.0, sigma=2.0, games=PROVISIONAL_GAMES - 1).shown().endswith("?")


def plackett_luce_win(mu: float, other: float, sigmas: tuple[float, float] = (0.0, 0.0)) -> float:
    """The chance that the player of ``mu`` places first of two under the Plackett–Luce
    model OpenSkill rates by: exp(μ/c) / (exp(μ/c) + exp(μ'/c)), c² = Σ (σ² + β²)."""
    c = math.sqrt(sum(sigma**2 + BETA**2 for sigma in sigmas))
    return math.exp(mu / c) / (math.exp(mu / c) + math.exp(other / c))


def test_400_points_mean_ten_to_one_as_in_elo() -> None:
    """Between two settled players (σ ≈ 0) whose ratings shown are 400 points apart the
    stronger wins 10 games in 11, as in Elo; and so for any difference."""
    strong, weak = START_MU + 400.0 / POINTS_PER_MU, START_MU
    assert points(strong) - points(weak) == 400
    assert math.isclose(plackett_luce_win(strong, weak), 10 / 11)
    for difference in (-300, 50, 200, 800):
        mu = START_MU + difference / POINTS_PER_MU
        assert math.isclose(plackett_luce_win(mu, START_MU), elo_expected(difference))


def test_the_model_rates_by_that_chance() -> None:
    """OpenSkill's update moves a winner up by σ²/c · (1 − p), p the chance above: the
    chance the scale is made from is the one the ratings are computed with."""
    ann, bob = Rating(mu=28.0, sigma=5.0), Rating(mu=24.0, sigma=6.0)
    book = RatingBook()
    book.set("stairs", "ann", ann)
    book.set("stairs", "bob", bob)
    after = book.add(RatedResult("stairs", ("ann", "bob"), (1.0, -1.0)))["ann"][1]
    # OpenSkill first widens each σ by τ (25/300, a fiftieth of β), then rates
    sigmas = (math.hypot(ann.sigma, BETA / 50), math.hypot(bob.sigma, BETA / 50))
    c = math.sqrt(sum(sigma**2 + BETA**2 for sigma in sigmas))
    p = plackett_luce_win(ann.mu, bob.mu, sigmas)
    assert math.isclose(after.mu - ann.mu, sigmas[0] ** 2 / c * (1 - p), rel_tol=1e-6)


def test_the_deviation_is_sigma_in_points() -> None:
    assert Rating().deviation == round(POINTS_PER_MU * START_MU / 3.0) == 246
    assert Rating(sigma=1.0).deviation == round(POINTS_PER_MU)


def test_points_round_to_whole_numbers_and_changes_add_up() -> None:
    before, after = Rating(mu=25.4), Rating(mu=25.6)
    assert (before.points, after.points) == (1512, 1518)
    assert before.points + after.change_from(before) == after.points


def test_a_change_is_signed_with_a_real_minus() -> None:
    assert [signed(12), signed(-12), signed(0)] == ["+12", "−12", "±0"]


def test_stored_values_are_unchanged_only_the_shown_ones_move() -> None:
    rating = Rating(mu=27.635, sigma=8.066, games=1)
    stored = rating.json()
    assert (stored["mu"], stored["sigma"], stored["games"]) == (27.635, 8.066, 1)
    assert stored["rating"] == points(27.635) == 1578 and stored["shown"] == "1578?"
    assert stored["deviation"] == 238
