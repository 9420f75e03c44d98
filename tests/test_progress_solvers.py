"""What the solvers' progress lines count (issue 49, point 4): 27's positions stored
move from the first chunk and end near the total it expects (its tree share sat at
0.0 % until most of the work was done); Ishigaki Race tells every sweep, with its
largest change, and solves the same as before; Stairs reads the positions a part has
searched while its compiled search runs, and can stop it."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import numpy as np
import pytest

from stairgames.games.ishigaki_race.research import maxn
from stairgames.games.ishigaki_race.research.command import _settled_after
from stairgames.games.ishigaki_race.rules import Board
from stairgames.games.stairs import rules as stairs_rules
from stairgames.games.stairs.research import anysize
from stairgames.games.twenty_seven.research.command import expected_positions
from stairgames.games.twenty_seven.research.reduced import Size, initial_line, play_moves
from stairgames.games.twenty_seven.research.retrograde import Progress, solve


@pytest.mark.parametrize("complete", [True, False])
def test_27s_count_moves_from_the_first_chunk_and_ends_near_what_it_expects(
    tmp_path: Path, complete: bool
) -> None:
    size = Size(9, 4)
    expected = expected_positions(size, initial_line(size), complete)
    assert expected is not None
    told: list[Progress] = []
    table = solve(tmp_path, size, complete=complete, chunk=1 << 14, progress=told.append)
    shares = [progress.stored / expected for progress in told]
    assert len(told) >= 10 and table.meta["result"] == 0
    assert 0 < shares[0] < 0.2  # it moves at once, and not by leaps
    assert all(later > earlier for earlier, later in itertools.pairwise(shares))
    assert 0.75 <= shares[-1] <= 1.0  # the estimate is near, and not below, the count
    assert told[0].table_bytes == table.bytes


def test_27_from_another_position_has_no_total_to_show() -> None:
    size = Size(9, 4)
    after = play_moves(initial_line(size), "0:1")
    assert expected_positions(size, after, True) is None


def test_ishigaki_tells_every_sweep_and_solves_the_same() -> None:
    board = Board(goal=12, crumbling=frozenset({5, 9}))
    told: list[tuple[int, float]] = []
    watched = maxn.compute(board, 3, progress=lambda sweeps, change: told.append((sweeps, change)))
    plain = maxn.compute(board, 3)
    assert [sweeps for sweeps, _ in told] == list(range(1, watched.sweeps + 1))
    assert told[-1][1] < maxn.TOLERANCE <= told[-2][1]
    assert np.array_equal(watched.race, plain.race) and watched.sweeps == plain.sweeps


def test_the_sweeps_left_follow_the_fall_of_the_change() -> None:
    assert _settled_after(10, [1e-2, 1e-3, 1e-4]) == 10 + 6  # a tenth a sweep to 1e-10
    assert _settled_after(10, [1e-3, 1e-2]) is None  # rising: nothing to tell
    assert _settled_after(10, [1e-2]) is None


def test_a_stairs_part_shows_its_positions_and_a_stop_ends_its_search() -> None:
    solver = anysize.BoardSolver(5, table_bits=16)
    board = stairs_rules.apply_move(
        stairs_rules.initial_board(5),
        stairs_rules.legal_moves(stairs_rules.initial_board(5), "L")[0],
    )
    seen: list[int] = []
    outcome: list[object] = []

    def search() -> None:
        try:
            outcome.append(solver.wins(board))
        except anysize.UnsolvedError as error:
            outcome.append(error)

    searcher = threading.Thread(target=search)
    searcher.start()
    while len(seen) < 3 or seen[-1] <= seen[0]:
        searcher.join(0.05)
        assert searcher.is_alive(), "a 5×5 part takes minutes"
        seen.append(solver.searching())
    while searcher.is_alive():
        solver.stop()
        searcher.join(0.05)
    assert isinstance(outcome[0], anysize.UnsolvedError)
    assert seen[-1] > seen[0] >= 0
