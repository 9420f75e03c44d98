"""Issue 54: the installable app behind nginx as docs/deploy.md shows it (``docs/deploy/
nginx-stairgames.conf``, run by :func:`stairgames.bench.site.nginx` from a temporary
folder with a self-signed certificate): the service worker, the manifest and the icons
come over https, from the site's root, with their content types and the service
worker's ``Service-Worker-Allowed``. Skipped, saying why, without nginx or openssl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stairgames.bench.site import SiteMissingError, nginx, require_nginx
from tests.postgresql_helpers import free_port
from tests.serve_helpers import request, serving


@pytest.mark.slow
def test_the_worker_and_the_manifest_come_over_https_with_their_types(tmp_path: Path) -> None:
    try:
        require_nginx()
    except SiteMissingError as exc:
        pytest.skip(f"{exc}: skipped")
    arguments = ["--computer-workers", "0", "--forwarded-allow-ips", "127.0.0.1"]
    with (
        serving(tmp_path / "backend", free_port(), arguments) as backend,
        nginx(tmp_path / "nginx", [backend.port], processes=1) as proxy,
    ):
        assert proxy.url.startswith("https://")
        status, body, headers = request("GET", f"{proxy.url}/sw.js")
        assert status == 200
        assert headers["content-type"].startswith("text/javascript")
        assert headers["service-worker-allowed"] == "/"
        assert b'addEventListener("fetch"' in body and b'const VERSION = "dev"' not in body
        status, body, headers = request("GET", f"{proxy.url}/manifest.webmanifest")
        assert status == 200 and headers["content-type"] == "application/manifest+json"
        manifest = json.loads(body)
        assert manifest["display"] == "standalone"
        for icon in manifest["icons"]:
            status, body, headers = request("GET", proxy.url + icon["src"])
            assert status == 200 and headers["content-type"] == "image/png"
        status, _, headers = request("GET", f"{proxy.url}/static/offline.html")
        assert status == 200 and headers["content-type"].startswith("text/html")
