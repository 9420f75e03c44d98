"""Studies over many games: running them at scale and summarising them.

- :mod:`stairgames.analysis.parallel`: :func:`~stairgames.analysis.parallel.run_tasks`,
  independent tasks in this process, over local processes, or on a Ray cluster.
- :mod:`stairgames.analysis.statistics`: Wilson intervals for shares, t intervals for
  means.
- :mod:`stairgames.analysis.plots`: figures with matplotlib (optional: the ``analysis``
  extra), imported only when a figure is asked for.
- :mod:`stairgames.analysis.command`: ``stairgames analyze GAME``.

The games know nothing of this package; a game's own measurements live beside it
(``stairgames.games.city_of_stairs.research.card_use``).
"""
