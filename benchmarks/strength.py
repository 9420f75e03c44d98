"""The strength figures' table of files of games: ``python -m benchmarks.strength``.

The code, its options and what it measures: :mod:`stairgames.bench.strength` (shared with
the tests, which never import ``benchmarks/``).
"""

from __future__ import annotations

import sys

from stairgames.bench.strength import main

if __name__ == "__main__":
    sys.exit(main())
