"""The learning example runs end to end (a few seconds of training, a few arena games)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import stairgames

pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install stairgames[rl])")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install stairgames[rl])")

ROOT = Path(stairgames.__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "learn_twenty_seven.py"


@pytest.mark.slow
def test_learning_example_trains_and_reports_win_rates_before_and_after():
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
        "OMP_NUM_THREADS": "1",
    }
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--minutes", "0.02", "--games", "2", "--seed", "3"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("before training: against random ")
    assert "trained on " in lines[1]
    assert lines[2].startswith("after training:  against random ")
    assert "against easy" in lines[2]
