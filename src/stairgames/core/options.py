"""Game options as frozen dataclasses, checked by name, type and value.

Every game declares its options as a frozen dataclass whose fields have
defaults. :func:`build_options` turns keyword arguments (or the strings of a
command line) into such a dataclass, refusing unknown names and values of the
wrong type with an error that lists what is allowed.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, TypeVar

from stairgames.core.errors import InvalidOptionError
from stairgames.i18n import N_

OptionsT = TypeVar("OptionsT")
T = TypeVar("T")

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option_fields(options_class: type[Any]) -> list[dataclasses.Field[Any]]:
    """The public option fields of an options dataclass, in declaration order."""
    return [f for f in dataclasses.fields(options_class) if not f.name.startswith("_")]


def option_types(options_class: type[Any]) -> dict[str, Any]:
    """Resolved type hints of the option fields."""
    hints = typing.get_type_hints(options_class)
    return {f.name: hints[f.name] for f in option_fields(options_class)}


def describe_options(options_class: type[Any]) -> str:
    """A one-line listing of the options with their defaults, for error messages."""
    parts = []
    for f in option_fields(options_class):
        parts.append(f"{f.name}={f.default!r}")
    return ", ".join(parts) if parts else "(no options)"


def _allowed_literals(hint: Any) -> tuple[Any, ...] | None:
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    return None


def _convert_from_text(name: str, text: str, hint: Any) -> Any:
    """Convert a command-line string to the option's type."""
    literals = _allowed_literals(hint)
    if literals is not None:
        return text
    if hint is bool:
        lowered = text.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise InvalidOptionError(
            message_id=N_("option {name!r} expects true or false, got {text!r}"),
            arguments={"name": name, "text": text},
        )
    if hint is int:
        try:
            return int(text)
        except ValueError:
            raise InvalidOptionError(
                message_id=N_("option {name!r} expects an integer, got {text!r}"),
                arguments={"name": name, "text": text},
            ) from None
    origin = typing.get_origin(hint)
    if origin is tuple:
        try:
            return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
        except ValueError:
            raise InvalidOptionError(
                message_id=N_("option {name!r} expects comma-separated integers, got {text!r}"),
                arguments={"name": name, "text": text},
            ) from None
    if hint is str:
        return text
    if _is_optional_of(hint, int):
        if text.strip().lower() in {"none", ""}:
            return None
        return _convert_from_text(name, text, int)
    if _is_optional_of(hint, str):
        return None if text.strip().lower() == "none" else text
    return text


def _is_optional_of(hint: Any, inner: type[Any]) -> bool:
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        args = set(typing.get_args(hint))
        return args == {inner, type(None)}
    return False


def _check_type(name: str, value: Any, hint: Any) -> Any:
    """Check (and lightly normalise) a Python value against the option's type."""
    literals = _allowed_literals(hint)
    if literals is not None:
        if value not in literals:
            allowed = ", ".join(repr(v) for v in literals)
            raise InvalidOptionError(
                message_id=N_("option {name!r} must be one of {allowed}, got {value!r}"),
                arguments={"name": name, "allowed": allowed, "value": value},
            )
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidOptionError(
                message_id=N_("option {name!r} expects true or false, got {value!r}"),
                arguments={"name": name, "value": value},
            )
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptionError(
                message_id=N_("option {name!r} expects an integer, got {value!r}"),
                arguments={"name": name, "value": value},
            )
        return value
    if typing.get_origin(hint) is tuple:
        if not isinstance(value, (tuple, list)) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise InvalidOptionError(
                message_id=N_("option {name!r} expects a sequence of integers, got {value!r}"),
                arguments={"name": name, "value": value},
            )
        return tuple(value)
    if _is_optional_of(hint, int):
        if value is None:
            return None
        return _check_type(name, value, int)
    if hint is str or _is_optional_of(hint, str):
        if value is None and _is_optional_of(hint, str):
            return None
        if not isinstance(value, str):
            raise InvalidOptionError(
                message_id=N_("option {name!r} expects a string, got {value!r}"),
                arguments={"name": name, "value": value},
            )
        return value
    return value


def build_options(
    options_class: type[OptionsT], game_name: str, values: dict[str, Any], *, from_text: bool
) -> OptionsT:
    """Build an options dataclass from keyword values, checking every name and value.

    With ``from_text`` the values are strings (as typed on a command line) and
    are converted to each option's type first.
    """
    types_by_name = option_types(options_class)
    checked: dict[str, Any] = {}
    for name, value in values.items():
        key = name.replace("-", "_")
        if key not in types_by_name:
            allowed = describe_options(options_class)
            raise InvalidOptionError(
                message_id=N_("unknown option {name!r} for game {game!r}; allowed: {allowed}"),
                arguments={"name": name, "game": game_name, "allowed": allowed},
            )
        hint = types_by_name[key]
        if from_text and isinstance(value, str):
            value = _convert_from_text(key, value, hint)
        checked[key] = _check_type(key, value, hint)
    try:
        return options_class(**checked)
    except InvalidOptionError:
        raise
    except (TypeError, ValueError) as exc:
        raise InvalidOptionError(
            message_id=N_("bad options for game {game_name!r}: {exc}"),
            arguments={"game_name": game_name, "exc": exc},
        ) from None


def options_to_dict(options: Any) -> dict[str, Any]:
    """The options as a JSON-friendly dict (tuples become lists)."""
    result: dict[str, Any] = {}
    for f in option_fields(type(options)):
        value = getattr(options, f.name)
        result[f.name] = list(value) if isinstance(value, tuple) else value
    return result


OPTION_INFO = "stairgames.option"
"""The key of an option field's :class:`OptionInfo` in its dataclass field's metadata."""


@dataclasses.dataclass(frozen=True)
class OptionInfo:
    """How people see and set one option: its words (English message ids, translated
    where they are shown), the values a form offers and how a list of challenges tells
    it; the metadata of the option's dataclass field (:func:`option`)."""

    label: str
    """What a form calls the option (``N_("Variant")``)."""
    help: str = ""
    """A sentence on what the option does, shown beside the form's input."""
    summary: str = ""
    """How a set of options tells this one when it is not the default: a message with
    ``{value}`` (``N_("{value}×{value} board")``); empty: ``"{label}: {value}"``."""
    choice_labels: tuple[tuple[str, str], ...] = ()
    """A choice's words for each value (value, message id); a value without is itself."""
    minimum: int | None = None
    """The least number a form offers (a number option)."""
    maximum: int | None = None
    """The greatest number a form offers (a number option)."""
    offered: bool = True
    """Whether the browser's forms offer the option (false: it keeps its default)."""
    role: str = ""
    """What the option is to a form beyond its value: ``"players"``, the number of
    seats (the form offers the counts the game has seat names for); ``"seat"``, a seat
    or none for at random (the form offers the seats by name); ``"file"``, a file the
    browser uploads (:class:`stairgames.core.registry.OptionFile`)."""
    placeholder: str = ""
    """An example value a text input shows while empty (not translated)."""
    default_label: str = ""
    """A file option's choice that uploads no file and keeps the default
    (``N_("the default cards")``); empty: the page's own words for no file."""
    upload_label: str = ""
    """What a file option's file input is called (``N_("Upload a card file (TOML)")``)."""
    checking: str = ""
    """What a file option says while the server checks an uploaded file."""
    ready: str = ""
    """What a file option says once the server has kept an uploaded file: a message with
    ``{name}``, the name the file gives itself (``N_("Card set {name} is ready.")``)."""


def option(default: T, *, label: str, **info: Any) -> T:
    """A field of an options dataclass with its :class:`OptionInfo` (``label``, and the
    other fields of :class:`OptionInfo` by name)::

        size: int = option(6, label=N_("Board size"), minimum=3, maximum=8)
    """
    described = OptionInfo(label=label, **info)
    field: T = dataclasses.field(default=default, metadata={OPTION_INFO: described})
    return field


def option_info(field: dataclasses.Field[Any]) -> OptionInfo:
    """The field's :class:`OptionInfo`; a field declared without one is labelled by its
    name."""
    found = field.metadata.get(OPTION_INFO)
    return found if isinstance(found, OptionInfo) else OptionInfo(label=field.name)


def _kind(hint: Any, info: OptionInfo) -> str:
    """The kind of input a form draws for an option of type ``hint``."""
    if info.role == "file":
        return "file"
    if info.role == "seat":
        return "seat"
    if _allowed_literals(hint) is not None:
        return "choice"
    if hint is bool:
        return "flag"
    if hint is int or _is_optional_of(hint, int):
        return "number"
    if typing.get_origin(hint) is tuple:
        return "list"
    return "text"


def _type_name(hint: Any) -> str:
    """The option's type as the listing has always said it (``"bool"``, ``"choice"``)."""
    if _allowed_literals(hint) is not None:
        return "choice"
    return getattr(hint, "__name__", str(hint))


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def option_listing(options_class: type[Any]) -> list[dict[str, Any]]:
    """Every option of an options dataclass as JSON-ready data for the browser's forms
    (``GET /api/games``): its name, type and default, the ``kind`` of input (``flag``,
    ``choice``, ``number``, ``list``, ``text``, ``seat``, ``file``), its words (message ids:
    ``label``, ``help``, ``summary``, ``choice_labels``), ``min``/``max``, whether it may be
    empty (``optional``), whether forms offer it, ``seats_from`` (the option is the number
    of seats), ``placeholder`` and a file option's words (``default_label``,
    ``upload_label``, ``checking``, ``ready``: empty where the game gives none)."""
    hints = option_types(options_class)
    listing = []
    for field in option_fields(options_class):
        hint = hints[field.name]
        info = option_info(field)
        literals = _allowed_literals(hint)
        labels = dict(info.choice_labels)
        listing.append(
            {
                "name": field.name,
                "type": _type_name(hint),
                "default": _json_value(field.default),
                "choices": list(literals) if literals is not None else None,
                "kind": _kind(hint, info),
                "label": info.label,
                "help": info.help,
                "summary": info.summary,
                "choice_labels": {str(v): labels.get(str(v), str(v)) for v in literals or ()},
                "min": info.minimum,
                "max": info.maximum,
                "optional": _is_optional_of(hint, int) or _is_optional_of(hint, str),
                "offered": info.offered,
                "seats_from": info.role == "players",
                "placeholder": info.placeholder,
                "default_label": info.default_label,
                "upload_label": info.upload_label,
                "checking": info.checking,
                "ready": info.ready,
            }
        )
    return listing


def changed_options(options_class: type[Any], values: dict[str, Any]) -> dict[str, Any]:
    """The options of ``values`` that differ from their defaults, compared by value (a
    list equals the tuple of the same numbers), in declaration order."""
    changed = {}
    for field in option_fields(options_class):
        if field.name in values and _json_value(values[field.name]) != _json_value(field.default):
            changed[field.name] = values[field.name]
    return changed
