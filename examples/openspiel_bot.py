"""OpenSpiel's ``MCTSBot`` plays on a stairgames server, over the Bot API.

A model for researchers: any OpenSpiel bot can play people and other bots on the site
this way. The bot's side of the API (the event stream, the game streams, the moves) is
:class:`stairgames.bot_client.Bot`; the only thing this file adds is how a move is
chosen. Each time the bot's seat is to act, the state is rebuilt from the seat's view
(what the seat may know: in City of Stairs, the other seat's hidden card is a stand-in
consistent with everything seen), handed to OpenSpiel through the project's bridge
(:mod:`stairgames.interop.openspiel`) and searched by ``MCTSBot`` with random
rollouts.

    pip install -e '.[rl]'            # open_spiel
    python examples/openspiel_bot.py --server https://example.org --token sgp_... \\
        --simulations 200 [--challenge SOMEONE --game stairs --option size=4] [--games 1]

The token is an API token of scope ``bot:play`` (made on the site's account page;
docs/bots.md). Without ``--challenge`` the bot waits for direct challenges and accepts
them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from stairgames.bot_client import Bot, Chooser
from stairgames.core.game import State
from stairgames.interop.openspiel import load_game


def mcts_chooser(simulations: int = 100, uct_c: float = 2.0) -> Chooser:
    """A chooser for :class:`Bot`: OpenSpiel's ``MCTSBot`` (``simulations`` per move,
    one random rollout each) on the state the seat knows, seeded from the bot's
    generator."""

    def choose(state: State, seat: int, rng: random.Random) -> int:
        game = state.get_game()
        options = dataclasses.asdict(game.options)
        spiel_game = load_game(game.name, **options)
        spiel_state = spiel_game.new_initial_state()
        for taken in state.history():  # the seat's state, move by move (chance too)
            spiel_state.apply_action(taken)
        assert spiel_state.current_player() == seat
        numbers = np.random.RandomState(rng.randrange(1 << 31))
        bot = mcts.MCTSBot(
            spiel_game,
            uct_c,
            simulations,
            mcts.RandomRolloutEvaluator(1, numbers),
            random_state=numbers,
            solve=False,
        )
        action: int = bot.step(spiel_state)
        return action

    return choose


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--games", type=int, help="stop after this many games")
    parser.add_argument("--challenge", metavar="NAME", help="challenge this player first")
    parser.add_argument("--game", help="the game of the challenge")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    challenge = None
    if args.challenge is not None:
        if args.game is None:
            parser.error("--challenge needs --game")
        options: dict[str, Any] = {}
        for item in args.option:
            key, _, value = item.partition("=")
            try:
                options[key] = json.loads(value)
            except ValueError:
                options[key] = value
        challenge = (args.challenge, args.game, options)
    bot = Bot(
        args.server,
        args.token,
        mcts_chooser(args.simulations),
        games=args.games,
        seed=args.seed,
        say=lambda text: print(text, flush=True),
    )
    return bot.run(challenge)


if __name__ == "__main__":
    raise SystemExit(main())
