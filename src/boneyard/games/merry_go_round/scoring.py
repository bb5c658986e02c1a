"""Merry-Go-Round scoring rules as pure functions (RULES §2.4–§2.6).

Points are pips / 5: 1 point per 5 pips, totals rounded to the nearest 5 first (RULES §0.1).

>>> [pips_to_points(p) for p in (1, 2, 3, 7, 8, 12, 23)]
[0, 0, 1, 1, 2, 2, 5]
"""

from __future__ import annotations

from collections.abc import Sequence


def pips_to_points(pips: int) -> int:
    """Points for a non-negative pip total: ``round5(pips) / 5`` (S2's table)."""
    return (pips + 2) // 5  # round5(pips) // 5, without a call into a module not compiled


def play_points(count: int) -> int:
    """Points a placement earns with this count: ``count / 5`` for a positive multiple of 5.

    >>> play_points(15), play_points(13), play_points(0)
    (3, 0, 0)
    """
    return count // 5 if count > 0 and count % 5 == 0 else 0


def round5_half(twice: int, half_up: bool) -> int:
    """Round ``twice / 2`` pips to the nearest multiple of five (a 3-handed split, MG-12).

    Only an exact x.5 tie (12.5) depends on ``half_up``; anything else rounds as
    :func:`~boneyard.core.tiles.round5`.

    >>> round5_half(25, True), round5_half(25, False), round5_half(23, True), round5_half(24, False)
    (15, 10, 10, 10)
    """
    base = 10 * (twice // 10)
    rest = twice - base
    if rest < 5 or (rest == 5 and not half_up):
        return base // 2
    return base // 2 + 5


def domino_points(
    winner: int,
    pips: list[int],
    partner: int | None,
    *,
    per_opponent: bool = False,
    net: bool = True,
) -> int:
    """Signed points the side of ``winner`` earns for going out (RULES §2.5, MG-8/MG-9).

    ``pips`` is every seat's hand after the last play; ``partner`` is the winner's partner in
    a partnership game (None otherwise). With ``net`` the partner's pips count against the side
    (the result may be negative); ``per_opponent`` rounds each opponent's hand separately.

    >>> domino_points(0, [0, 23], None)
    5
    >>> domino_points(0, [0, 7, 7], None), domino_points(0, [0, 7, 7], None, per_opponent=True)
    (3, 2)
    >>> domino_points(0, [0, 14, 9, 11], 2), domino_points(0, [0, 6, 20, 4], 2)
    (3, -2)
    """
    mate = -1 if partner is None else partner
    own = pips[mate] if mate >= 0 and net else 0
    total = 0  # a loop over the list: compiled, it needs no generator (once a hand)
    for i in range(len(pips)):
        if i != winner and i != mate:
            total += pips_to_points(pips[i]) if per_opponent else pips[i]
    if per_opponent:
        return total - pips_to_points(own)
    total -= own
    return pips_to_points(total) if total >= 0 else -pips_to_points(-total)


def block_points(
    pips: Sequence[int],
    rivals: Sequence[Sequence[int]],
    method: str,
    *,
    half_up: bool = True,
) -> list[int]:
    """Points each seat earns at a blocked hand, before any side total or target check.

    ``rivals[i]`` are the seats whose hands count against seat ``i`` (its opponents, or with
    ``block_vs = "all_others"`` every other seat). ``method`` is ``mgr.block_scoring``:

    * ``differences``: every seat scores the rounded sum of its differences to the rivals
      holding more pips (the lowest hand first, then the next-lowest, ...);
    * ``lowest_takes_all``: the single lowest hand scores its rivals' pips; a tie for lowest
      scores nothing, except with three players, where two tied hands split the third hand;
    * ``lowest_minus_own``: the single lowest hand scores its rivals' pips minus its own.

    >>> others = [[1, 2], [0, 2], [0, 1]]
    >>> block_points([4, 10, 17], others, "differences")
    [4, 1, 0]
    >>> block_points([5, 5, 25], others, "lowest_takes_all")
    [3, 3, 0]
    >>> block_points([5, 5, 25], others, "lowest_takes_all", half_up=False)
    [2, 2, 0]
    >>> block_points([4, 10, 17], others, "lowest_minus_own")
    [5, 0, 0]
    """
    n = len(pips)
    out = [0] * n
    if method == "differences":
        for i in range(n):
            diff = sum(pips[j] - pips[i] for j in rivals[i] if pips[j] > pips[i])
            out[i] = pips_to_points(diff)
        return out
    low = min(pips)
    lowest = [i for i in range(n) if pips[i] == low]
    if len(lowest) == 1:
        w = lowest[0]
        total = sum(pips[j] for j in rivals[w])
        if method == "lowest_minus_own":
            total = max(0, total - pips[w])
        out[w] = pips_to_points(total)
    elif method == "lowest_takes_all" and n == 3 and len(lowest) == 2:
        third = next(i for i in range(n) if i not in lowest)
        share = round5_half(pips[third], half_up) // 5
        for i in lowest:
            out[i] = share
    return out


def credit_order(pips: Sequence[int], sides: Sequence[Sequence[int]]) -> list[int]:
    """Side indices in the order block credits are applied: lowest hand first, ties by seat.

    >>> credit_order([9, 3, 12, 3], [[0, 2], [1, 3]])
    [1, 0]
    """
    return sorted(range(len(sides)), key=lambda s: min((pips[i], i) for i in sides[s]))


def lowest_member(pips: Sequence[int], members: Sequence[int]) -> int:
    """The side member holding fewest pips (ties: the lower seat).

    >>> lowest_member([9, 3, 12, 3], [1, 3])
    1
    """
    return min(members, key=lambda i: (pips[i], i))
