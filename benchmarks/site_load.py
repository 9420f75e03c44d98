"""Load and faults of the whole site: ``python -m benchmarks.site_load``.

The code, its options and what it measures: :mod:`stairgames.bench.site_load` (shared with
the tests, which never import ``benchmarks/``).
"""

from __future__ import annotations

import contextlib

from stairgames.bench.site_load import main

if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
