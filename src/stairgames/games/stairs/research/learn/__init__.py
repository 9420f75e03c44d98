"""Stairs' learned evaluation (issue 56): a small network that judges a 6×6 position.

- :mod:`.net`: the network's shape, its weights on disk (``value.npz`` and
  ``value.json`` beside this file: the shipped ones) and its forward pass in numpy;
- :mod:`.kernel`: the inputs of a position array and the same forward pass compiled
  (numba), and the compiled tree search whose leaves it values (``mcts:net=1``);
- :mod:`.priors`: the policy head's move priors compiled, and the search they guide by
  PUCT (``mcts:net=1,policy=1``; the head is ``policy.npz`` / ``policy.json``);
- :mod:`.selfplay`: games of the compiled search against itself, the positions, their
  labels and the policy's targets (the root's visit shares);
- :mod:`.train`: the training (JAX, the optional extra ``train``; never needed to play);
- :mod:`.command`: ``stairgames train stairs``;
- :mod:`.signal`: what the network knows of proven positions, set against random
  playouts (``python -m stairgames.games.stairs.research.learn.signal``).
"""
