"""Deals you can check: commit to a server seed, mix in the players' seeds, deal, reveal.

See docs/fairness.md. Two schemes; a table deals by one of them and its record says which.

``boneyard-deal/2`` (current), per hand ``h`` (0-based) of a table:

* the server draws ``seed``: 32 random bytes written as 64 lowercase hex digits, and publishes
  ``commitment = sha256(seed as ASCII text)`` in hex *before* anyone may add a seed for the hand
  (hand 0's when the table is created, hand ``h + 1``'s when hand ``h`` is dealt);
* every seated person may add a client seed (1 to 128 printable characters) until the deal;
* the deal is the game's own ``deal_random(rng)`` with ``rng = random.Random(n)`` where
  ``n = int.from_bytes(sha256(text).digest(), "big")`` and ``text`` is
  ``"boneyard-deal/2:" + seed + ":" + str(h)`` followed, for each seat in order, by ``":"`` and
  the hex sha256 of that seat's client seed (UTF-8), or ``":-"`` when the seat added none;
* the client seeds are published with the deal, the server seed once the hand is over, and the
  record's ``meta.fairness.hands[h]`` carries ``commitment``, ``seed`` and ``client_seeds``.

``boneyard-deal/1`` (records written before client seeds): the same without the client seeds,
``text = "boneyard-deal/1:" + seed + ":" + str(h)``.

>>> s = "00" * 32
>>> commitment(s)[:16]
'60e05bd1b195af2f'
>>> deal_number(s, 0) == deal_number(s, 0) != deal_number(s, 1)
True
>>> deal_text(s, 2, ["abc", None]).endswith(":2:" + hashlib.sha256(b"abc").hexdigest() + ":-")
True
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from boneyard.core.errors import BoneyardError, IllegalActionError, RecordError
from boneyard.core.protocol import JSON, GameState
from boneyard.core.records import Record
from boneyard.games.registry import get_spec

SCHEME_V1 = "boneyard-deal/1"
"""The first scheme: server seed only (records written before client seeds)."""
SCHEME = "boneyard-deal/2"
"""The current scheme: server seed and the seated players' client seeds."""
SCHEMES = (SCHEME_V1, SCHEME)
MAX_CLIENT_SEED = 128
"""The longest client seed accepted, in characters."""

ClientSeeds = Sequence[str | None]


def new_seed() -> str:
    """A fresh server seed (64 hex digits from the operating system's CSPRNG)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """``sha256`` of the seed's hex text, in hex (what is published before the hand)."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def check_client_seed(seed: object) -> str:
    """``seed`` if it is an acceptable client seed, else :class:`IllegalActionError` saying why.

    >>> check_client_seed("my lucky seed 7")
    'my lucky seed 7'
    >>> check_client_seed("")
    Traceback (most recent call last):
    ...
    boneyard.core.errors.IllegalActionError: a seed has 1 to 128 printable characters
    """
    if not isinstance(seed, str):
        raise IllegalActionError('"seed" must be a string')
    if not 1 <= len(seed) <= MAX_CLIENT_SEED or not seed.isprintable():
        raise IllegalActionError(f"a seed has 1 to {MAX_CLIENT_SEED} printable characters")
    return seed


def deal_text(seed: str, hand: int, client_seeds: ClientSeeds = (), scheme: str = SCHEME) -> str:
    """The text whose sha256 seeds the deal of hand ``hand`` (see the module docstring)."""
    if scheme == SCHEME_V1:
        return f"{SCHEME_V1}:{seed}:{hand}"
    if scheme != SCHEME:
        raise BoneyardError(f"unknown fairness scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    parts = [
        "-" if c is None else hashlib.sha256(c.encode("utf-8")).hexdigest() for c in client_seeds
    ]
    return ":".join([SCHEME, seed, str(hand), *parts])


def deal_number(seed: str, hand: int, client_seeds: ClientSeeds = (), scheme: str = SCHEME) -> int:
    """The integer that seeds hand ``hand``'s ``random.Random``."""
    text = deal_text(seed, hand, client_seeds, scheme)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


def deal_rng(
    seed: str, hand: int, client_seeds: ClientSeeds = (), scheme: str = SCHEME
) -> random.Random:
    """The generator the game's ``deal_random`` shuffles with for hand ``hand``."""
    return random.Random(deal_number(seed, hand, client_seeds, scheme))


def new_state(game: str, options: Mapping[str, object], names: Sequence[str]) -> GameState:
    """A fresh game of ``game`` with these seat names."""
    spec = get_spec(game)
    state = spec.new_game(len(names), dict(options))
    state.names = list(names)
    return state


def deal(
    state: GameState,
    seed: str,
    hand: int,
    client_seeds: ClientSeeds | None = None,
    scheme: str = SCHEME,
) -> None:
    """Deal hand ``hand`` of ``state`` (the documented function of the seeds).

    ``client_seeds``: one entry per seat (``None``: that seat added none); ``None`` means no
    seat added one.
    """
    seats: ClientSeeds = [None] * state.num_seats if client_seeds is None else client_seeds
    state.deal_random(deal_rng(seed, hand, seats, scheme))


@dataclass(frozen=True)
class HandCheck:
    """``boneyard verify`` for one hand: ``ok`` true/false, or ``None`` when not checkable."""

    hand: int
    ok: bool | None
    why: str

    def to_json(self) -> JSON:
        """One output line."""
        return {"hand": self.hand, "ok": self.ok, "why": self.why}


def _setup(hand_doc: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in hand_doc.items() if k != "events"}


def fairness_scheme(meta: Mapping[str, object]) -> str | None:
    """The scheme named in ``meta.fairness`` (``None`` when absent or unknown)."""
    fair = meta.get("fairness")
    if not isinstance(fair, Mapping) or fair.get("scheme") not in SCHEMES:
        return None
    return str(fair["scheme"])


def fairness_hands(meta: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``meta.fairness.hands`` of a record (empty when absent or of an unknown scheme)."""
    if fairness_scheme(meta) is None:
        return []
    hands = meta["fairness"].get("hands")
    if not isinstance(hands, list):
        return []
    return [h if isinstance(h, Mapping) else {} for h in hands]


def _client_seeds(info: Mapping[str, object], seats: int) -> list[str | None] | str:
    """The hand's client seeds by seat, or why they cannot be read."""
    raw = info.get("client_seeds")
    if raw is None:
        return [None] * seats
    if not isinstance(raw, list) or len(raw) != seats:
        return f"client_seeds must be a list of {seats} entries (a seed or null per seat)"
    if not all(c is None or isinstance(c, str) for c in raw):
        return "each client seed must be a string or null"
    return list(raw)


def verify_record(record: Record) -> list[HandCheck]:
    """Recompute every deal of ``record`` from its revealed seeds (either scheme).

    For each hand: the server seed must match its commitment and dealing from it (and, under
    ``boneyard-deal/2``, the hand's client seeds) must give exactly the record's set-up; the
    hand's events are then replayed (they must be legal) to reach the next.
    """
    scheme = fairness_scheme(record.meta)
    fair = fairness_hands(record.meta)
    if scheme is None or not fair:
        raise RecordError(
            f"the record has no fairness data ({' or '.join(SCHEMES)}) in meta.fairness"
        )
    # The record's options, read as records are (an option whose default changed since keeps
    # the default the record was written under), and its seats.
    state = get_spec(record.game).from_record(replace(record, hands=()))
    out: list[HandCheck] = []
    for h, hand_doc in enumerate(record.hands):
        info = fair[h] if h < len(fair) else {}
        seed, commit = info.get("seed"), info.get("commitment")
        if not state.awaiting_deal:
            raise RecordError("the previous hand is not finished", h, None)
        if not isinstance(seed, str) or not isinstance(commit, str):
            out.append(HandCheck(h, None, "the seed of this hand is not revealed yet"))
            break
        if commitment(seed) != commit:
            out.append(HandCheck(h, False, "the revealed seed does not match the commitment"))
            break
        clients = _client_seeds(info, state.num_seats) if scheme == SCHEME else None
        if isinstance(clients, str):
            out.append(HandCheck(h, False, clients))
            break
        deal(state, seed, h, clients, scheme)
        dealt = state.record()["hands"][h]
        if _setup(dealt) != _setup(hand_doc):
            why = "dealing from the revealed seed gives another deal"
            out.append(HandCheck(h, False, why))
            break
        mixed = sum(1 for c in clients or () if c is not None)
        why = "the deal matches the revealed seed and commitment"
        if scheme == SCHEME:
            why += f" and {mixed} client seed{'' if mixed == 1 else 's'}"
        out.append(HandCheck(h, True, why))
        _replay_events(state, hand_doc, h)
    return out


def _replay_events(state: GameState, hand_doc: Mapping[str, object], h: int) -> None:
    events = hand_doc.get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list", h, None)
    spec = get_spec(state.game)
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise RecordError("an event must be an object", h, i)
        if ev.get("seat") != state.current_seat:
            raise RecordError(f"it is not seat {ev.get('seat')}'s turn", h, i)
        try:
            state.apply(spec.action_from_event(state, ev))
        except BoneyardError as exc:
            raise RecordError(str(exc), h, i) from None
    recorded = state.record()["hands"][h]["events"]
    if recorded != events:
        raise RecordError("the events do not replay to the same hand", h, None)
