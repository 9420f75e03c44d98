"""Run by tests/test_db_rollback.py under a release's own code (old or new): a match
made and moved on the SQLite database of a data folder through that release's app.

``python release_script.py DATA create`` prints ``{"match", "tokens", "history"}``;
``python release_script.py DATA move MATCH TOKEN0 TOKEN1`` plays the next move for the
seat to act and prints ``{"history"}``. It imports ``tests.server_helpers`` from the
release's own folder (put first on ``sys.path`` by the caller), so each release speaks
its own protocol.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.server_helpers import connect, new_match, running, state_at_rest, token_of


def _play_next(client: Any, match: str, tokens: list[str]) -> list[str]:
    """The seat to act plays its first legal move; the history after it."""
    with connect(client, f"/ws/matches/{match}?token={tokens[0]}") as watcher:
        view = state_at_rest(watcher)
    mover = tokens[view["to_act"]]
    with connect(client, f"/ws/matches/{match}?token={mover}") as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        while True:
            after: dict[str, Any] = ws.receive_json()
            if after.get("type") == "state" and after["event"] > view["event"]:
                return list(after["history"])


def main(argv: list[str]) -> int:
    data, action = Path(argv[0]), argv[1]
    with running(data, loop_guard=False) as client:
        if action == "create":
            created = new_match(client, "stairs", ["human", "human"])
            tokens = [token_of(created, 0), token_of(created, 1)]
            history = _play_next(client, created["match"], tokens)
            print(json.dumps({"match": created["match"], "tokens": tokens, "history": history}))
        else:
            history = _play_next(client, argv[2], argv[3:5])
            print(json.dumps({"history": history}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
