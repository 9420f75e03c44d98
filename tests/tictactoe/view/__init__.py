"""Tic-tac-toe's views: the terminal drawing, the browser's board view and ``board.js``."""
