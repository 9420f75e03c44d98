"""The first computer move on a fresh install (issue 34), measured end to end.

Run from the repository root::

    .venv/bin/python -m benchmarks.first_move             # 3 fresh installs, each started twice
    .venv/bin/python -m benchmarks.first_move --rev HEAD  # the last commit instead (a baseline)
    .venv/bin/python -m benchmarks.first_move --levels    # every game and level, cold and warm

**Fresh installs** (the default): each repeat copies this checkout into a new temporary
folder and runs ``make play`` there in a pseudo-terminal (80×24, as a person's), with no
``.venv`` and no numba cache: make creates the virtual environment, installs the locked
packages and starts ``stairgames play stairs --light human --dark medium``. The copy is
the working tree as it is, uncommitted changes included (``git ls-files -co
--exclude-standard``: tracked and untracked files that git does not ignore), so that what
is measured is what is checked out; ``--rev REV`` measures a commit instead (``git clone``
of this repository, then ``git checkout REV`` in the clone). Packages come from a local
folder of wheels (``--wheelhouse``, default ``~/.cache/stairgames-bench/wheels``) with
``PIP_NO_INDEX=1``, so no network is needed and the install's time does not depend on it;
the folder is filled once by ``pip download`` of what ``make play`` installs (this needs
the package index, once). The timings, from the start of ``make``, read off the pty's
output (make echoes each command as it starts it):

- *install*: until make starts ``stairgames prepare`` or ``stairgames play``
  (virtual environment and packages);
- *prepare*: ``stairgames prepare``, where the Makefile still runs it when it installs;
- *board*: until the first prompt (``light (human)>``): what ``make play`` spends
  before a person can move;
- *first reply*: from typing the human's first move (the first legal move, at once: the
  worst case, nobody reads the board) to the computer's ``plays ...`` line;
- then the game goes on (the first legal move each time, typed ``--think`` seconds
  after the computer's reply) until the computer says its compiled code is ready, for
  at most ``--follow`` seconds or to the end of the game: the moves it played with the
  fallback and when (seconds since the start of make) its compiled search took over.

The same copy is then started a second time (``make play`` again, after the first
session's background compiling has ended): *board* and *first reply* again.

**Every game and level** (``--levels``): for each game (Ishigaki Race with 2 and 3
players) and level (random to expert), a fresh Python process on this checkout's
sources plays the terminal's session (``stairgames.terminal.TerminalSession``, with
``background=True`` as at a terminal; the human's moves are the first legal ones, typed
at once) with an empty numba cache (``NUMBA_CACHE_DIR``, *cold*) and then again with the
cache it left (*warm*): seconds until the board (the session is ready), and from the
human's first move to the computer's first reply (from the start, where the computer
moves first). The web server's workers are measured the same way: a fresh process
calls ``stairgames.server.play.computer.choose_move(..., background=True)`` (what a worker
does for a move) on the first position the computer plays, cold and warm.

Each table gives every repeat, the median, the load average (1 min) before and after,
and the cores; background compiling left running by a session is waited for before the
next measurement starts (the machine is shared: compare rows of one run).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stairgames.bench import REPOSITORY

ROOT = REPOSITORY
DEFAULT_WHEELHOUSE = Path.home() / ".cache" / "stairgames-bench" / "wheels"
PROMPT = r"\(human\)> "
REPLY = re.compile(r"plays (\S+) \(\d+\.\d s\)")
READY = "full strength"
STAND_IN = "the fast code has been compiling for"
"""What the terminal says after a move of the weaker stand-in (READY: once it is ready;
``tests/test_first_move.py`` checks both against the terminal's sentences)."""
LEVELS = ("random", "easy", "medium", "hard", "expert")
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("stairs", {}),
    ("twenty_seven", {}),
    ("ishigaki_race", {}),
    ("ishigaki_race", {"players": 3}),
    ("city_of_stairs", {}),
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]")


# ----- a copy of the checkout -----------------------------------------------------------


def copy_checkout(destination: Path, rev: str | None) -> None:
    """This checkout's working tree (tracked and untracked files git does not ignore),
    or the commit ``rev`` (a clone), into ``destination``."""
    if rev is not None:
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(destination)], check=True)
        subprocess.run(["git", "-C", str(destination), "checkout", "--quiet", rev], check=True)
        return
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.exists() or source.is_dir():
            continue  # deleted in the working tree, or a nested repository
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)


def fill_wheelhouse(wheelhouse: Path) -> None:
    """Download what ``make play`` installs (the package's locked dependencies, pip,
    setuptools) into ``wheelhouse``, once (this needs the package index)."""
    if wheelhouse.is_dir() and any(wheelhouse.glob("numba-*.whl")):
        return
    wheelhouse.mkdir(parents=True, exist_ok=True)
    print(f"filling {wheelhouse} (pip download, once)...", flush=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(wheelhouse),
         "-c", str(ROOT / "requirements" / "lock.txt"), str(ROOT), "pip", "setuptools>=77",
         "wheel"],
        check=True,
    )  # fmt: skip


# ----- a program on a pseudo-terminal ---------------------------------------------------


class Pty:
    """``argv`` on a pseudo-terminal of 80×24, its output read with the time it came."""

    def __init__(self, argv: Sequence[str], *, cwd: Path, env: dict[str, str]) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
            start_new_session=True, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.text = ""
        self._raw = b""
        self.mark = 0
        """Where the output not yet waited for starts."""

    def expect(self, pattern: str, timeout: float) -> tuple[float, re.Match[str]]:
        """Wait for ``pattern`` in the output after :attr:`mark`: seconds since the start
        when it appeared, and the match (the mark moves past it).

        :raises TimeoutError: not within ``timeout`` seconds.
        :raises EOFError: the program ended first.
        """
        regex = re.compile(pattern)
        deadline = time.perf_counter() + timeout
        while True:
            found = regex.search(self.text, self.mark)
            if found is not None:
                self.mark = found.end()
                return time.perf_counter() - self.started, found
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no {pattern!r} in:\n{self.text[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError(self.text[-3000:])
            self._raw += chunk
            self.text = ANSI.sub("", self._raw.decode("utf-8", errors="replace"))

    def send(self, line: str) -> float:
        """Type ``line`` and Enter; seconds since the start."""
        os.write(self.master, line.encode() + b"\r")
        return time.perf_counter() - self.started

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(30)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        os.close(self.master)


def wait_for_compilers(folder: Path, limit: float = 600.0) -> None:
    """Wait until no background compiling started under ``folder`` is running (the
    processes of :mod:`stairgames.agents.warming` left by a session that ended)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if not _compilers(folder):
            return
        time.sleep(0.5)


def _compilers(folder: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if b"stairgames.agents.warming" in command and folder in (cwd, *cwd.parents):
            found.append(int(entry.name))
    return found


def load() -> float:
    return os.getloadavg()[0]


# ----- make play on a fresh copy --------------------------------------------------------


def human_move(moves: list[str]) -> str:
    """The first legal move after ``moves`` in Stairs (the human's, typed at once)."""
    import stairgames

    state = stairgames.load("stairs").new_initial_state()
    for move in moves:
        state.apply_move(move)
    return state.action_to_string(state.legal_actions()[0])


def play_once(folder: Path, env: dict[str, str], follow: float, think: float) -> dict[str, Any]:
    """``make play`` in ``folder`` once: the timings (seconds) of its phases."""
    row: dict[str, Any] = {"load_before": load(), "ready_at": None, "fallback_moves": 0}
    pty = Pty(["make", "play"], cwd=folder, env=env)
    try:
        board, _ = pty.expect(PROMPT, 900)
        row["board"] = board
        row["output_before_board"] = pty.text[: pty.mark]
        moves: list[str] = []
        while True:
            if moves:
                time.sleep(think)  # a person reading the board
            move = human_move(moves)
            start = pty.mark
            typed = pty.send(move)
            moves.append(move)
            try:
                replied, found = pty.expect(REPLY.pattern, 120)
                moves.append(found.group(1))
                if "first_reply" not in row:
                    row["first_reply"] = replied - typed
                after, _ = pty.expect(PROMPT, 120)
            except EOFError:  # the game is over
                break
            # from the human's move to the next prompt, lines joined (the terminal breaks
            # long sentences to its width)
            said = " ".join(pty.text[start : pty.mark].split())
            row["fallback_moves"] += STAND_IN in said
            if len(moves) == 2:
                row["first_fallback"] = bool(row["fallback_moves"])
            if READY in said:
                row["ready_at"] = replied
                break
            if after > board + follow:
                break
    finally:
        pty.close()
    row["load_after"] = load()
    return row


def fresh_installs(args: argparse.Namespace) -> None:
    if args.wheelhouse is not None:
        fill_wheelhouse(args.wheelhouse)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "VIRTUAL_ENV"))}
    env.update({"LANG": "C.UTF-8", "TERM": "xterm", "NO_COLOR": "1", "PYTHON": args.python})
    if args.wheelhouse is not None:
        env.update({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(args.wheelhouse)})
    rows = []
    for repeat in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="first-move-") as temporary:
            folder = Path(temporary) / "stairgames"
            copy_checkout(folder, args.rev)
            try:
                first = play_once(folder, env, args.follow, args.think)
                first.update(_phases(first.pop("output_before_board")))
                wait_for_compilers(Path(temporary))
                second = play_once(folder, env, 0.0, args.think)
                second.pop("output_before_board")
            finally:
                wait_for_compilers(Path(temporary))
            rows.append((first, second))
            print(f"repeat {repeat + 1}: {json.dumps([first, second])}", flush=True)
    _report_installs(rows, args)


def _phases(output: str) -> dict[str, Any]:
    """Which commands make ran before the board (the pty output shows each)."""
    return {"prepared_at_install": "stairgames prepare" in output}


def _report_installs(rows: list[tuple[dict[str, Any], dict[str, Any]]], args: Any) -> None:
    print()
    source = (
        f"commit {args.rev}" if args.rev else "working tree (git ls-files -co --exclude-standard)"
    )
    print(f"make play on a fresh copy of the {source}; cores: {os.cpu_count()}")
    print()
    print(
        "| repeat | prepare at install | make play → board (s) | first reply (s) | fallback "
        "| fallback moves | compiled ready at (s) | 2nd start → board (s) | 2nd first reply (s) "
        "| load 1 min |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")

    def cell(value: Any) -> str:
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return f"{value:.1f}" if isinstance(value, float) else str(value)

    for number, (first, second) in enumerate(rows, 1):
        loads = [first["load_before"], first["load_after"], second["load_after"]]
        print(
            f"| {number} | {cell(first['prepared_at_install'])} | {cell(first['board'])} "
            f"| {cell(first['first_reply'])} | {cell(first.get('first_fallback'))} "
            f"| {first['fallback_moves']} | {cell(first['ready_at'])} | {cell(second['board'])} "
            f"| {cell(second['first_reply'])} | {' / '.join(f'{x:.1f}' for x in loads)} |"
        )
    if rows:

        def median(index: int, key: str) -> str:
            return f"{statistics.median(float(row[index][key]) for row in rows):.1f}"

        print(
            f"| median | | {median(0, 'board')} | {median(0, 'first_reply')} | | | "
            f"| {median(1, 'board')} | {median(1, 'first_reply')} | |"
        )
    print()
    print("reproduce: .venv/bin/python -m benchmarks.first_move " + " ".join(sys.argv[1:]))


# ----- every game and level -------------------------------------------------------------

SESSION = r"""
import json, re, sys, time
started = time.perf_counter()
REPLY = re.compile(r"plays \S+ \(\d+\.\d s\)")
import stairgames
from stairgames.terminal import TerminalSession

name, options, level, out = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
game = stairgames.load(name, **options)
seats = ["human"] + [level] * (game.num_players() - 1)
times = {}

class Output:
    def write(self, text):
        if REPLY.search(text) and "reply" not in times and "typed" in times:
            times["reply"] = time.perf_counter() - times["typed"]
        if REPLY.search(text) and "first_computer" not in times:
            times["first_computer"] = time.perf_counter() - started
        return len(text)
    def flush(self):
        pass
    def isatty(self):
        return False

holder = []
def answer(prompt):
    session = holder[0]
    if "board" not in times:
        times["board"] = time.perf_counter() - started
    if "reply" in times or "typed" in times and time.perf_counter() - times["typed"] > 120:
        return "quit"
    state = session.state
    if "typed" not in times:
        times["typed"] = time.perf_counter()
    return state.action_to_string(state.legal_actions()[0])

class Session(TerminalSession):
    def _prepare_players(self):
        holder.append(self)
        super()._prepare_players()
        times["ready"] = time.perf_counter() - started

session = Session(game, seats, seed=1, output=Output(), input_fn=answer, background=True,
                  record_path=None)
try:
    session.run()
except SystemExit:
    pass
times.pop("typed", None)
times["fallback"] = any(a.last_fallback for a in session.agents.values())
json.dump(times, open(out, "w"))
"""

WORKER = """
import json, random, sys, time
started = time.perf_counter()
import stairgames
from stairgames.server.play.computer import choose_move

name, options, level, out = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
game = stairgames.load(name, **options)
state = game.new_initial_state()
rng = random.Random(1)
moves = []
while state.is_chance_node() or state.current_player() == 0:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = state.legal_actions()[0]
    moves.append(state.action_to_string(action))
    state.apply_action(action)
asked = time.perf_counter()
choose_move(name, options, level, state.current_player(), moves, 1, background=True)
json.dump({"move": time.perf_counter() - asked, "total": time.perf_counter() - started},
          open(out, "w"))
"""


def run_cell(code: str, name: str, options: dict[str, Any], level: str, cache: Path,
             folder: Path) -> dict[str, Any]:  # fmt: skip
    """``code`` in a fresh process on this checkout with the numba cache ``cache``."""
    out = folder / "cell.json"
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": str(ROOT / "src"),
        "LANG": "C.UTF-8",
    }
    subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), name, json.dumps(options), level, str(out)],
        check=True, cwd=folder, env=env, stdout=subprocess.DEVNULL, timeout=600,
    )  # fmt: skip
    wait_for_compilers(folder)
    found: dict[str, Any] = json.loads(out.read_text())
    return found


def every_level(args: argparse.Namespace) -> None:
    print(f"cores: {os.cpu_count()}; each cell a fresh process; cold: an empty numba cache")
    print()
    print(
        "| game | level | terminal cold: board / first reply (s) | fallback | terminal warm: "
        "board / first reply (s) | worker cold: first move (s) | worker warm (s) | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, options in GAMES:
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        if args.game and label not in args.game:
            continue
        for level in args.level or LEVELS:
            with tempfile.TemporaryDirectory(prefix="first-move-") as temporary:
                folder = Path(temporary)
                before = load()
                cache = folder / "cache"
                cold = run_cell(SESSION, name, options, level, cache, folder)
                warm = run_cell(SESSION, name, options, level, cache, folder)
                worker_cache = folder / "worker-cache"
                worker_cold = run_cell(WORKER, name, options, level, worker_cache, folder)
                worker_warm = run_cell(WORKER, name, options, level, worker_cache, folder)

                def reply(times: dict[str, Any]) -> str:
                    value = times.get("reply", times.get("first_computer"))
                    return "-" if value is None else f"{value:.1f}"

                print(
                    f"| {label} | {level} | {cold['board']:.1f} / {reply(cold)} "
                    f"| {'yes' if cold['fallback'] else 'no'} "
                    f"| {warm['board']:.1f} / {reply(warm)} | {worker_cold['move']:.1f} "
                    f"| {worker_warm['move']:.1f} | {before:.1f} / {load():.1f} |",
                    flush=True,
                )
    print()
    print("reproduce: .venv/bin/python -m benchmarks.first_move " + " ".join(sys.argv[1:]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="fresh installs (default 3)")
    parser.add_argument("--rev", help="measure this commit (a clone) instead of the working tree")
    parser.add_argument(
        "--wheelhouse",
        type=Path,
        default=DEFAULT_WHEELHOUSE,
        help="local wheels for the install (filled once with pip download)",
    )
    parser.add_argument(
        "--index", action="store_true", help="install from the package index instead of wheels"
    )
    parser.add_argument("--python", default="python3", help="the Python make creates .venv with")
    parser.add_argument(
        "--follow",
        type=float,
        default=120.0,
        help="go on playing until the compiled code is ready, at most this many seconds",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="seconds the human takes for each move after the first (typed at once)",
    )
    parser.add_argument("--levels", action="store_true", help="every game and level instead")
    parser.add_argument("--level", action="append", help="with --levels: only these levels")
    parser.add_argument(
        "--game",
        action="append",
        help="with --levels: only these games, as the table names them ('ishigaki_race players=3')",
    )
    args = parser.parse_args(argv)
    if args.index:
        args.wheelhouse = None
    if args.levels:
        every_level(args)
    else:
        fresh_installs(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
