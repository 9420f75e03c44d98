"""``stairgames solve stairs``: small boards solved from the start, larger ones refused."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from stairgames.cli import main


def test_solve_stairs_4x4_prints_dark_wins_and_saves_it(tmp_path, capsys):
    assert main(["solve", "stairs", "--size", "4", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "4×4 Stairs, without the pie rule: dark (the second player) wins" in printed
    assert "winning first moves: none" in printed
    saved = json.loads((tmp_path / "stairs-4.json").read_text(encoding="utf-8"))
    assert saved["winner"] == "D" and len(saved["first_moves"]) == 42


def test_solve_stairs_3x3_lists_lights_winning_first_moves(tmp_path, capsys):
    assert main(["solve", "stairs", "--size", "3", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "light (the first player) wins" in printed
    assert "b1-b2" in printed and "b1-c2" not in printed


def test_solve_stairs_with_the_pie_rule_second_player_wins(tmp_path, capsys):
    assert main(["solve", "stairs", "--size", "3", "--pie-rule", "--out", str(tmp_path)]) == 0
    assert "with the pie rule: the second player wins" in capsys.readouterr().out
    assert (tmp_path / "stairs-3-pie.json").exists()


@pytest.mark.parametrize(
    ("size", "message"), [("5", "add --try-larger"), ("6", "far beyond one machine")]
)
def test_solve_stairs_refuses_boards_beyond_reach(tmp_path, capsys, size, message):
    assert main(["solve", "stairs", "--size", size, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


@pytest.mark.slow
def test_solve_stairs_in_parts_over_processes_agrees_with_one_search(tmp_path, capsys):
    one = tmp_path / "one"
    parts = tmp_path / "parts"
    assert main(["solve", "stairs", "--size", "3", "--out", str(one)]) == 0
    argv = ["solve", "stairs", "--size", "3", "--parts", "--jobs", "2", "--out", str(parts)]
    assert main(argv) == 0
    whole = json.loads((one / "stairs-3.json").read_text(encoding="utf-8"))
    split = json.loads((parts / "stairs-3.json").read_text(encoding="utf-8"))
    assert split["first_moves"] == whole["first_moves"]
    assert split["winning_first_moves"] == whole["winning_first_moves"]


def test_the_27_solver_refuses_to_be_split(tmp_path, capsys):
    argv = ["solve", "twenty_seven", "--fields", "3", "--discs", "1", "--jobs", "2"]
    assert main([*argv, "--out", str(tmp_path)]) == 2
    assert "runs in one process" in capsys.readouterr().err


def test_solving_in_parts_keeps_each_part_and_resume_goes_on(tmp_path, capsys):
    argv = ["solve", "stairs", "--size", "4", "--parts", "--out", str(tmp_path)]
    assert main(argv) == 0
    record = tmp_path / "stairs-4.parts.json"
    parts = json.loads(record.read_text(encoding="utf-8"))
    assert len(parts) == 12 and {part["winner"] for part in parts} == {"D"}
    assert sum(len(part["moves"]) for part in parts) == 42
    err = capsys.readouterr().err
    assert "4×4: 12 groups of symmetric first moves, 0 solved before" in err
    assert "parts, " in err and "] b1-b2 a2-b2 d3-c3 c4-c3: dark wins" in err
    assert "[12/12 parts" in err
    # a run that stopped after two parts: --resume solves only the ten others
    record.write_text(json.dumps(parts[:2]), encoding="utf-8")
    assert main([*argv, "--resume"]) == 0
    printed = capsys.readouterr()
    assert printed.err.count("dark wins") == 10
    assert "2 solved before" in printed.err
    assert "winning first moves: none" in printed.out
    assert len(json.loads(record.read_text(encoding="utf-8"))) == 12


def test_a_broken_record_of_parts_is_refused_with_its_name(tmp_path, capsys):
    (tmp_path / "stairs-3.parts.json").write_text("[{}]", encoding="utf-8")
    argv = ["solve", "stairs", "--size", "3", "--parts", "--resume", "--out", str(tmp_path)]
    assert main(argv) == 2
    assert "stairs-3.parts.json is not a record of solved parts" in capsys.readouterr().err


WORKER_TELLS = """
import os, sys

if "--multiprocessing-fork" in sys.argv and "STAIRGAMES_TEST_TASKS" in os.environ:
    def _tell(event, args, told=[]):
        if event == "pickle.find_class" and str(args[0]).startswith("stairgames.") and not told:
            told.append(True)
            fifo = os.open(os.environ["STAIRGAMES_TEST_TASKS"], os.O_WRONLY)
            os.write(fifo, f"{os.getpid()}\\n".encode())
            os.close(fifo)

    sys.addaudithook(_tell)
"""
"""A ``sitecustomize`` for the solve's processes: a worker process (multiprocessing's
``--multiprocessing-fork``) writes its pid to the FIFO ``$STAIRGAMES_TEST_TASKS`` when it
unpickles its first stairgames object, that is when it takes its first task (the pool
is then running, and its workers are searching)."""


def _workers_taking_tasks(fifo: int, count: int, timeout: float) -> set[int]:
    """The pids of the first ``count`` workers that tell ``fifo`` they took a task,
    waiting for them (failing after ``timeout`` seconds with none or too few)."""
    told = b""
    deadline = time.monotonic() + timeout
    while len(pids := {int(line) for line in told.split()}) < count:
        ready, _, _ = select.select([fifo], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"{len(pids)} of {count} workers took a task within {timeout} s"
        told += os.read(fifo, 4096)
    return pids


def _wait_until_ended(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` has ended (waiting for it up to ``timeout`` seconds)."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([handle], [], [], timeout)
        return bool(ready)
    finally:
        os.close(handle)


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on processes with pidfds")
@pytest.mark.slow
def test_killing_a_solve_in_parts_stops_its_workers_and_keeps_the_record(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(WORKER_TELLS, encoding="utf-8")
    os.mkfifo(tmp_path / "tasks")
    fifo = os.open(tmp_path / "tasks", os.O_RDWR | os.O_NONBLOCK)  # no writer waits
    paths = [str(tmp_path / "site"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "STAIRGAMES_TEST_TASKS": str(tmp_path / "tasks"),
    }
    argv = ["solve", "stairs", "--size", "5", "--try-larger", "--jobs", "2"]
    command = [sys.executable, "-m", "stairgames", *argv, "--out", str(tmp_path / "out")]
    solving = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    try:
        # both workers search 5×5 parts (each takes many minutes) when the solve is killed
        workers = _workers_taking_tasks(fifo, 2, timeout=120)
        solving.send_signal(signal.SIGTERM)
        _, err = solving.communicate(timeout=60)
    finally:
        solving.kill()
        os.close(fifo)
    assert solving.returncode == 130, err
    assert "Interrupted: the parts solved are kept" in err
    assert all(_wait_until_ended(pid, timeout=60) for pid in workers)
    record = tmp_path / "out" / "stairs-5.parts.json"
    assert json.loads(record.read_text(encoding="utf-8")) == []


def test_5x5_with_the_pie_rule_follows_from_its_parts_when_they_are_all_kept(tmp_path, capsys):
    from stairgames.games.stairs.research import anysize

    groups = anysize.first_move_classes(5)
    kept = [
        {"moves": list(moves), "winner": "L" if index == 0 else "D", "nodes": 5, "seconds": 1.0}
        for index, moves in enumerate(groups)
    ]
    (tmp_path / "stairs-5.parts.json").write_text(json.dumps(kept), encoding="utf-8")
    argv = ["solve", "stairs", "--size", "5", "--try-larger", "--pie-rule", "--resume"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr()
    assert "10 solved before" in printed.err
    assert "5×5 Stairs, with the pie rule: the second player wins" in printed.out
    pie = json.loads((tmp_path / "stairs-5-pie.json").read_text(encoding="utf-8"))
    plain = json.loads((tmp_path / "stairs-5.json").read_text(encoding="utf-8"))
    assert sorted(plain["winning_first_moves"]) == sorted(groups[0])
    assert pie["first_moves"] == plain["first_moves"] and pie["nodes"] == 50
