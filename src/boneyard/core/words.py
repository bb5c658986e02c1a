"""A hand's end in a player's words: the parts that know no game.

When a hand ends, the site shows every hand's remaining tiles face up and explains the scoring
in sentences — "Bob kept 5-5 and 6-2: 18 pips", "Ann went out: … — Ann scores 20". What those
sentences say depends on the game, so each game writes its own (its ``GameSpec``'s
``explain_hand_end``, in the game's ``handend`` module) from the helpers here: tiles listed,
points signed, the pips a hand holds, and the sentences every game shares (a bogus play, the
target reached). They work from public facts only: an :class:`Ending`. Pure: no I/O.

>>> end = hand_end({"hand": 0, "reason": "domino", "winner": 0, "award": 20, "scores": [45, 10]})
>>> plain_end(Ending(("Ann", "Bob"), end, ((), ("5-5", "6-2"))))
['Bob kept 5-5 and 6-2: 18 pips.', 'Ann wins the hand and scores 20.']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.core.protocol import HandEnd
from boneyard.core.tiles import Tile


@dataclass(frozen=True, slots=True)
class Ending:
    """A finished hand as everyone may know it once it is over."""

    names: tuple[str, ...]
    """The seats' names."""
    end: HandEnd
    """How it ended (the ``hand_end`` replay line, RECORDS.md §5): the amounts stated are
    always its own (what was actually credited: capped payments and busts included)."""
    hands: tuple[tuple[str, ...], ...] = ()
    """The tiles every seat kept (public once the hand is over); empty when not known."""
    options: Mapping[str, object] = field(default_factory=dict)
    """The game's options as its record states them."""
    partners: bool = False
    """Whether the seats play in partnerships."""


Explainer = Callable[[Ending], list[str]]
"""How a game explains a finished hand, sentence by sentence (``GameSpec.explain_hand_end``)."""


def hand_end(line: Mapping[str, Any]) -> HandEnd:
    """The :class:`HandEnd` a ``hand_end`` replay line states (a field it lacks: none, 0).

    >>> hand_end({"reason": "block", "winner": None, "awards": [-14, -3]}).awards
    (-14, -3)
    """
    winner = line.get("winner")
    awards = line.get("awards")
    return HandEnd(
        hand=int(line.get("hand") or 0),
        reason=str(line.get("reason")),
        winner=winner if isinstance(winner, int) else None,
        award=int(line.get("award") or 0),
        awards=tuple(int(a) for a in awards) if isinstance(awards, list) else None,
        scores=tuple(int(s) for s in line.get("scores") or []),
    )


def same(a: str, b: str) -> bool:
    """Whether two tile names are the same tile, whichever way round.

    >>> same("5-0", "0-5"), same("W-3", "3-W"), same("1-2", "1-3")
    (True, True, False)
    """
    return sorted(a.split("-")) == sorted(b.split("-"))


def reveal(before: Sequence[Sequence[str]], event: Mapping[str, object]) -> list[list[str]]:
    """Every seat's tiles after the hand's last event: ``before`` (the hands just before it) with
    the tile that event played taken out of, or the tile it drew added to, its seat's hand (an
    observation after a hand's end no longer shows them).

    >>> reveal([["5-5", "1-2"], ["0-4"]], {"seat": 1, "play": "4-0"})
    [['5-5', '1-2'], []]
    >>> reveal([["1-1"], ["2-3"]], {"seat": 0, "draw": "3-3"})
    [['1-1', '3-3'], ['2-3']]
    """
    hands = [list(h) for h in before]
    seat = event.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(hands):
        return hands
    played = event.get("play")
    if isinstance(played, str):
        mine = hands[seat]
        hit = next((i for i, t in enumerate(mine) if same(t, played)), None)
        if hit is not None:
            del mine[hit]
    drawn = event.get("draw")
    if isinstance(drawn, str) and not any(same(t, drawn) for t in hands[seat]):
        hands[seat].append(drawn)
    return hands


def pips(tiles: Sequence[str]) -> int:
    """What ``tiles`` count in hand: their pips (a wild half counts as :class:`Tile` says).

    >>> pips(["5-5", "6-2"]), pips(["W-3"])
    (18, 10)
    """
    return sum(Tile.parse(t).pips for t in tiles)


def listing(items: Sequence[str]) -> str:
    """``5-5``, ``5-5 and 6-2``, ``1-1, 5-5 and 6-2``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def signed(n: int) -> str:
    """``+10``, ``0``, ``−14`` (a real minus sign)."""
    return f"+{n}" if n > 0 else "0" if n == 0 else f"−{-n}"


def points(n: int) -> str:
    """``1 point``, ``4 points``."""
    return f"{n} point{'' if n == 1 else 's'}"


def awards(e: Ending) -> str:
    """Every seat's award: ``Ann −14, Bob −3``."""
    return ", ".join(f"{e.names[i]} {signed(a)}" for i, a in enumerate(e.end.awards or ()))


def pip_count(n: int) -> str:
    """A count of pips as said: a hand that kept only 0-1 holds ``1 pip``.

    >>> pip_count(18), pip_count(1), pip_count(0)
    ('18 pips', '1 pip', '0 pips')
    """
    return f"{n} pip{'' if n == 1 else 's'}"


def in_pips(total: int) -> str:
    """How :func:`kept` counts a hand by default: ``: 18 pips``."""
    return f": {pip_count(total)}"


def kept(e: Ending, amount: Callable[[int], str] | None = in_pips) -> list[str]:
    """``Bob kept 5-5 and 6-2: 18 pips.`` for every seat with tiles left; ``amount``: the words
    for what they count (``None``: the tiles are only named)."""
    out = []
    for i, tiles in enumerate(e.hands):
        if tiles and i < len(e.names):
            counted = amount(pips(tiles)) if amount else ""
            out.append(f"{e.names[i]} kept {listing(tiles)}{counted}.")
    return out


def scoring(e: Ending) -> list[str]:
    """How the hand was scored where a game has no words of its own for it: the winner, the
    target reached, a bogus play or a referee's ruling."""
    w = e.end.winner
    award = e.end.award
    who = e.names[w] if w is not None and w < len(e.names) else None
    reason = e.end.reason
    if reason == "game_over":
        return [f"{who} reached the target: the game is over." if who else "The game is over."]
    if reason in ("bogus", "ruling"):
        what = "A bogus play" if reason == "bogus" else "A referee's ruling"
        tail = f": {who} scores {award}." if who and award else "."
        return [f"{what} ended the hand{tail}"]
    if who and award:
        return [f"{who} wins the hand and scores {award}."]
    return [f"{who} wins the hand." if who else "Nobody scores for this hand."]


def plain_end(e: Ending) -> list[str]:
    """A game's explanation when it has none of its own: the tiles kept in pips, then
    :func:`scoring`."""
    return kept(e) + scoring(e)
