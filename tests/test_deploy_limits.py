"""The documented deployment states its limits, and the tests run nginx with them
(issue 55: Debian's `worker_connections 768` and systemd's 1024 files held a site to
about 700 sockets, while the benchmark's own 8192 hid it)."""

from __future__ import annotations

import re

from stairgames.bench import site

UNIT = site.ROOT / "docs" / "deploy" / "stairgames@.service"


def test_nginx_holds_thousands_of_proxied_sockets_a_worker() -> None:
    files, connections = site.documented_limits()
    assert connections // 2 >= 4000, "each proxied WebSocket takes two connections"
    assert files >= 2 * connections, "a connection's file, and room for the rest"


def test_the_tests_nginx_runs_with_the_documented_numbers_only() -> None:
    wrapper = site.WRAPPER
    assert "{connections}" in wrapper and "{files}" in wrapper
    assert not re.search(r"worker_connections \d|worker_rlimit_nofile \d", wrapper)


def test_each_server_process_may_hold_as_many_files_as_nginx_sends_it() -> None:
    found = re.search(r"^LimitNOFILE=(\d+)$", UNIT.read_text(), re.MULTILINE)
    assert found is not None, "the unit must raise systemd's 1024 files"
    _, connections = site.documented_limits()
    assert int(found.group(1)) >= connections


def test_the_deployment_guide_names_the_files_that_set_the_limits() -> None:
    guide = (site.ROOT / "docs" / "deploy.md").read_text()
    for name in ("worker_connections", "worker_rlimit_nofile", "LimitNOFILE", "nginx.conf"):
        assert name in guide
