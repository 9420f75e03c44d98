"""The level ladder: each level against the next: ``python -m benchmarks.ladder``.

The code, its options and what it measures: :mod:`stairgames.bench.ladder` (shared with
the tests, which never import ``benchmarks/``).
"""

from __future__ import annotations

import sys

from stairgames.bench.ladder import main

if __name__ == "__main__":
    sys.exit(main())
