"""The hub is built whole (server/play/hub.py): what it tells and asks of the domains
above it (``HubNeighbours``) and the server processes alive are given when it is made,
and nothing of it is set afterwards."""

from __future__ import annotations

import asyncio
from pathlib import Path

from stairgames.server.base.limits import LiveProcesses
from stairgames.server.base.store import Store, make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.play.computer import ComputerPool
from stairgames.server.play.hub import Hub, HubNeighbours
from stairgames.server.play.match import Match
from stairgames.server.play.matches import MatchService


def _service(tmp_path: Path) -> MatchService:
    engine = make_engine(f"sqlite:///{tmp_path / 'hub.db'}")
    upgrade(engine)
    return MatchService(Store(engine), ("random",))


def test_the_neighbours_given_are_told_and_asked(tmp_path: Path) -> None:
    service = _service(tmp_path)
    created = service.create("stairs", {"size": 3}, ["human", "human"])
    told: list[str] = []
    neighbours = HubNeighbours()
    neighbours.after_change.append(lambda match: told.append(match.id))
    neighbours.seat_names = lambda match_id: {0: f"ann of {match_id}"}
    hub = Hub(service, ComputerPool(0), neighbours=neighbours)

    async def scenario(match: Match) -> dict[int, str]:
        await hub.changed(match, think=False)
        return await hub.names_of(match.id)

    names = asyncio.run(scenario(created.match))
    assert told == [created.match.id]
    assert names == {0: f"ann of {created.match.id}"}


def test_a_hub_made_with_the_live_processes_forgets_those_gone_after_each_read(
    tmp_path: Path,
) -> None:
    service = _service(tmp_path)
    live = LiveProcesses(service.store.engine)
    hub = Hub(service, ComputerPool(0), live_processes=live)
    assert hub.live_processes is live
    assert live.after_read == [hub.forget_processes_gone]
