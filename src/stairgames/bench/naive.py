"""Deliberately naive readings of the rules of Stairs and 27: the yardstick of engine speed.

Each class reads its rulebook (``/work/shared/rulebooks``, rulings in ``RULINGS.md``)
the plainest way: the board as lists of lists, every question answered by scanning
the board again, nothing cached, no move encoding. They are what a programmer
writes in an afternoon, so "the protocol is N times the naive reading" says how
much the reference engines gain over that (issue 18). They are not used by the
package; ``tests/test_naive_readings.py`` checks that they agree with the engines
on many random games, so that the ratio compares the same games. In particular the
package writes S3 (only the lowest movable pieces move) once for Python
(``rules.lowest_steps``) and once for compiled code (``lowest_sources`` in
``stairs/research/endgame_kernel.py``); :meth:`NaiveStairs.legal_moves` reads it a third
time on purpose, apart from both.

Moves are text in the engines' notation (``c3-d4`` and ``pass``; ``3:2`` and
``pass``), which is what the differential test compares.
"""

from __future__ import annotations

import random

FILES = "abcdef"
EIGHT_DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def other(colour: str) -> str:
    """The other player's colour in either game (``L``/``D`` or ``W``/``B``)."""
    return {"L": "D", "D": "L", "W": "B", "B": "W"}[colour]


class NaiveStairs:
    """Stairs without pie rule or agreement (S1-S5): light to move first."""

    def __init__(self) -> None:
        # board[rank][file] is a stack, bottom first; a1 (file 0, rank 0) is dark (S1).
        self.board = [
            [["D" if (file + rank) % 2 == 0 else "L"] for file in range(6)] for rank in range(6)
        ]
        self.to_move = "L"
        self.last_arrival: str | None = None

    def movable_moves(self, colour: str) -> list[tuple[int, int, int, int]]:
        """S2: (file, rank, to_file, to_rank) for every top piece of ``colour`` that may
        step onto a neighbouring stack of its own height."""
        moves = []
        for rank in range(6):
            for file in range(6):
                stack = self.board[rank][file]
                if not stack or stack[-1] != colour:
                    continue
                for df, dr in EIGHT_DIRECTIONS:
                    to_file, to_rank = file + df, rank + dr
                    on_board = 0 <= to_file < 6 and 0 <= to_rank < 6
                    if on_board and len(self.board[to_rank][to_file]) == len(stack):
                        moves.append((file, rank, to_file, to_rank))
        return moves

    def legal_moves(self) -> list[str]:
        """S3 (only the lowest movable pieces) and S4 (pass when stuck, none at the end)."""
        moves = self.movable_moves(self.to_move)
        if not moves:
            return ["pass"] if self.movable_moves(other(self.to_move)) else []
        lowest = min(len(self.board[rank][file]) for file, rank, _, _ in moves)
        return [
            f"{FILES[f]}{r + 1}-{FILES[tf]}{tr + 1}"
            for f, r, tf, tr in moves
            if len(self.board[r][f]) == lowest
        ]

    def is_terminal(self) -> bool:
        return not self.movable_moves("L") and not self.movable_moves("D")

    def apply(self, move: str) -> None:
        if move != "pass":
            source, target = move.split("-")
            file, rank = FILES.index(source[0]), int(source[1]) - 1
            to_file, to_rank = FILES.index(target[0]), int(target[1]) - 1
            piece = self.board[rank][file].pop()
            self.board[to_rank][to_file].append(piece)
            highest = max(len(stack) for row in self.board for stack in row)
            if len(self.board[to_rank][to_file]) == highest:
                self.last_arrival = piece
        self.to_move = other(self.to_move)

    def returns(self) -> list[float]:
        """S5: most stacks of the greatest height; equal: the last to arrive there loses."""
        stacks = [stack for row in self.board for stack in row]
        highest = max(len(stack) for stack in stacks)
        light = sum(1 for s in stacks if len(s) == highest and s[-1] == "L")
        dark = sum(1 for s in stacks if len(s) == highest and s[-1] == "D")
        if light != dark:
            winner = "L" if light > dark else "D"
        else:
            assert self.last_arrival is not None
            winner = other(self.last_arrival)
        return [1.0, -1.0] if winner == "L" else [-1.0, 1.0]


class NaiveTwentySeven:
    """27 (T1-T7): white (seat 0) on field 0 moving up, black on field 8 moving down."""

    def __init__(self, variant: str = "basic") -> None:
        self.variant = variant
        self.line = [["R"] + ["W"] * 9] + [["G"] for _ in range(7)] + [["R"] + ["B"] * 9]
        self.to_move = "W"

    def moves_of(self, colour: str) -> list[tuple[int, int]]:
        """T2/T3 (+T6/T7): (field, count) for every move of ``colour``."""
        distance = sum(1 for stack in self.line if stack[-1] == colour)
        step = distance if colour == "W" else -distance
        moves = []
        for field, stack in enumerate(self.line):
            if stack[-1] != colour or not 0 <= field + step < len(self.line):
                continue
            base_moves = self.variant == "expert" or (
                self.variant == "advanced" and stack[0] == "G"
            )
            movable = len(stack) if base_moves else len(stack) - 1
            for count in range(1, movable + 1):
                moves.append((field, count))
        return moves

    def legal_moves(self) -> list[str]:
        """T4: pass when stuck while the other player can move; nothing at the end."""
        moves = self.moves_of(self.to_move)
        if not moves:
            return ["pass"] if self.moves_of(other(self.to_move)) else []
        return [f"{field}:{count}" for field, count in moves]

    def is_terminal(self) -> bool:
        return not self.moves_of("W") and not self.moves_of("B")

    def apply(self, move: str) -> None:
        if move != "pass":
            field, count = (int(part) for part in move.split(":"))
            distance = sum(1 for stack in self.line if stack[-1] == self.to_move)
            target = field + distance if self.to_move == "W" else field - distance
            moving = self.line[field][len(self.line[field]) - count :]
            del self.line[field][len(self.line[field]) - count :]
            self.line[target].extend(moving)
            if not self.line[field]:
                del self.line[field]
        self.to_move = other(self.to_move)

    def returns(self) -> list[float]:
        """T5: discs above the base on each target field; higher wins, equal draws."""
        white, black = len(self.line[-1]) - 1, len(self.line[0]) - 1
        if white == black:
            return [0.0, 0.0]
        return [1.0, -1.0] if white > black else [-1.0, 1.0]


NaiveGame = NaiveStairs | NaiveTwentySeven


def naive_random_game(game: NaiveGame, rng: random.Random) -> list[float]:
    """Play ``game`` to the end with uniformly random moves; its returns."""
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_moves()))
    return game.returns()
