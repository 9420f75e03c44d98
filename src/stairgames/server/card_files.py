"""Option files uploaded from the browser (City of Stairs' ``cards`` option: card sets).

A game names the options that take an uploaded file in its registration
(:attr:`~stairgames.core.registry.GameSpec.option_files`), each with the function that
reads and checks one; this module names no game. A card file is larger than the 4096
bytes a request may otherwise carry, so it has its own route,
``POST /api/cards?lang=ja&name=mine.toml`` with the TOML text as the body (at most
:data:`MAX_CARD_FILE_BYTES`). The server checks it with the engine (the declared reader,
City of Stairs' ``parse_card_set``); a refused file is
answered 400 with the engine's problems translated into the request's language
(``error.text``; ``error.id`` and ``error.args`` as for every error). An accepted file is
kept in ``<data dir>/cards/<sha256>.toml`` and answered ``{"cards": "<sha256>", "name"}``;
``POST /api/matches`` takes that id as the ``cards`` option and nothing else, so that no
request can make the server read a file of its choosing.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from stairgames.core.errors import StairgamesError
from stairgames.core.registry import FileParser, option_files, uploaded_options
from stairgames.i18n import LANGUAGES, N_, Text, current_language, set_language, translate
from stairgames.server.matches import ServerError, error_json

MAX_CARD_FILE_BYTES: Final = 65536
"""The largest card file accepted (the default set is about 4 KB)."""
CARD_OPTION: Final = "cards"
"""The option whose uploaded files :data:`CARD_ROUTE` takes."""
CARD_ROUTE: Final = f"/api/{CARD_OPTION}"
_CARD_ID = re.compile(r"^[0-9a-f]{64}$")


def card_folder(data_dir: Path, option: str = CARD_OPTION) -> Path:
    """Where the uploaded files of ``option`` are kept."""
    return data_dir / option


def translated(error: BaseException, language: str) -> str:
    """The error's text in ``language`` (the server's language is left as it was)."""
    previous = current_language()
    set_language(language if language in LANGUAGES else "en")
    try:
        return translate(error)
    finally:
        set_language(previous)


def refusal(status: int, error: BaseException, language: str) -> JSONResponse:
    body = error_json(error)
    body["text"] = translated(error, language)
    return JSONResponse({"error": body}, status_code=status)


def _source(name: str) -> str | Text:
    """How messages name the uploaded file: its name as the browser gave it (only the
    last part, at most 80 characters), else "card file"."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()[:80]
    return base if base else Text(N_("card file"))


def resolve_cards_option(options: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """``options`` with each uploaded file's id (for an option that takes one, such as
    ``cards``) replaced by its file's path; no value (or an empty one) is the option's
    default.

    :raises ServerError: 400, a value that names no uploaded file.
    """
    for option in uploaded_options():
        options = _resolve_file_option(options, option, data_dir)
    return options


def _resolve_file_option(options: dict[str, Any], option: str, data_dir: Path) -> dict[str, Any]:
    """:func:`resolve_cards_option` for one option."""
    if option not in options:
        return options
    value = options[option]
    if value is None or value == "":
        return {name: v for name, v in options.items() if name != option}
    path = card_folder(data_dir, option) / f"{value}.toml" if isinstance(value, str) else None
    if path is None or not _CARD_ID.match(str(value)) or not path.is_file():
        raise ServerError(400, N_("unknown card set; upload its file first"))
    return {**options, option: str(path.resolve())}


def add_card_routes(app: FastAPI, data_dir: Path) -> None:
    """``POST /api/cards`` when a game declares a ``cards`` option taking uploaded files
    (its reader, imported on the first upload, checks each one)."""
    if CARD_OPTION not in uploaded_options():
        return

    @app.post(CARD_ROUTE)
    async def upload(request: Request, lang: str = "en", name: str = "") -> Response:
        read_card_set = _card_reader()
        try:
            body = await request.body()  # at most MAX_CARD_FILE_BYTES: RequestLimits reads it
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ServerError(400, N_("a card file must be UTF-8 text")) from exc
            card_set = read_card_set(text, source=_source(name))
        except ServerError as exc:
            return refusal(exc.status, exc, lang)
        except StairgamesError as exc:
            return refusal(400, exc, lang)
        digest = hashlib.sha256(body).hexdigest()
        folder = card_folder(data_dir)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{digest}.toml"
        if not path.is_file():
            temporary = path.with_suffix(".part")
            temporary.write_bytes(body)
            temporary.replace(path)
        return JSONResponse({"cards": digest, "name": card_set.name})


def _card_reader() -> FileParser:
    """The reader the registration declares for :data:`CARD_OPTION`."""
    return option_files()[CARD_OPTION]
