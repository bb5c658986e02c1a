"""Options as configuration: frozen dataclasses built from record/CLI mappings with presets.

Every option key of RULES.md §6 is a field; its type annotation (a ``Literal`` of the allowed
values, ``bool`` or ``int``) is the validation. Unknown keys and values are errors.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

from boneyard.core.errors import OptionError

T = TypeVar("T")


def _allowed(tp: Any) -> list[Any] | None:
    """The finite list of values a field accepts, or None for an open int."""
    origin = get_origin(tp)
    if origin is Literal:
        return list(get_args(tp))
    if tp is bool:
        return [True, False]
    if origin in (typing.Union, types.UnionType):
        values: list[Any] = []
        for arg in get_args(tp):
            sub = _allowed(arg)
            if sub is None:
                return None
            values.extend(sub)
        return values
    return None


def _check(cls_name: str, name: str, tp: Any, value: Any) -> Any:
    allowed = _allowed(tp)
    if allowed is not None:
        for a in allowed:
            if value == a and type(value) is type(a):
                return value
        if int in _int_members(tp) and type(value) is int:
            return value
        shown = ", ".join(repr(a) for a in allowed)
        raise OptionError(f"option {name} cannot be {value!r} (choose one of: {shown})")
    if tp is int or int in _int_members(tp):
        if type(value) is int:
            return value
        raise OptionError(f"option {name} must be a whole number, not {value!r}")
    raise OptionError(f"option {name} of {cls_name} has an unsupported type")  # pragma: no cover


def _int_members(tp: Any) -> list[Any]:
    if get_origin(tp) in (typing.Union, types.UnionType):
        return [a for a in get_args(tp) if a is int]
    return [tp] if tp is int else []


@functools.cache
def _schema(cls: type[Any]) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """Type hints and fields of an options class (resolved once: it is slow)."""
    return typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls)}


def build_options(
    cls: type[T],
    raw: Mapping[str, Any] | None,
    presets: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    allow: frozenset[str] = frozenset(),
) -> T:
    """Build ``cls`` from ``raw``: ``preset`` picks a bundle, other keys override it.

    Keys in ``allow`` are accepted and ignored (e.g. the player count given elsewhere).
    """
    raw = dict(raw or {})
    values: dict[str, Any] = {}
    hints, fields = _schema(cls)  # type: ignore[arg-type]
    if "preset" in fields:
        preset = raw.pop("preset", fields["preset"].default)
        if presets is not None:
            if not isinstance(preset, str) or preset not in presets:
                shown = ", ".join(sorted(presets))
                raise OptionError(f"preset {preset!r} is unknown (choose one of: {shown})")
            values.update(presets[preset])
        values["preset"] = preset
    for key, value in raw.items():
        if key in allow:
            continue
        if key not in fields or key == "preset":
            known = ", ".join(sorted(k for k in fields if k != "preset"))
            raise OptionError(f"unknown option {key!r} (known options: {known})")
        values[key] = _check(cls.__name__, key, hints[key], value)
    return cls(**values)
