"""Our player against OpenSpiel's ``MCTSBot``: ``python -m benchmarks.players_openspiel``.

The code, its options and what it measures: :mod:`stairgames.bench.players_openspiel` (shared with
the tests, which never import ``benchmarks/``).
"""

from __future__ import annotations

import sys

from stairgames.bench.players_openspiel import main

if __name__ == "__main__":
    sys.exit(main())
