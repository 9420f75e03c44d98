"""Secrets kept out of the server's logs.

Seat tokens may still arrive in a query string (``?token=``, from API clients and
matches made before players had cookies); uvicorn's access log writes each request's
line, so :class:`RedactSecrets` replaces their values with ``…`` before any handler sees
them. ``stairgames serve`` installs it on uvicorn's access and error loggers
(:func:`stairgames.server.serve.uvicorn_config`), and on every handler of its logging
set-up (:func:`log_config`: uvicorn's text lines, or with ``--log-format json`` one JSON
object a line, :class:`JsonFormatter`, which redacts again whatever reaches it).

>>> redact('GET /api/matches/m1?token=abc123&seat=0 HTTP/1.1')
'GET /api/matches/m1?token=…&seat=0 HTTP/1.1'
"""

from __future__ import annotations

import datetime
import json
import logging
import re
from typing import Any, Final

SECRET_PARAMETER: Final = re.compile(r"([?&](?:token|secret|password)=)[^&\s\"']*")


def redact(text: str) -> str:
    """``text`` with the values of secret query parameters replaced by ``…``."""
    return SECRET_PARAMETER.sub(r"\1…", text)


class RedactSecrets(logging.Filter):
    """A logging filter: secret query parameters removed from the message and its
    arguments (it never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install(loggers: tuple[str, ...] = ("uvicorn.access", "uvicorn.error")) -> None:
    """Put one :class:`RedactSecrets` on each of ``loggers`` (once)."""
    for name in loggers:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


# ----- the logs' format: text (uvicorn's) or one JSON object a line -------------------

ACCESS_FIELDS: Final = ("client", "method", "path", "http_version", "status")
"""What an access log record's arguments are (uvicorn's ``'%s - "%s %s HTTP/%s" %d'``)."""


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, ``process`` (its id: several workers write to one stream), and for a
    request of the access log its fields (``client``, ``method``, ``path``,
    ``http_version``, ``status``); ``exception`` with a traceback. Secrets are redacted
    as by :class:`RedactSecrets`, whatever filters the record went through."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        line: dict[str, object] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
            "process": record.process,
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            for field, value in zip(ACCESS_FIELDS, args, strict=True):
                line[field] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


LOG_FORMATS: Final = ("text", "json")


def log_config(log_format: str = "text", *, access_log: bool = False) -> dict[str, Any]:
    """The logging set-up of ``stairgames serve`` for uvicorn (``logging.config``'s
    dictionary, which each worker process applies again): uvicorn's lines, or
    :class:`JsonFormatter`'s; every handler redacts secrets (:class:`RedactSecrets`);
    warnings and errors of the server and uvicorn go to stderr, the access log (when
    asked for) to stdout."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format {log_format!r}, not one of {LOG_FORMATS}")
    if log_format == "json":
        default: dict[str, Any] = {"()": f"{__name__}.JsonFormatter"}
        access: dict[str, Any] = default
    else:
        default = {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"}
        access = {
            "()": "uvicorn.logging.AccessFormatter",
            "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
        }
    redacting = {"redact": {"()": f"{__name__}.RedactSecrets"}}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": redacting,
        "formatters": {"default": default, "access": access},
        "handlers": {
            "default": {
                "formatter": "default",
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["redact"],
            },
            "access": {
                "formatter": "access",
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "filters": ["redact"],
            },
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"level": "WARNING"},
            "uvicorn.access": {
                "handlers": ["access"] if access_log else [],
                "level": "INFO" if access_log else "WARNING",
                "propagate": False,
            },
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }


def json_line(message: str, level: str = "INFO", logger: str = "stairgames.serve") -> str:
    """``message`` as :class:`JsonFormatter` writes it (for lines printed, not logged)."""
    record = logging.LogRecord(logger, logging.getLevelName(level), "", 0, message, None, None)
    return JsonFormatter().format(record)
