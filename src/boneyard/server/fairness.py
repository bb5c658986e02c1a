"""Deals you can check: commit to a server seed, deal from it, reveal it (docs/fairness.md).

Scheme ``boneyard-deal/1``, per hand ``h`` (0-based) of a table:

* the server draws ``seed``: 32 random bytes written as 64 lowercase hex digits;
* before the hand it publishes ``commitment = sha256(seed as ASCII text)`` in hex;
* the deal is the game's own ``deal_random(rng)`` with ``rng = random.Random(n)`` where
  ``n = int.from_bytes(sha256("boneyard-deal/1:" + seed + ":" + str(h)).digest(), "big")``;
* after the hand the seed is revealed in the record's ``meta.fairness.hands[h].seed``.

>>> s = "00" * 32
>>> commitment(s)[:16]
'60e05bd1b195af2f'
>>> deal_number(s, 0) == deal_number(s, 0) != deal_number(s, 1)
True
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.core.errors import BoneyardError, IllegalActionError, RecordError
from boneyard.core.protocol import JSON, GameState
from boneyard.core.records import Record
from boneyard.games.registry import get_spec

SCHEME = "boneyard-deal/1"


def new_seed() -> str:
    """A fresh server seed (64 hex digits from the operating system's CSPRNG)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """``sha256`` of the seed's hex text, in hex (what is published before the hand)."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def deal_number(seed: str, hand: int) -> int:
    """The integer that seeds hand ``hand``'s ``random.Random``."""
    digest = hashlib.sha256(f"{SCHEME}:{seed}:{hand}".encode("ascii")).digest()
    return int.from_bytes(digest, "big")


def deal_rng(seed: str, hand: int) -> random.Random:
    """The generator the game's ``deal_random`` shuffles with for hand ``hand``."""
    return random.Random(deal_number(seed, hand))


def event_matches(legal: Mapping[str, Any], sent: Mapping[str, Any], loose: bool) -> bool:
    """Whether ``sent`` names the legal action whose event is ``legal``.

    ``loose`` (records): a field the legal action leaves ``None`` (a draw's hidden tile) matches
    any value, since the state decides it.
    """
    if set(legal) != set(sent):
        return False
    for key, value in legal.items():
        if value is None and loose:
            continue
        if sent[key] != value:
            return False
    return True


def find_action(state: GameState, sent: Mapping[str, Any], loose: bool = False) -> Any:
    """The current seat's legal action matching the event fields ``sent``.

    Raises :class:`IllegalActionError` in a player's words when none matches.
    """
    actions = state.legal_actions()
    for action in actions:
        if event_matches(action.to_event(), sent, loose):
            return action
    if not actions:
        raise IllegalActionError("nobody can move now")
    return _explain(state, sent)


def _explain(state: GameState, sent: Mapping[str, Any]) -> Any:
    """Raise the clearest reason for an unmatched move (the game's own parser when it helps)."""
    spec = get_spec(state.game)
    seat = state.current_seat
    tile = sent.get("play")
    if isinstance(tile, str) and seat is not None:
        try:
            spec.parse_action(state.observation(seat), tile)
        except BoneyardError as exc:
            raise IllegalActionError(str(exc)) from None
        raise IllegalActionError(f"{tile} cannot be played that way")
    raise IllegalActionError("that is not one of your legal moves")


def new_state(game: str, options: Mapping[str, Any], names: Sequence[str]) -> GameState:
    """A fresh game of ``game`` with these seat names."""
    spec = get_spec(game)
    state = spec.new_game(len(names), dict(options))
    state.names = list(names)
    return state


def deal(state: GameState, seed: str, hand: int) -> None:
    """Deal hand ``hand`` of ``state`` from ``seed`` (the documented function)."""
    state.deal_random(deal_rng(seed, hand))


@dataclass(frozen=True)
class HandCheck:
    """``boneyard verify`` for one hand: ``ok`` true/false, or ``None`` when not checkable."""

    hand: int
    ok: bool | None
    why: str

    def to_json(self) -> JSON:
        """One output line."""
        return {"hand": self.hand, "ok": self.ok, "why": self.why}


def _setup(hand_doc: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in hand_doc.items() if k != "events"}


def fairness_hands(meta: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``meta.fairness.hands`` of a record (empty when absent)."""
    fair = meta.get("fairness")
    if not isinstance(fair, Mapping) or fair.get("scheme") != SCHEME:
        return []
    hands = fair.get("hands")
    if not isinstance(hands, list):
        return []
    return [h if isinstance(h, Mapping) else {} for h in hands]


def verify_record(record: Record) -> list[HandCheck]:
    """Recompute every deal of ``record`` from its revealed seeds.

    For each hand: the seed must match its commitment and dealing from it must give exactly the
    record's set-up; the hand's events are then replayed (they must be legal) to reach the next.
    """
    fair = fairness_hands(record.meta)
    if not fair:
        raise RecordError(f"the record has no {SCHEME} fairness data in meta.fairness")
    state = new_state(record.game, record.options, record.seats)
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
        deal(state, seed, h)
        dealt = state.record()["hands"][h]
        if _setup(dealt) != _setup(hand_doc):
            out.append(HandCheck(h, False, "dealing from the revealed seed gives another deal"))
            break
        out.append(HandCheck(h, True, "the deal matches the revealed seed and commitment"))
        _replay_events(state, hand_doc, h)
    return out


def _replay_events(state: GameState, hand_doc: Mapping[str, Any], h: int) -> None:
    events = hand_doc.get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list", h, None)
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise RecordError("an event must be an object", h, i)
        fields = {k: v for k, v in ev.items() if k != "seat"}
        if ev.get("seat") != state.current_seat:
            raise RecordError(f"it is not seat {ev.get('seat')}'s turn", h, i)
        try:
            state.apply(find_action(state, fields, loose=True))
        except BoneyardError as exc:
            raise RecordError(str(exc), h, i) from None
    recorded = state.record()["hands"][h]["events"]
    if recorded != events:
        raise RecordError("the events do not replay to the same hand", h, None)
