"""Stairs move-tree sizes (perft), pinned and checked against an independent move generator."""

from __future__ import annotations

import stairgames
from stairgames.core.testing import perft
from tests.test_stairs_properties import oracle_moves


def oracle_perft(stacks: tuple[str, ...], colour: str, depth: int) -> int:
    """Perft from plain stacks with the oracle generator (no pie rule, no passes at this depth)."""
    if depth == 0:
        return 1
    total = 0
    for src, dst in oracle_moves(stacks, colour):
        after = list(stacks)
        after[dst] += after[src][-1]
        after[src] = after[src][:-1]
        total += oracle_perft(tuple(after), "D" if colour == "L" else "L", depth - 1)
    return total


def test_perft_from_the_initial_position():
    # moves of play: offers to end by agreement (S7) are no moves
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    stacks = state.position().split()[0]
    assert [perft(state, d) for d in (1, 2)] == [110, 11024]
    board = tuple(
        "" if cell == "." else cell
        for rank in reversed(stacks.split("/"))
        for cell in rank.split(",")
    )
    assert [oracle_perft(board, "L", d) for d in (1, 2)] == [110, 11024]


def test_perft_with_the_pie_rule_adds_one_swap_after_each_first_move():
    state = stairgames.load("stairs", pie_rule=True, agreement=False).new_initial_state()
    assert perft(state, 2) == 11024 + 110


def test_perft_with_agreement_adds_one_offer_after_each_first_move():
    """S7: after any first move a piece has climbed, so the reply may be an offer."""
    state = stairgames.load("stairs").new_initial_state()
    assert perft(state, 2) == 11024 + 110
