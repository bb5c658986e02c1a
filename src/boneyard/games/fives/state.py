"""The base state of the Fives games (High Five, Merry-Go-Round): hands as bit masks, a
boneyard in draw order, the Fives layout, and the record of every hand (RECORDS.md §2).

High Five and Merry-Go-Round differ in their rules (who starts, what may be played, what
scores, how a hand ends), not in how a hand is dealt, held, laid out, shown or written down:
that common part is here, and each game extends :class:`FivesState` with its rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Protocol, TypeVar

from boneyard.core.chance import shuffled
from boneyard.core.errors import IllegalActionError
from boneyard.core.records import JSON
from boneyard.core.state import OVER, GameBase
from boneyard.core.tiles import Tile
from boneyard.games.fives.layout import A_ANY, TILES, FivesLayout, ids_of
from boneyard.games.fives.play import (
    ALL_IDS,
    NAMES,
    PlacedView,
    PublicEvent,
    ends_view,
    hand_masks,
    placed_views,
)


class FivesEvent(Protocol):
    """What a Fives state needs of its events: their record form and public view."""

    def to_json(self) -> JSON:
        """The record event."""
        ...

    def public(self, viewer: int | None) -> PublicEvent:
        """The event as ``viewer`` sees it."""
        ...


A = TypeVar("A")
E = TypeVar("E", bound=FivesEvent)
Ob = TypeVar("Ob")

HandDoc = tuple[list[list[int]], list[int], list[E] | None]
"""A hand of the record: each seat's dealt tile ids, the boneyard in draw order, and the events
once the hand is over (``None`` while it is in play: they are the state's ``events``)."""


class FivesState(GameBase[A, E, Ob]):
    """A Fives game: see the module docstring. A game sets :attr:`policy` (which open ends may be
    played on), implements :meth:`hand_size`, :meth:`_deal_hook` and the rules."""

    COPY_SHARED: ClassVar[tuple[str, ...]] = (
        *GameBase.COPY_SHARED,
        "policy",
        "boneyard",
        "bpos",
    )
    """The boneyard list is never changed in place (a change replaces it), so copies share it."""
    COPY_COPIED: ClassVar[tuple[str, ...]] = (
        *GameBase.COPY_COPIED,
        "hands",
        "layout",
        "hands_doc",
    )

    def __init__(self, players: int, names: Sequence[str] | None = None) -> None:
        super().__init__(players, names)
        self.policy: int = A_ANY
        """Which open ends may be played on (an :class:`Availability`)."""
        self.hands: list[int] = [0] * players
        """Each seat's tiles as a bit mask of tile ids."""
        self.boneyard: list[int] = []
        """The boneyard's tile ids in draw order; ``bpos`` is the next to draw."""
        self.bpos = 0
        self.layout = FivesLayout()
        self.hands_doc: list[HandDoc[E]] = []

    # --- dealing ----------------------------------------------------------------------------

    def hand_size(self) -> int:
        """Tiles each seat is dealt."""
        raise NotImplementedError

    def check_deal(self) -> None:
        """Refuse a deal while a hand is in play or once the game is over."""
        if not self.awaiting_deal:
            raise IllegalActionError(
                "the game is over" if self.phase == OVER else "the hand in play is not finished"
            )

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand with ``rng``."""
        self.check_deal()
        order = shuffled(rng, ALL_IDS)
        k = self.hand_size()
        hands = [order[i * k : (i + 1) * k] for i in range(self.n)]
        self._deal_hook(hands, order[self.n * k :], rng)

    def _deal_hook(self, hands: list[list[int]], bone: list[int], rng: random.Random) -> None:
        """Start a randomly dealt hand (``rng`` for anything else the deal decides)."""
        raise NotImplementedError

    def _start(self, hands: list[list[int]], bone: list[int]) -> None:
        """Lay out the next hand's tiles; the game then says who plays first."""
        # The boneyard list is never changed in place, so the record may hold it too.
        self.hands_doc.append((hands, bone, None))
        self.hands = hand_masks(hands)
        self.boneyard = bone
        self.bpos = 0
        self.layout.reset()
        self.events = []
        self.hands_dealt += 1

    def _end_hand(
        self, reason: str, winner: int | None, award: int, awards: tuple[int, ...] | None = None
    ) -> None:
        deal, bone, _ = self.hands_doc[-1]
        self.hands_doc[-1] = (deal, bone, self.events)
        super()._end_hand(reason, winner, award, awards)

    # --- the record -------------------------------------------------------------------------

    def hands_json(self) -> list[JSON]:
        """Every hand dealt: ``deal``, ``boneyard`` and ``events`` (RECORDS §2)."""
        return [
            {
                "deal": [[NAMES[t] for t in h] for h in deal],
                "boneyard": [NAMES[t] for t in bone],
                "events": [e.to_json() for e in (self.events if events is None else events)],
            }
            for deal, bone, events in self.hands_doc
        ]

    # --- what a seat sees -------------------------------------------------------------------

    def held(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds, lowest first (hidden from the other seats)."""
        return tuple(TILES[t] for t in ids_of(self.hands[seat]))

    def history(self, viewer: int | None) -> tuple[PublicEvent, ...]:
        """The events of the hand as ``viewer`` sees them."""
        return tuple(e.public(viewer) for e in self.events)

    def placed(self) -> tuple[PlacedView, ...]:
        """Every placed tile, as everyone sees it."""
        return placed_views(self.layout)

    def open_ends(self) -> tuple[tuple[int, Tile, str], ...]:
        """Every open end."""
        return ends_view(self.layout.open)
