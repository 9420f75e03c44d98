"""The limits of a request's JSON body that hold before any parser reads it: its size
was bounded by the request limits' middleware (``base/limits.py``); here its nesting and
its text (:func:`parse_object`), which :class:`stairgames.server.base.contract.ContractRoute`
checks before FastAPI and pydantic parse the body into its model."""

from __future__ import annotations

import json
from typing import Any

from stairgames.i18n import N_
from stairgames.server.base.errors import ServerError

MAX_NESTING = 16
"""The deepest nesting of arrays and objects a request may have (the API's own requests
nest three deep): deeper ones are refused before anything reads them."""


def parse_object(text: str | bytes) -> dict[str, Any]:
    """A request's JSON object, refused (400) when malformed, nested deeper than
    :data:`MAX_NESTING`, or holding text that is not Unicode (a lone surrogate such as
    ``"\\ud800"``, which no answer could echo)."""
    if _nesting(text) > MAX_NESTING:
        raise malformed(f"nested deeper than {MAX_NESTING}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise malformed(str(exc)) from exc
    if not isinstance(data, dict):
        raise malformed("not a JSON object")
    if _has_lone_surrogate(data):
        raise malformed("text with a lone surrogate (not Unicode)")
    return data


def malformed(reason: str) -> ServerError:
    return ServerError(400, N_("malformed message: {reason}"), reason=reason)


def _nesting(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, brackets inside strings not
    counted (a cheap scan, so that a hostile depth never reaches the parser)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"[" not in raw and b"{" not in raw:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _has_lone_surrogate(value: object) -> bool:
    """Whether any text in ``value`` (keys included), however deep, is not Unicode."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if any("\ud800" <= char <= "\udfff" for char in item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False
