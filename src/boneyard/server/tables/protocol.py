"""The live table's realtime protocol as types: what a client may send (:data:`ClientMessage`) and
what the server sends (:data:`ServerMessage`), each a pydantic discriminated union on ``type``.

A client message is parsed once, here, into one command value; the socket then dispatches on its
class, never on dict keys. A move has no ``type`` (``{"seq": V, "action": {...}}``, as the
protocol began): the discriminator reads a message without one as a move, so an unknown ``type``
is never taken for a move. A message that does not fit is refused in a player's words
(:func:`parse`) and changes nothing.

The server's messages are built as dicts on the hot path (a view is sent to every socket after
every move); :data:`ServerMessage` states their shape, is checked against every frame of a game
in the tests, and is the protocol's reference with docs/server.md.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    StrictInt,
    StrictStr,
    Tag,
    TypeAdapter,
    ValidationError,
)

# -- client → server ---------------------------------------------------------------------------


class _In(BaseModel):
    """A client message: fields beyond the protocol's are ignored (older pages may send some)."""

    model_config = ConfigDict(frozen=True, extra="ignore")


class Move(_In):
    """A move chosen in the view of version ``seq``: a ``moves[i].event`` of that view."""

    seq: StrictInt
    action: dict[str, object]


class Resync(_In):
    """Send me the current view and the chat history."""

    type: Literal["resync"]


class Chat(_In):
    """A chat line (its text is checked by the chat: length, flood, mutes)."""

    type: Literal["chat"]
    text: object = None


class Mute(_In):
    """Hide (``mute``) or show again (``unmute``) a person's chat."""

    type: Literal["mute", "unmute"]
    user_id: object = None


class Seed(_In):
    """My client seed for the coming hand (docs/fairness.md; the seed is checked there)."""

    type: Literal["seed"]
    hand: object = None
    seed: object = None


class Reclaim(_In):
    """Take back my seat from the bot that replaced me."""

    type: Literal["reclaim"]


class Continue(_In):
    """I have seen the end of hand ``hand``."""

    type: Literal["continue"]
    hand: object = None


class Leave(_In):
    """Resign, abort, or ask for a rematch (answered by the views every socket gets)."""

    type: Literal["resign", "abort", "rematch"]


class Claim(_In):
    """Claim the game (``how``: ``win``) or a bot for seat ``seat`` whose person left."""

    type: Literal["claim"]
    seat: object = None
    how: object = None


KINDS = (
    "resync", "chat", "mute", "unmute", "seed", "reclaim", "continue", "resign", "abort", "claim",
    "rematch",
)  # fmt: skip
TYPES = ", ".join(KINDS[:-1]) + " and " + KINDS[-1]
"""The message types, for the answer to an unknown one."""


def _kind(value: object) -> str | None:
    if not isinstance(value, dict):
        return None
    kind = value.get("type", "move")
    if kind in ("mute", "unmute"):
        return "mute"
    if kind in ("resign", "abort", "rematch"):
        return "leave"
    return kind if isinstance(kind, str) else "?"  # (no such tag: an unknown type)


ClientMessage = Annotated[
    Annotated[Move, Tag("move")]
    | Annotated[Resync, Tag("resync")]
    | Annotated[Chat, Tag("chat")]
    | Annotated[Mute, Tag("mute")]
    | Annotated[Seed, Tag("seed")]
    | Annotated[Reclaim, Tag("reclaim")]
    | Annotated[Continue, Tag("continue")]
    | Annotated[Leave, Tag("leave")]
    | Annotated[Claim, Tag("claim")],
    Discriminator(_kind),
]
CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class Refused(Exception):
    """A client message that is not part of the protocol; the text says why, for a player."""


MOVE_SHAPE = 'a move is {"seq": <version>, "action": {...}}'


def parse(text: str) -> ClientMessage:
    """The command in ``text`` (JSON), or :class:`Refused` with what to send instead."""
    try:
        return CLIENT.validate_json(text)
    except ValidationError as exc:
        raise Refused(_why(text, exc)) from None


def _why(text: str, exc: ValidationError) -> str:
    first = exc.errors()[0]
    kind = first["type"]
    if kind == "json_invalid":
        return (
            "the message is nested too deeply"
            if "recursion" in first["msg"].lower()
            else "the message is not valid JSON"
        )
    if kind == "union_tag_not_found" or (kind == "model_type" and not first["loc"]):
        return 'a message is an object like {"seq": 3, "action": {...}}'
    if kind == "union_tag_invalid":
        return f"unknown message type ({MOVE_SHAPE}; the others are {TYPES})"
    where = first["loc"]
    if where[:2] == ("move", "action") and kind == "dict_type":
        return '"action" must be an object of record event fields'
    if where[:2] == ("move", "seq") and len(where) == 2 and kind != "missing":
        return '"seq" is the version of the view the move was chosen in (a whole number)'
    if where and where[0] == "move":
        return MOVE_SHAPE
    field = ".".join(str(p) for p in where[1:]) or "the message"
    return f'"{field}" {first["msg"].lower()}'


# -- server → client ---------------------------------------------------------------------------


class _Out(BaseModel):
    """A server message: the fields named here are always there; others may be (documented in
    docs/server.md with the message)."""

    model_config = ConfigDict(extra="allow")


class View(_Out):
    """The table as one seat (or a spectator) sees it, after every accepted action or deal."""

    type: Literal["view", "resync"]
    version: StrictInt
    seat: int | None
    table: dict[str, object]
    view: dict[str, object] | None
    moves: list[dict[str, object]]


class Error(_Out):
    """A refusal: nothing changed. ``about``: the message type it answers, when not a move."""

    type: Literal["error"]
    message: StrictStr
    version: int | None = None
    about: str | None = None


class SeedAnswer(_Out):
    """A client seed taken for hand ``hand``."""

    type: Literal["seed"]
    hand: int
    seat: int
    seed: str


class ChatLine(_Out):
    """A chat line as the table shows it (committed before it is sent)."""

    type: Literal["chat"]
    id: int
    user_id: int
    name: str
    seat: int | None
    text: str
    at: str


class ChatHistory(_Out):
    """The chat so far (on connect and resync)."""

    type: Literal["chat_history"]
    messages: list[dict[str, object]]


class Mutes(_Out):
    """Whom the person muted, after a mute or an unmute."""

    type: Literal["mutes"]
    muted: list[dict[str, object]]


class Presence(_Out):
    """Who is connected (to a socket opened with ``?presence=1``)."""

    type: Literal["presence"]
    presence: list[dict[str, object] | None]


class Clock(_Out):
    """The turn clock moved to a new phase (a warning, a seat taken)."""

    type: Literal["clock"]
    clock: dict[str, object] | None


ServerMessage = Annotated[
    View | Error | SeedAnswer | ChatLine | ChatHistory | Mutes | Presence | Clock,
    Discriminator("type"),
]
SERVER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
