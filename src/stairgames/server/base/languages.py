"""Which of the site's languages a request speaks (the mail's and the push's texts)."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from stairgames.i18n import DEFAULT_LANGUAGE, LANGUAGES


def chosen_language(value: object, request: HTTPConnection) -> str:
    """``value`` if it is a language of the site, else the first of the browser's
    ``Accept-Language`` the site speaks, else English."""
    if isinstance(value, str) and value in LANGUAGES:
        return value
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";", 1)[0].strip().lower().split("-", 1)[0]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


__all__ = ["chosen_language"]
