"""Secrets kept out of the server's logs.

Seat tokens may still arrive in a query string (``?token=``, from API clients and
matches made before players had cookies); uvicorn's access log writes each request's
line, so :class:`RedactSecrets` replaces their values with ``…`` before any handler sees
them. ``stairgames serve`` installs it on uvicorn's access and error loggers
(:func:`stairgames.server.serve.uvicorn_config`).

>>> redact('GET /api/matches/m1?token=abc123&seat=0 HTTP/1.1')
'GET /api/matches/m1?token=…&seat=0 HTTP/1.1'
"""

from __future__ import annotations

import logging
import re
from typing import Final

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
