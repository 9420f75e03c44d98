"""Option files uploaded from the browser (a game's card sets, for one).

A game names the options that take an uploaded file in its registration
(:attr:`~stairgames.core.registry.GameSpec.option_files`, their option metadata's role
``"file"``), each with the function that reads and checks one; this module asks the
registry for them (:func:`~stairgames.core.registry.uploaded_options`) and names no game
and no option. A file is larger than the 4096 bytes a request may otherwise carry, so
each such option ``<option>`` has its own route (:func:`upload_route`),
``POST /api/<option>?lang=ja&name=mine.toml`` with the TOML text as the body (at most
:data:`MAX_CARD_FILE_BYTES`). The server checks it with the engine (the declared
reader); a refused file is answered 400 with the engine's problems translated into the
request's language (``error.text``; ``error.id`` and ``error.args`` as for every error).
An accepted file is kept in ``<data dir>/<option>/<sha256>.toml`` and answered
``{"<option>": "<sha256>", "name"}``; ``POST /api/matches`` takes that id as the option's
value and nothing else, so that no request can make the server read a file of its
choosing.

Files are not kept for ever. ``<data dir>/<option>/uploads.json`` records who uploaded
each file and when (a player by id, else the address by its SHA-256; and the address in
any case), under a lock on ``<option>/.lock`` that every server process sharing the
folder takes. One uploader keeps at most :data:`MAX_KEPT_CARD_FILES` files that no match uses
yet, one address :data:`MAX_KEPT_CARD_FILES_PER_ADDRESS` over all its players; beyond,
an upload is refused with 429 (``Retry-After``: when the first of them expires) and
nothing is stored. A file no match's options name is deleted
:data:`UNUSED_CARD_FILE_DAYS` days after its last upload, by a sweep every
:data:`CARD_SWEEP_SECONDS` (:func:`start_card_sweep`); a file a match names is kept for
its record and replays. Every read and write of the folder, and every query, runs off
the event loop (:func:`~stairgames.server.base.store.off_loop`).

The names a file brings (a card set's, its characters') are the engine's to check: the
declared reader refuses control and invisible characters in them (U+202E would turn the
board's text around), and reads a kept file again with the same checks before a match
uses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import hashlib
import json
import logging
import math
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import or_, select
from sqlalchemy.engine import Engine

from stairgames.core.errors import StairgamesError
from stairgames.core.registry import option_files, uploaded_options
from stairgames.i18n import LANGUAGES, N_, Text, current_language, set_language, translate
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import ENGINE, MatchRow, off_loop
from stairgames.server.people.players import Player, current_player_async
from stairgames.server.play.matches import ServerError, error_json

log = logging.getLogger(__name__)

MAX_CARD_FILE_BYTES: Final = 65536
"""The largest file accepted (a default card set is about 4 KB)."""
MAX_KEPT_CARD_FILES: Final = 20
"""Card files one uploader (the request's player, else its address) may keep that no
match uses yet; a file a match uses no longer counts."""
MAX_KEPT_CARD_FILES_PER_ADDRESS: Final = 100
"""The same over every player of one address (new players cost an address little)."""
UNUSED_CARD_FILE_DAYS: Final = 7
"""How long a file no match uses is kept after its last upload."""
CARD_SWEEP_SECONDS: Final = 3600.0
"""How often the files no match uses are looked for and the expired ones deleted."""
_CARD_ID = re.compile(r"^[0-9a-f]{64}$")
_INDEX: Final = "uploads.json"
_LOCK: Final = ".lock"
_PART_SECONDS: Final = 3600.0
"""A half-written file (``.part``) older than this was left by a process that died."""
_INVISIBLE: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control and invisible characters (U+202E among them): left out of the uploaded
file's name before messages show it."""


def upload_route(option: str) -> str:
    """The route that takes the uploaded files of ``option``."""
    return f"/api/{option}"


def upload_routes() -> dict[str, str]:
    """Each route that takes uploaded files, with its option (the registry's options that
    take a file)."""
    return {upload_route(option): option for option in uploaded_options()}


def is_upload_route(path: str) -> bool:
    """Whether ``path`` is the route of an option's uploaded files (its body a file, of
    its own size limit and content type)."""
    return path in upload_routes()


def card_folder(data_dir: Path, option: str | None = None) -> Path:
    """Where the uploaded files of ``option`` are kept (``None``: the first option that
    takes files)."""
    return data_dir / (option if option is not None else uploaded_options()[0])


def translated(error: BaseException, language: str) -> str:
    """The error's text in ``language`` (the server's language is left as it was)."""
    previous = current_language()
    set_language(language if language in LANGUAGES else "en")
    try:
        return translate(error)
    finally:
        set_language(previous)


def refusal(
    status: int, error: BaseException, language: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = error_json(error)
    body["text"] = translated(error, language)
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def _source(name: str) -> str | Text:
    """How messages name the uploaded file: its name as the browser gave it (only the
    last part, without control or invisible characters, at most 80 characters), else
    "card file"."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    visible = "".join(c for c in base if unicodedata.category(c) not in _INVISIBLE)
    shown = visible.strip()[:80]
    return shown if shown else Text(N_("card file"))


def resolve_cards_option(options: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """``options`` with each uploaded file's id (for an option that takes one) replaced by
    its file's path; no value (or an empty one) is the option's
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
    """``POST /api/<option>`` for each option that a game declares taking uploaded files
    (its reader, imported on the first upload, checks each one)."""
    kept = {option: CardFiles(card_folder(data_dir, option)) for option in uploaded_options()}
    if not kept:
        return
    UPLOADED_FILES.keep(app, kept)
    CARD_FILES.keep(app, next(iter(kept.values())))
    for option, files in kept.items():
        _add_upload_route(app, option, files)


def _add_upload_route(app: FastAPI, option: str, files: CardFiles) -> None:
    """``POST /api/<option>``: a file checked by the option's reader, kept in ``files``."""

    @app.post(upload_route(option))
    async def upload(request: Request, lang: str = "en", name: str = "") -> Response:
        try:
            body = await request.body()  # at most MAX_CARD_FILE_BYTES: RequestLimits reads it
            read = await off_loop(_checked, option, body, _source(name))
            uploader = uploader_of(request, await current_player_async(request))
            digest = await off_loop(files.keep, body, uploader, ENGINE.of(request))
        except CardQuotaError as exc:
            return refusal(exc.status, exc, lang, {"Retry-After": str(exc.retry_after)})
        except ServerError as exc:
            return refusal(exc.status, exc, lang)
        except StairgamesError as exc:
            return refusal(400, exc, lang)
        return JSONResponse({option: digest, "name": read.name})


def _checked(option: str, body: bytes, source: str | Text) -> Any:
    """What the file ``body`` holds, as the reader declared for ``option`` reads it.

    :raises ServerError: 400, not UTF-8.
    :raises StairgamesError: the reader's problems with it.
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ServerError(400, N_("a card file must be UTF-8 text")) from exc
    return option_files()[option](text, source=source)


@dataclasses.dataclass(frozen=True)
class Uploader:
    """Who uploads a file: the request's player (``None``: none) and its address's
    SHA-256 (the address itself is never written down)."""

    player: str | None
    address: str

    def quotas(self) -> tuple[tuple[str, int], ...]:
        """``(key, files)``: each key the upload is recorded under and the files no
        match uses that it may hold."""
        own = f"player:{self.player}" if self.player else f"address:{self.address}"
        return (
            (own, MAX_KEPT_CARD_FILES),
            (f"from:{self.address}", MAX_KEPT_CARD_FILES_PER_ADDRESS),
        )


def uploader_of(request: Request, player: Player | None) -> Uploader:
    """The uploader of ``request``, whose player is ``player``."""
    host = request.client.host if request.client else ""
    return Uploader(player.id if player else None, hashlib.sha256(host.encode()).hexdigest())


class CardQuotaError(ServerError):
    """An uploader keeps as many files no match uses as it may (429)."""

    def __init__(self, kept: int, retry_after: int) -> None:
        super().__init__(
            429,
            N_(
                "you keep {count} card files that no match uses, the most allowed; start a "
                "match with one, or upload again after one is deleted ({days} days after "
                "its upload)"
            ),
            count=kept,
            days=UNUSED_CARD_FILE_DAYS,
        )
        self.retry_after = retry_after


Index = dict[str, dict[str, float]]
"""``uploads.json``: each kept file's id, and for each key an upload was recorded under
(:meth:`Uploader.quotas`) the time of its last upload (seconds since the epoch)."""


class CardFiles:
    """The uploaded card files of a folder, who uploaded them and when; every method
    reads or writes the folder (and may query the database): call them off the loop."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.clock = clock
        """The wall clock uploads are dated by (a fake one in tests)."""

    def path(self, card_id: str) -> Path:
        return self.folder / f"{card_id}.toml"

    def keep(self, body: bytes, uploader: Uploader, engine: Engine) -> str:
        """Keep the checked file ``body`` for ``uploader``; its id.

        :raises CardQuotaError: the uploader keeps too many files no match uses (and
            nothing is written).
        """
        card_id = hashlib.sha256(body).hexdigest()
        now = self.clock()
        with self._locked():
            index = self._read_index()
            for key, most in uploader.quotas():
                self._check_quota(index, key, most, card_id, engine, now)
            path = self.path(card_id)
            if not path.is_file():
                temporary = path.with_suffix(".part")
                temporary.write_bytes(body)
                temporary.replace(path)
            record = index.setdefault(card_id, {})
            for key, _most in uploader.quotas():
                record[key] = now
            self._write_index(index)
        return card_id

    def _check_quota(
        self, index: Index, key: str, most: int, card_id: str, engine: Engine, now: float
    ) -> None:
        """Refuse the upload when ``key`` keeps ``most`` files (other than ``card_id``)
        that no match uses and that have not expired."""
        kept = {
            other: expiry
            for other, record in index.items()
            if key in record
            and other != card_id
            and (expiry := _expiry(record)) > now
            and self.path(other).is_file()
        }
        if len(kept) < most:
            return
        waiting = {other: kept[other] for other in set(kept) - used_card_ids(engine, kept)}
        if len(waiting) >= most:
            first = min(waiting.values())
            raise CardQuotaError(len(waiting), max(1, math.ceil(first - now)))

    def sweep(self, engine: Engine) -> list[str]:
        """Delete the files no match uses whose last upload is older than
        :data:`UNUSED_CARD_FILE_DAYS` (a file uploaded before uploads were recorded is
        dated by its modification time), and the half-written ones left by a process
        that died; the ids deleted."""
        if not self.folder.is_dir():
            return []
        now = self.clock()
        with self._locked():
            index = self._read_index()
            expired = [
                card_id
                for card_id, path in self._kept_files()
                if _expiry(index.get(card_id) or {"": path.stat().st_mtime}) <= now
            ]
            deleted = sorted(set(expired) - used_card_ids(engine, expired))
            for card_id in deleted:
                self.path(card_id).unlink(missing_ok=True)
            kept = {card_id for card_id, _path in self._kept_files()}
            self._write_index({k: v for k, v in index.items() if k in kept})
            self._drop_parts(now)
        return deleted

    def _kept_files(self) -> Iterator[tuple[str, Path]]:
        for path in self.folder.glob("*.toml"):
            if _CARD_ID.match(path.stem):
                yield path.stem, path

    def _drop_parts(self, now: float) -> None:
        for part in self.folder.glob("*.part"):
            with contextlib.suppress(OSError):
                if part.stat().st_mtime + _PART_SECONDS < now:
                    part.unlink()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The folder's lock, held by one thread of one process at a time."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / _LOCK).open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _read_index(self) -> Index:
        """The records (an unreadable index is started again: its files are then dated
        by their modification times and count for no uploader)."""
        try:
            data = json.loads((self.folder / _INDEX).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            log.exception("the card files' index %s cannot be read", self.folder / _INDEX)
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            card_id: {key: float(at) for key, at in record.items() if isinstance(at, int | float)}
            for card_id, record in data.items()
            if isinstance(card_id, str) and isinstance(record, dict)
        }

    def _write_index(self, index: Index) -> None:
        path = self.folder / _INDEX
        temporary = path.with_name(f"{_INDEX}.part")
        temporary.write_text(json.dumps(index, sort_keys=True), encoding="utf-8")
        temporary.replace(path)


def _expiry(record: dict[str, float]) -> float:
    """When a file no match uses expires: :data:`UNUSED_CARD_FILE_DAYS` after its last
    upload."""
    return max(record.values(), default=0.0) + UNUSED_CARD_FILE_DAYS * 86400.0


def used_card_ids(engine: Engine, card_ids: Iterable[str]) -> set[str]:
    """Those of ``card_ids`` that some match's options name (a database read)."""
    wanted = sorted(set(card_ids))
    used: set[str] = set()
    for start in range(0, len(wanted), 100):
        batch = wanted[start : start + 100]
        query = select(MatchRow.options).where(or_(*(MatchRow.options.contains(i) for i in batch)))
        with engine.connect() as connection:
            for (options,) in connection.execute(query):
                used |= _named_ids(options) & set(batch)
    return used


def _named_ids(options_json: str) -> set[str]:
    """The ids of the uploaded files a match's options (as stored) name: their paths'
    stems."""
    try:
        options = json.loads(options_json)
    except ValueError:
        return set()
    if not isinstance(options, dict):
        return set()
    return {
        Path(value).stem
        for option in uploaded_options()
        if isinstance(value := options.get(option), str)
    }


def start_card_sweep(app: FastAPI, engine: Engine, settings: Any) -> list[asyncio.Task[None]]:
    """When the app starts: uploads dated by ``settings.wall_clock``, and for each option's
    files the task that deletes the expired ones every :data:`CARD_SWEEP_SECONDS` (none
    without the routes)."""
    every = UPLOADED_FILES.find(app)
    first = CARD_FILES.find(app)
    kept = list(every.values()) if every is not None else [first] if first is not None else []
    loop = asyncio.get_running_loop()
    for files in kept:
        files.clock = settings.wall_clock
    return [loop.create_task(sweep_cards_every(files, engine)) for files in kept]


async def sweep_cards_every(
    files: CardFiles, engine: Engine, seconds: float = CARD_SWEEP_SECONDS
) -> None:
    """:meth:`CardFiles.sweep` now and every ``seconds``, off the event loop."""
    while True:
        try:
            deleted = await off_loop(files.sweep, engine)
            if deleted:
                log.info("deleted %d card files no match uses", len(deleted))
        except Exception:  # a failing sweep must not end the loop
            log_failure(log, "the card files' sweep failed")
        await asyncio.sleep(seconds)


UPLOADED_FILES: Kept[dict[str, CardFiles]] = Kept("uploaded_files")
"""The app's uploaded files of each option that takes them (``app.state.uploaded_files``)."""
CARD_FILES: Kept[CardFiles] = Kept("card_files")
"""The uploaded files of the first option that takes them (``app.state.card_files``)."""
