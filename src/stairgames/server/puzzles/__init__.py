"""Puzzles on the site (issue 52): the rated attempts, the streaks, the daily puzzle."""
