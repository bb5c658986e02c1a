"""Options as configuration: frozen dataclasses built from record/CLI mappings with presets.

Every option key of RULES.md §6 is a field; its type annotation (a ``Literal`` of the allowed
values, ``bool`` or ``int``) is the validation. Unknown keys and values are errors. A whole number
is bounded by :class:`Bounds` metadata (``Annotated[int, Bounds(1, 1000)]``): every number a game
takes has limits, so that no option can make a game endless.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Generic, Literal, TypeVar, get_args, get_origin

from boneyard.core.errors import OptionError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Bounds:
    """The smallest and largest whole number an option takes (``Annotated[int, Bounds(..)]``)."""

    low: int
    high: int


def _bounds(tp: object) -> Bounds | None:
    if get_origin(tp) is Annotated:
        return next((m for m in getattr(tp, "__metadata__", ()) if isinstance(m, Bounds)), None)
    return None


def _bare(tp: object) -> object:
    """``tp`` without its ``Annotated`` metadata."""
    return get_args(tp)[0] if get_origin(tp) is Annotated else tp


def _literals(tp: object) -> list[object]:
    """The fixed values a field type admits (``Literal`` members and ``True``/``False``)."""
    origin = get_origin(tp)
    if origin is Literal:
        return list(get_args(tp))
    if tp is bool:
        return [True, False]
    if origin in (typing.Union, types.UnionType):
        return [v for arg in get_args(tp) for v in _literals(arg)]
    return []


def _takes_int(tp: object) -> bool:
    if tp is int:
        return True
    if get_origin(tp) in (typing.Union, types.UnionType):
        return any(a is int for a in get_args(tp))
    return False


def _check(name: str, annotated: object, value: object) -> object:
    tp = _bare(annotated)
    for allowed in _literals(tp):
        if value == allowed and type(value) is type(allowed):
            return value
    if _takes_int(tp) and type(value) is int:
        bounds = _bounds(annotated)
        if bounds is not None and not bounds.low <= value <= bounds.high:
            raise OptionError(
                f"option {name} must be from {bounds.low} to {bounds.high}, not {value}"
            )
        return value
    choices = [repr(a) for a in _literals(tp)]
    if _takes_int(tp):
        choices.insert(0, "a whole number")
        if len(choices) == 1:
            raise OptionError(f"option {name} must be a whole number, not {value!r}")
    raise OptionError(f"option {name} cannot be {value!r} (choose one of: {', '.join(choices)})")


@functools.cache
def _schema(
    cls: type[DataclassInstance],
) -> tuple[dict[str, object], dict[str, dataclasses.Field[object]]]:
    """Type hints and fields of an options class (resolved once: it is slow)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    return hints, {f.name: f for f in dataclasses.fields(cls)}


def build_options(
    cls: type[T],
    raw: Mapping[str, object] | None,
    presets: Mapping[str, Mapping[str, object]] | None = None,
    *,
    allow: frozenset[str] = frozenset(),
) -> T:
    """Build ``cls`` from ``raw``: ``preset`` picks a bundle, other keys override it.

    Keys in ``allow`` are accepted and ignored (e.g. the player count given elsewhere).
    """
    raw = dict(raw or {})
    values: dict[str, object] = {}
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
        values[key] = _check(key, hints[key], value)
    return cls(**values)


class OptionsMemo(Generic[T]):
    """Options already built, by player count and mapping: a new game need not check again the
    options it was given before (a bench, a bot or a server starts thousands of games).

    Values are told apart with their types (``1`` is not ``True``: one is refused where the
    other is taken), and a mapping holding a value that cannot be a key (a list) is simply
    built every time. At most ``size`` mappings are remembered.

    >>> memo = OptionsMemo(lambda raw, players: dict(raw or {}))
    >>> memo.get({"a": 1}, 2) is memo.get({"a": 1}, 2), memo.get({"a": True}, 2)
    (True, {'a': True})
    """

    __slots__ = ("_build", "_seen", "_size")

    def __init__(self, build: Callable[[Mapping[str, object] | None, int], T], size: int = 256):
        self._build = build
        self._seen: dict[Hashable, T] = {}
        self._size = size

    def get(self, raw: Mapping[str, object] | None, players: int) -> T:
        """The options ``build(raw, players)`` gives (raises as it does)."""
        key = (players, tuple(sorted((k, type(v), v) for k, v in (raw or {}).items())))
        try:
            built = self._seen.get(key)
        except TypeError:  # an unhashable value: nothing to remember it by
            return self._build(raw, players)
        if built is None:
            built = self._build(raw, players)
            if len(self._seen) < self._size:
                self._seen[key] = built
        return built


@dataclass(frozen=True, slots=True)
class OptionField:
    """One option as a form offers it (the site's New table form): the values it takes, its
    default and what each preset sets it to. Read from the options class, so that a form can
    never offer a value the game refuses, nor miss one it takes."""

    name: str
    default: object
    choices: tuple[object, ...]
    """The fixed values (``Literal`` members, ``True``/``False``), the default among them."""
    low: int | None = None
    """With ``high``: a whole number from ``low`` to ``high`` is taken too."""
    high: int | None = None
    presets: tuple[tuple[str, object], ...] = ()
    """``(preset, value)`` for each preset that sets another value than the default."""

    @property
    def seats(self) -> bool:
        """Whether its whole-number choices are seats: numbers from 0 beside words, as in
        ``first_setter`` (``"random"`` or a seat). A form numbers seats from 1."""
        numbers = [c for c in self.choices if type(c) is int]
        words = [c for c in self.choices if isinstance(c, str)]
        return bool(words) and numbers == list(range(len(numbers))) and bool(numbers)

    def to_json(self) -> dict[str, object]:
        """The form's description of the option (JSON)."""
        out: dict[str, object] = {"name": self.name, "default": self.default}
        out["choices"] = list(self.choices)
        if self.seats:
            out["seats"] = True
        if self.low is not None and self.high is not None:
            out["low"], out["high"] = self.low, self.high
        if self.presets:
            out["presets"] = dict(self.presets)
        return out


def option_fields(
    cls: type[object],
    presets: Mapping[str, Mapping[str, object]] | None = None,
    special: Mapping[str, OptionField] | None = None,
) -> tuple[OptionField, ...]:
    """Every option of the options class ``cls`` but ``preset`` (the presets are offered on
    their own), in declaration order. ``special`` replaces the fields whose type says too
    little (a game that checks a value itself, as Highrise's ``spacers_per_hand``)."""
    hints, fields = _schema(cls)  # type: ignore[arg-type]
    out = []
    for name, field in fields.items():
        if name == "preset":
            continue
        if special and name in special:
            out.append(special[name])
            continue
        annotated = hints[name]
        choices = _literals(_bare(annotated))
        bounds = _bounds(annotated) if _takes_int(_bare(annotated)) else None
        set_by = tuple(
            (preset, values[name])
            for preset, values in (presets or {}).items()
            if name in values and values[name] != field.default
        )
        out.append(
            OptionField(
                name,
                field.default,
                tuple(choices) or (() if bounds else (field.default,)),
                bounds.low if bounds else None,
                bounds.high if bounds else None,
                set_by,
            )
        )
    return tuple(out)
