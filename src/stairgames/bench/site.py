"""The whole site on loopback, as ``docs/deploy.md`` deploys it: PostgreSQL, ``stairgames
serve`` processes on it, and nginx running ``docs/deploy/nginx-stairgames.conf`` in
front (its ports, certificate and logs replaced; nothing else). For
``benchmarks/site_load.py`` and ``tests/test_site_faults.py``; ``tests/test_deploy_nginx.py``
runs :func:`nginx` alone.

:func:`running_site` starts it all and stops it all. ``servers`` processes, each with
``--workers`` worker processes, each a ``server`` line of nginx's ``upstream``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from stairgames.bench import REPOSITORY
from stairgames.bench.postgresql import PostgreSQL, free_port, postgresql_server

ROOT = REPOSITORY
SITE_CONFIG = ROOT / "docs" / "deploy" / "nginx-stairgames.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
ENTRY = "import sys; from stairgames.cli import main; sys.exit(main())"
READY_SECONDS = 180.0

MAIN_CONFIG = ROOT / "docs" / "deploy" / "nginx.conf"
"""The documented /etc/nginx/nginx.conf: its limits are the ones nginx runs with here."""

WRAPPER = """\
{user}
worker_processes {processes};
worker_rlimit_nofile {files};
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections {connections}; }}
http {{
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    access_log off;
    include {folder}/stairgames.conf;
}}
"""
"""What the documented /etc/nginx/nginx.conf (:data:`MAIN_CONFIG`) gives the site's
file: its limits (:func:`documented_limits`), workers as many as cores unless told, and
this folder's paths instead of the system's."""


LIMITS = ("worker_rlimit_nofile", "worker_connections")
"""The limits of :data:`MAIN_CONFIG` that decide how many sockets nginx holds."""


def documented_limits() -> tuple[int, int]:
    """``worker_rlimit_nofile`` and ``worker_connections`` of :data:`MAIN_CONFIG`."""
    text = MAIN_CONFIG.read_text()
    found = [re.search(rf"^\s*{name} (\d+);", text, re.MULTILINE) for name in LIMITS]
    if not all(found):
        raise AssertionError(f"{MAIN_CONFIG.name} no longer sets {LIMITS}: update {__name__}")
    files, connections = (int(match.group(1)) for match in found if match)
    return files, connections


UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE
"""For the site's own self-signed certificate."""


class SiteMissingError(Exception):
    """nginx or openssl is not installed (the message says which)."""


@dataclass(frozen=True)
class Proxy:
    """nginx running the documented site: its ports and the site's access log."""

    https: int
    http: int
    access_log: Path

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"


def site_config(folder: Path, backends: Sequence[int], https: int, http: int) -> str:
    """The documented site, with these backends' ports (one ``server`` line each), and
    this folder's certificate and access log."""
    text = SITE_CONFIG.read_text()
    servers = re.findall(r"^ *server 127\.0\.0\.1:800\d .*\n", text, flags=re.MULTILINE)
    if len(servers) != 2:
        raise AssertionError(f"{SITE_CONFIG.name} no longer has two backends: update {__name__}")
    lines = "".join(servers[0].replace(":8001 ", f":{port} ") for port in backends)
    text = text.replace("".join(servers), lines)
    replacements = {
        "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
        "listen 80;": f"listen 127.0.0.1:{http};",
        "/etc/letsencrypt/live/games.example.org/fullchain.pem": str(folder / "cert.pem"),
        "/etc/letsencrypt/live/games.example.org/privkey.pem": str(folder / "key.pem"),
        "/var/log/nginx/stairgames.access.log": str(folder / "access.log"),
    }
    for old, new in replacements.items():
        if old not in text:
            raise AssertionError(f"{SITE_CONFIG.name} no longer has {old!r}: update {__name__}")
        text = text.replace(old, new)
    return text


def _certificate(folder: Path) -> None:
    """A self-signed P-256 certificate for 127.0.0.1 (Let's Encrypt's kind of key)."""
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt"),
            *("ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"),
            *("-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")),
        ],
        check=True,
        capture_output=True,
    )


def answers(url: str, timeout: float = 2.0) -> int | None:
    """The status ``url`` answers (``None``: no answer)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout, context=UNVERIFIED) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def wait_until(condition: object, seconds: float, what: str) -> None:
    """Return once ``condition()`` is true; ``TimeoutError`` after ``seconds``."""
    assert callable(condition)
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds:g} s")
        time.sleep(0.05)


def require_nginx() -> None:
    """:raises SiteMissingError: nginx or openssl is not installed."""
    if not Path(NGINX).is_file():
        raise SiteMissingError("nginx is not installed (apt-get install -y nginx)")
    if shutil.which("openssl") is None:
        raise SiteMissingError("openssl is not installed")


@contextlib.contextmanager
def nginx(
    folder: Path, backends: Sequence[int], *, processes: int | str = "auto"
) -> Iterator[Proxy]:
    """nginx with the documented site in front of ``backends``, with ``processes``
    worker processes (one: a single ``least_conn`` count of every connection)."""
    require_nginx()
    folder.mkdir(parents=True, exist_ok=True)
    _certificate(folder)
    https, http = free_port(), free_port()
    (folder / "stairgames.conf").write_text(site_config(folder, backends, https, http))
    user = "user root;" if os.geteuid() == 0 else ""
    files, connections = documented_limits()
    (folder / "nginx.conf").write_text(
        WRAPPER.format(
            folder=folder, user=user, processes=processes, files=files, connections=connections
        )
    )
    command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if checked.returncode != 0:
        raise AssertionError(checked.stderr)
    process = subprocess.Popen([*command, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
    proxy = Proxy(https, http, folder / "access.log")
    try:
        wait_until(lambda: answers(f"{proxy.url}/healthz") == 200, 30, "nginx")
        yield proxy
    finally:
        process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Server:
    """One ``stairgames serve`` process (with ``--workers``: uvicorn's supervisor)."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    workers_asked: int = 1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def workers(self) -> list[int]:
        """The worker processes' ids (uvicorn's children), or its own id without
        ``--workers`` (none once it is gone)."""
        if self.process.poll() is not None:
            return []
        if self.workers_asked == 1:
            return [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            found = [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []
        return [pid for pid in found if _is_worker(pid)]


def _is_worker(pid: int) -> bool:
    """Whether ``pid`` is one of uvicorn's workers (multiprocessing's spawned children;
    not its resource tracker)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"spawn_main" in command


def start_server(folder: Path, database_url: str, workers: int) -> Server:
    """``stairgames serve`` on a free port behind the proxy (its X-Forwarded-For believed
    from 127.0.0.1), ready."""
    port = free_port()
    command = [sys.executable, "-c", ENTRY, "serve", "--port", str(port)]
    command += ["--database-url", database_url, "--data-dir", str(folder / f"data-{port}")]
    command += ["--computer-workers", "0", "--forwarded-allow-ips", "127.0.0.1"]
    command += ["--workers", str(workers), "--no-client-limits"]
    log = folder / f"server-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = Server(process, port, log, workers)
    wait_until(lambda: _ready_or_ended(server), READY_SECONDS, f"server on port {port}")
    if process.poll() is not None:
        raise RuntimeError(f"the server ended: {log.read_text()[-2000:]}")
    return server


def _ready_or_ended(server: Server) -> bool:
    return server.process.poll() is not None or answers(f"{server.url}/readyz") == 200


def stop_server(server: Server) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


def _stop_servers(servers: list[Server]) -> None:
    for server in servers:
        stop_server(server)


@dataclass
class Site:
    """PostgreSQL, the servers and nginx, running."""

    postgresql: PostgreSQL
    servers: list[Server]
    https: int
    folder: Path
    notes: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    @property
    def wss(self) -> str:
        return f"wss://127.0.0.1:{self.https}"


@contextlib.contextmanager
def running_site(
    folder: Path, *, servers: int = 2, workers: int = 1, fsync: bool = True
) -> Iterator[Site]:
    """The site in ``folder``: PostgreSQL (``fsync``: as deployed; ``False`` for
    tests), ``servers`` ``stairgames serve --workers WORKERS`` processes, nginx.

    :raises SiteMissingError, PostgreSQLMissingError: before anything is started.
    """
    require_nginx()
    with contextlib.ExitStack() as stack:
        postgresql = stack.enter_context(postgresql_server(fsync=fsync))
        started: list[Server] = []
        stack.callback(_stop_servers, started)
        for _ in range(servers):
            started.append(start_server(folder, postgresql.libpq, workers))
        proxy = stack.enter_context(nginx(folder / "nginx", [s.port for s in started]))
        yield Site(postgresql, started, proxy.https, folder)
