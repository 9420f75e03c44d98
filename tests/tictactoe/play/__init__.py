"""Tic-tac-toe's computer players' code: an evaluation and an observation tensor."""
