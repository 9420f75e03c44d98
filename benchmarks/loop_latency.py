"""Whether a slow database slows the server's event loop: ``python -m benchmarks.loop_latency``.

The code, its options and what it measures: :mod:`stairgames.bench.loop_latency` (shared with
the tests, which never import ``benchmarks/``).
"""

from __future__ import annotations

from stairgames.bench.loop_latency import main

if __name__ == "__main__":
    main()
