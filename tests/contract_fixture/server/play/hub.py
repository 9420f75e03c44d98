"""Keeps the rules, but closes an import cycle with :mod:`.fanout` (inside play)."""


class Hub:
    def fanout(self) -> object:
        from tests.contract_fixture.server.play import fanout

        return fanout
