"""Tic-tac-toe, a tiny fifth game in the shape of every game package (docs/architecture.md).

The engine at the top (``rules``, ``notation``, ``position``, ``game``: core only), then
``view/`` (terminal drawing, browser board view, ``board.js``, its message ids) and
``play/`` (evaluation, observation tensor), named in :data:`SPEC` by lazy
``"module:attribute"`` references. A real game calls ``register(SPEC)`` here, when its
package is imported; this one is registered by the tests that use it
(``tests/test_fifth_game.py``) and forgotten after them, so that no other test sees it.
"""

from stairgames.core.registry import GameSpec
from tests.tictactoe.game import TicTacToeGame, TicTacToeOptions, TicTacToeState
from tests.tictactoe.view.board import WEB_ASSETS, board_view
from tests.tictactoe.view.terminal import render_terminal

__all__ = ["SPEC", "TicTacToeGame", "TicTacToeOptions", "TicTacToeState"]

SPEC = GameSpec(
    name="tictactoe",
    title="Tic-tac-toe",
    game_class=TicTacToeGame,
    options_class=TicTacToeOptions,
    render=render_terminal,
    summary="2 players, a 3×3 board: three in a row wins.",
    aliases=("tic_tac_toe", "noughts_and_crosses"),
    rules_summary=(
        "X and O take turns to put a mark on an empty cell; X begins.",
        "Three marks in a row, column or diagonal win; a full board is a draw.",
    ),
    play_minutes=(1, 1),
    player_hooks="tests.tictactoe.play.evaluate:HOOKS",
    observation_tensor="tests.tictactoe.play.tensor:TENSOR",
    web_view=board_view,
    web_assets=WEB_ASSETS,
    browser_messages="tests.tictactoe.view.messages:BROWSER_MESSAGES",
)
"""Everything shared code needs to know about tic-tac-toe."""
