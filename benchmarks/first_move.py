"""The first computer move on a fresh install: ``python -m benchmarks.first_move``.

The code, its options and what it measures: :mod:`stairgames.bench.first_move` (shared with
the tests, which never import ``benchmarks/``).
"""

from __future__ import annotations

import sys

from stairgames.bench.first_move import main

if __name__ == "__main__":
    sys.exit(main())
