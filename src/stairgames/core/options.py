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
