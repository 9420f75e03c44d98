"""Issue 33: ``stairgames serve --log-format json``: one JSON object a line, no secrets."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from stairgames.server.base.logs import JsonFormatter, RedactSecrets, log_config
from tests.postgresql_helpers import free_port
from tests.serve_helpers import get, post, serving

SECRET = "s3cretT0kenValue"


def test_a_json_line_has_the_fields_and_no_secret() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("10.0.0.7:5151", "GET", f"/reset-password?token={SECRET}&lang=ja", "1.1", 200),
        None,
    )
    RedactSecrets().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "INFO" and line["logger"] == "uvicorn.access"
    assert line["time"].endswith("Z") and "T" in line["time"]
    assert line["method"] == "GET" and line["status"] == 200 and line["client"] == "10.0.0.7:5151"
    assert line["path"] == "/reset-password?token=…&lang=ja"
    assert line["message"] == '10.0.0.7:5151 - "GET /reset-password?token=…&lang=ja HTTP/1.1" 200'
    unfiltered = logging.LogRecord(
        "stairgames.server.x", logging.ERROR, "", 0, f"boom ?secret={SECRET}", None, None
    )
    assert SECRET not in JsonFormatter().format(unfiltered)  # redacted even unfiltered


def test_the_log_configuration_redacts_on_every_handler() -> None:
    for log_format in ("text", "json"):
        config = log_config(log_format, access_log=True)
        assert all(h["filters"] == ["redact"] for h in config["handlers"].values())
        assert config["loggers"]["uvicorn.access"]["handlers"] == ["access"]
    assert log_config("text")["loggers"]["uvicorn.access"]["handlers"] == []


@pytest.mark.slow
def test_serve_with_json_logs_writes_one_object_a_line_without_secrets(tmp_path: Path) -> None:
    port = free_port()
    with serving(tmp_path, port, ["--log-format", "json", "--access-log"]) as served:
        base = served.url
        created = post(f"{base}/api/matches", {"game": "stairs", "seats": ["human", "online"]})
        token = created["seats"][0]["token"]
        assert get(f"{base}/api/matches/{created['match']}?token={token}")[0] == 400
        assert get(f"{base}/api/matches/{created['match']}", {"X-Seat-Token": token})[0] == 200
        get(f"{base}/reset-password?token={SECRET}")
        get(f"{base}/no/such/page?password={SECRET}")
        # no --forwarded-allow-ips: nobody's X-Forwarded-For is believed
        get(f"{base}/healthz?forwarded", {"X-Forwarded-For": "203.0.113.9"})
    output = served.output()
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert lines, output
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(line), line
    assert SECRET not in output and token not in output
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    paths = {(a["method"], a["path"], a["status"]) for a in access}
    assert ("POST", "/api/matches", 200) in paths
    assert ("GET", f"/api/matches/{created['match']}?token=…", 400) in paths
    assert ("GET", "/reset-password?token=…", 200) in paths
    assert any(line["message"].startswith("stairgames: open http://") for line in lines)
    forwarded = [a for a in access if a["path"] == "/healthz?forwarded"]
    assert len(forwarded) == 1 and forwarded[0]["client"].startswith("127.0.0.1:")
