"""Legal turns: enumeration and checking, on small-int tiles and masks (RULES §3.2).

Both work on a bare position: the mover's hand mask, the layout row (tile ids in row order),
and the pairs a claim may take (``None``: any two matching layout tiles). The state and the
observation share them, so a typed move is checked by exactly the code that checks ``apply``.

The state keeps a hand and the row as ``bytes`` of tile ids (every id is below 256): in the
compiled build reading a byte costs a few instructions, where reading an int from a list or a
tuple costs a reference count and an unboxing, and a turn replaces them with a slice or two
(:func:`without`). The per-tile tables the listing reads are ``bytes`` for the same reason.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Final

from boneyard.core.errors import IllegalActionError
from boneyard.core.tiles import Tile
from boneyard.games.high_fives import rules
from boneyard.games.high_fives.actions import Claim, HighFivesAction, Turn, turn_code
from boneyard.games.high_fives.rules import HighFivesOptions, bits

if TYPE_CHECKING:  # a native 64-bit int once compiled, a plain int otherwise
    from mypy_extensions import i64

IdPair = tuple[int, int]

# The rule tables, bound here as Final: this module is compiled (setup.py), and a Final module
# value is a C static rather than a lookup in the module's namespace at every use.
MATCH: Final = rules.MATCH
NUM_TILES: Final = rules.NUM_TILES
POINTS: Final = bytes(rules.POINTS)
"""``POINTS[t]``: what tile ``t`` scores (:data:`~boneyard.games.high_fives.rules.POINTS`)."""
TILE_ID: Final = rules.TILE_ID
TILES: Final = rules.TILES
NUMBERS: Final[tuple[int, ...]] = tuple((1 << t.lo) | (1 << t.hi) for t in rules.TILES)
"""``NUMBERS[t]``: the numbers tile ``t`` shows, as a 16-bit mask; two tiles match when their
masks meet. (A mask of the 136 tiles is an integer too big for a machine word; the numbers of
one tile are not.)"""
LO: Final = bytes(t.lo for t in rules.TILES)
"""``LO[t]``: the low number of tile ``t`` (``NUMBERS[t]`` is ``1 << LO[t] | 1 << HI[t]``)."""
HI: Final = bytes(t.hi for t in rules.TILES)
"""``HI[t]``: the high number of tile ``t``."""
ONE: Final = tuple(bytes((t,)) for t in range(rules.NUM_TILES))
"""``ONE[t]``: the ``bytes`` of tile ``t`` alone, to append to a row."""


class TurnRules:
    """The options a turn is listed by, as plain flags (read at every turn of a game).

    >>> r = TurnRules(HighFivesOptions(capture_mandatory=False))
    >>> r.unlimited, r.player_choice, r.optional
    (False, True, True)
    """

    __slots__ = ("optional", "player_choice", "unlimited")

    def __init__(self, opts: HighFivesOptions) -> None:
        self.unlimited = opts.max_claims_per_turn == "unlimited"
        """Claims are steps of a turn (``max_claims_per_turn: "unlimited"``)."""
        self.player_choice = opts.capture_choice == "player"
        """The player picks which matching tile to capture (else the first in the row)."""
        self.optional = not opts.capture_mandatory
        """A tile that could capture may also be played without capturing."""


def claimable_pairs(layout: bytes, allowed: Collection[IdPair] | None) -> list[IdPair]:
    """Pairs of layout tiles a claim may take now, in row order (earlier tile first)."""
    if allowed is not None:
        return _allowed_pairs(layout, allowed)
    out: list[IdPair] = []
    n: i64 = len(layout)
    i: i64 = 0
    while i < n:
        a: i64 = layout[i]
        m = _numbers(a)
        k: i64 = i + 1
        while k < n:
            b: i64 = layout[k]
            if m & _numbers(b):
                out.append((a, b))
            k += 1
        i += 1
    return out


def _numbers(t: i64) -> i64:
    """``NUMBERS[t]`` from the bytes tables, as a native int (the listing without claims, run at
    nearly every turn, inlines it)."""
    lo: i64 = LO[t]
    hi: i64 = HI[t]
    return (1 << lo) | (1 << hi)


def _allowed_pairs(layout: Sequence[int], allowed: Collection[IdPair]) -> list[IdPair]:
    """The ``allowed`` pairs (``claimable_pairs: "left_by_player"``) still on the layout, in row
    order."""
    out: list[IdPair] = []
    if not allowed:
        return out
    pos = {t: i for i, t in enumerate(layout)}
    for a, b in allowed:
        if a in pos and b in pos:
            out.append((a, b) if pos[a] < pos[b] else (b, a))
    out.sort(key=lambda p: (pos[p[0]], pos[p[1]]))
    return out


def claim_sets(pairs: Sequence[IdPair], unlimited: bool) -> list[tuple[int, tuple[IdPair, ...]]]:
    """Every claim a turn may make: ``(mask of claimed tiles, pairs)``, the empty claim first.

    With ``unlimited`` these are all sets of pairwise disjoint pairs, each set once (pairs kept
    in the order of ``pairs``). Their number grows exponentially with the layout (a million on
    the 23-tile layout of a 7-player last deal), so play lists claim steps instead (see
    :func:`enumerate_turns`); this full list is for analysis and tests of small layouts.
    """
    out: list[tuple[int, tuple[IdPair, ...]]] = [(0, ())]
    if not unlimited:
        out.extend(((1 << a) | (1 << b), ((a, b),)) for a, b in pairs)
        return out
    masks = [(1 << a) | (1 << b) for a, b in pairs]

    def extend(start: int, used: int, chosen: tuple[IdPair, ...]) -> None:
        for k in range(start, len(pairs)):
            m = masks[k]
            if not used & m:
                now = (*chosen, pairs[k])
                out.append((used | m, now))
                extend(k + 1, used | m, now)

    extend(0, 0, ())
    return out


def enumerate_turns(
    hand: bytes,
    layout: bytes,
    allowed: Collection[IdPair] | None,
    flags: TurnRules,
    pending: tuple[IdPair, ...] = (),
) -> tuple[HighFivesAction, ...]:
    """Every legal action for a seat holding ``hand`` (tile ids, ascending) on the layout row
    ``layout``: whole turns grouped by played tile (lowest first), then claim, then captured
    tile (lowest first).

    With ``max_claims_per_turn`` ``"unlimited"`` the claims are steps instead: one
    :class:`Claim` per pair still claimable (listed first), and the turns that claim exactly
    the ``pending`` pairs already claimed this turn.

    Each listed turn carries its ids in ``code`` (:func:`turn_code`; -1 for a turn ending
    claim steps).
    """
    if not flags.unlimited:
        seen, twice = _row_numbers(layout)
        paired = twice != 0 if allowed is None else _any_pair(layout, allowed)
        if not paired:
            # Nothing to claim: nearly every position, listed by a loop of its own.
            return _claimless(hand, layout, seen, flags.player_choice, flags.optional)
    return _with_claims(hand, layout, allowed, flags, pending)


def _row_numbers(layout: bytes) -> tuple[i64, i64]:
    """The numbers the layout tiles show (a 16-bit mask), and those shown by two or more: two
    layout tiles match exactly when the second mask is not empty."""
    seen: i64 = 0
    twice: i64 = 0
    n: i64 = len(layout)
    k: i64 = 0
    while k < n:
        x: i64 = layout[k]
        lo: i64 = LO[x]
        hi: i64 = HI[x]
        m: i64 = (1 << lo) | (1 << hi)
        twice |= seen & m
        seen |= m
        k += 1
    return seen, twice


def _any_pair(layout: Sequence[int], allowed: Collection[IdPair]) -> bool:
    """Whether a claim may take a pair of the layout ``layout`` now, when only the pairs
    ``allowed`` may be claimed."""
    return bool(allowed) and bool(_allowed_pairs(layout, allowed))


def _with_claims(
    hand: bytes,
    layout: bytes,
    allowed: Collection[IdPair] | None,
    flags: TurnRules,
    pending: tuple[IdPair, ...],
) -> tuple[HighFivesAction, ...]:
    """:func:`enumerate_turns` when a pair may be claimed, or claims are steps."""
    unlimited = flags.unlimited
    out: list[HighFivesAction] = []
    # Each way to claim: the claimed pair's ids (-1, -1: none) and the claim as written.
    claims: list[tuple[int, int, tuple[tuple[Tile, Tile], ...]]]
    free = layout
    if unlimited:
        taken = [t for pair in pending for t in pair]
        free = bytes([x for x in layout if x not in taken])
        for a, b in claimable_pairs(free, allowed):
            out.append(Claim((TILES[a], TILES[b])))
        claim = tuple([(TILES[a], TILES[b]) for a, b in pending])
        claims = [(-2, -2, claim) if pending else (-1, -1, ())]
    else:
        claims = [(-1, -1, ())]
        for a, b in claimable_pairs(layout, allowed):
            claims.append((a, b, ((TILES[a], TILES[b]),)))
    player_choice = flags.player_choice
    optional = flags.optional
    size: i64 = len(hand)
    i: i64 = 0
    while i < size:
        t: i64 = hand[i]
        # The layout tiles this play may capture, less those a claim takes: listed lowest
        # first when the player chooses, else the first in the row's order is taken.
        match = _matching(t, free)
        if player_choice:
            match.sort()
        for a, b, claim in claims:
            found = False
            for x in match:
                if x != a and x != b:
                    _add(out, t, x, a, b, claim, unlimited)
                    found = True
                    if not player_choice:
                        break
            if optional or not found:
                _add(out, t, -1, a, b, claim, unlimited)
        i += 1
    return tuple(out)


def _matching(t: i64, layout: bytes) -> list[int]:
    """The layout tiles that match tile ``t``, in row order."""
    numbers = _numbers(t)
    out: list[int] = []
    n: i64 = len(layout)
    k: i64 = 0
    while k < n:
        x: i64 = layout[k]
        if numbers & _numbers(x):
            out.append(x)
        k += 1
    return out


def _claimless(
    hand: bytes, layout: bytes, seen: i64, player_choice: bool, optional: bool
) -> tuple[HighFivesAction, ...]:
    """The turns of :func:`enumerate_turns` when no pair can be claimed (one claim step at
    most per turn), in the same order; ``seen`` is the numbers the layout shows."""
    out: list[HighFivesAction] = []
    n: i64 = len(layout)
    size: i64 = len(hand)
    i: i64 = 0
    while i < size:
        t: i64 = hand[i]
        lo: i64 = LO[t]  # (_numbers inline here: a call costs as much as the test)
        hi: i64 = HI[t]
        numbers: i64 = (1 << lo) | (1 << hi)
        first: i64 = -1
        second: i64 = -1
        count: i64 = 0
        k: i64 = 0
        while k < n and numbers & seen:  # (a tile showing no layout number skips the row)
            x: i64 = layout[k]
            xlo: i64 = LO[x]
            xhi: i64 = HI[x]
            if numbers & ((1 << xlo) | (1 << xhi)):
                if count == 0:
                    first = x
                elif count == 1:
                    second = x
                count += 1
            k += 1
        if count == 2 and player_choice:  # the usual choice: two tiles, lowest first
            out.append(_plain(t, min(first, second), False))
            out.append(_plain(t, max(first, second), False))
        elif count > 2 and player_choice:
            for y in sorted([y for y in layout if numbers & NUMBERS[y]]):
                out.append(_plain(t, y, False))
        elif count:
            out.append(_plain(t, first, False))
        if optional or not count:
            out.append(_plain(t, -1, False))
        i += 1
    return tuple(out)


def _add(
    out: list[HighFivesAction],
    t: i64,
    x: i64,
    a: i64,
    b: i64,
    claim: tuple[tuple[Tile, Tile], ...],
    listed: bool,
) -> None:
    """List the turn playing ``t``, capturing ``x`` and claiming ``a, b`` (-1: none; -2: the
    claim steps taken already)."""
    if a == -1:
        out.append(_plain(t, x, listed))
    else:
        code: i64 = -1  # (an if statement: a conditional expression would box the int)
        if a >= 0:
            code = turn_code(t, x, a, b)
        capture = None if x < 0 else TILES[x]  # (_tile inline: this runs per turn listed)
        out.append(Turn(TILES[t], capture, claim, listed, code=code))


def _tile(x: int) -> Tile | None:
    return None if x < 0 else TILES[x]


_PLAIN: Final[list[Turn | None]] = [None] * (NUM_TILES * (NUM_TILES + 1) * 2)
"""The claim-less turns, made on first use: ``_PLAIN[((t * 137 + x + 1) << 1) | listed]``."""


def _plain(t: i64, x: i64, listed: bool) -> Turn:
    """The claim-less turn playing ``t`` and capturing ``x`` (-1: none), made once and shared."""
    k: i64 = (t * (NUM_TILES + 1) + x + 1) * 2 + (1 if listed else 0)
    turn = _PLAIN[k]
    if turn is None:
        turn = Turn(TILES[t], _tile(x), (), listed, code=turn_code(t, x, -1, -1))
        _PLAIN[k] = turn
    return turn


def ascending(ids: bytes) -> bytes:
    """``ids`` in ascending order: ``ids`` itself when it is already (a shuffled deal's hands
    are sorted once, when dealt)."""
    n: i64 = len(ids)
    k: i64 = 1
    while k < n:
        if ids[k - 1] > ids[k]:
            return bytes(sorted(ids))
        k += 1
    return ids


def without(ids: bytes, t: i64) -> bytes:
    """``ids`` (a hand or the row) less the tile ``t`` it holds once, order kept."""
    n: i64 = len(ids)
    i: i64 = 0
    while i < n and ids[i] != t:
        i += 1
    if i == 0:
        return ids[1:]
    if i == n - 1:
        return ids[:i]
    return ids[:i] + ids[i + 1 :]


def check_claim(
    claim: Claim,
    layout: Sequence[int],
    layout_mask: int,
    pending: tuple[IdPair, ...],
    allowed: Collection[IdPair] | None,
    opts: HighFivesOptions,
) -> IdPair:
    """Check one claim step (``max_claims_per_turn`` ``"unlimited"``); returns the pair's ids."""
    if opts.max_claims_per_turn != "unlimited":
        raise IllegalActionError(
            "a pair is claimed as part of the turn that plays a tile (max_claims_per_turn 1)"
        )
    pair = claim.pair
    if not isinstance(pair, tuple) or len(pair) != 2:
        raise IllegalActionError("a claim is exactly two matching layout tiles")
    pmask = 0
    for a, b in pending:
        pmask |= (1 << a) | (1 << b)
    a = _tile_id(pair[0], "a claimed tile")
    b = _tile_id(pair[1], "a claimed tile")
    for x in (a, b):
        if pmask >> x & 1:
            raise IllegalActionError(f"{TILES[x]} is already claimed this turn")
    _check_pair(a, b, layout, layout_mask, 0, allowed)
    return a, b


def _check_pair(
    a: int,
    b: int,
    layout: Sequence[int],
    layout_mask: int,
    claimed: int,
    allowed: Collection[IdPair] | None,
) -> None:
    if a == b:
        raise IllegalActionError(f"a claim is two different tiles, not {TILES[a]} twice")
    for x in (a, b):
        if not layout_mask >> x & 1:
            raise IllegalActionError(f"{TILES[x]} is not on the layout (layout: {_names(layout)})")
        if claimed >> x & 1:
            raise IllegalActionError(
                f"{TILES[x]} is in two claimed pairs: claimed pairs cannot share a tile"
            )
    if not MATCH[a] >> b & 1:
        raise IllegalActionError(
            f"{TILES[a]} and {TILES[b]} do not match: a claim is two layout tiles that "
            "share a number"
        )
    if allowed is not None and (a, b) not in allowed and (b, a) not in allowed:
        raise IllegalActionError(
            f"{TILES[a]} and {TILES[b]} were not left as a pair by a player's play, and only "
            "such pairs may be claimed (claimable_pairs left_by_player)"
        )


def _names(ids: Sequence[int]) -> str:
    return ", ".join(str(TILES[i]) for i in ids) or "nothing"


def _tile_id(value: object, what: str) -> int:
    if not isinstance(value, Tile):
        raise IllegalActionError(f"{what} must be a tile, not {value!r}")
    try:
        return TILE_ID[value]
    except KeyError:
        raise IllegalActionError(f"{value} is not a tile of the double-fifteen set") from None


def check_turn(
    turn: object,
    seat: int,
    hand: int,
    layout: Sequence[int],
    layout_mask: int,
    allowed: Collection[IdPair] | None,
    opts: HighFivesOptions,
    pending: tuple[IdPair, ...] = (),
) -> tuple[int, int, int, list[IdPair]]:
    """Check a whole turn; returns ``(tile, capture or -1, claimed mask, claimed pairs)``.

    Raises :class:`IllegalActionError` with the first rule it breaks, in a player's words.
    """
    if not isinstance(turn, Turn):
        raise IllegalActionError(
            f"a High Fives turn plays one tile (claim?, tile, capture?), not {turn!r}"
        )
    t = _tile_id(turn.tile, "the played tile")
    if not hand >> t & 1:
        held = " ".join(str(TILES[i]) for i in bits(hand))
        raise IllegalActionError(f"seat {seat} does not hold {turn.tile} (hand: {held})")
    claim = turn.claim
    if not isinstance(claim, tuple):
        raise IllegalActionError("a claim must be a tuple of tile pairs")
    if claim and opts.max_claims_per_turn == 1 and len(claim) > 1:
        raise IllegalActionError(
            f"only one pair may be claimed per turn, not {len(claim)} (max_claims_per_turn 1)"
        )
    cmask = 0
    pairs: list[IdPair] = []
    for pair in claim:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise IllegalActionError("a claim is exactly two matching layout tiles")
        a = _tile_id(pair[0], "a claimed tile")
        b = _tile_id(pair[1], "a claimed tile")
        _check_pair(a, b, layout, layout_mask, cmask, allowed)
        cmask |= (1 << a) | (1 << b)
        pairs.append((a, b))
    if pending:
        have = {frozenset(p) for p in pairs}
        for a, b in pending:
            if frozenset((a, b)) not in have:
                raise IllegalActionError(
                    f"this turn has already claimed {TILES[a]}+{TILES[b]}: the turn that "
                    "ends it must include that claim"
                )
    free = layout_mask & ~cmask
    match = [x for x in layout if free >> x & 1 and MATCH[t] >> x & 1]
    if turn.capture is None:
        if match and opts.capture_mandatory:
            which = "it" if len(match) == 1 else "one of them"
            raise IllegalActionError(
                f"{turn.tile} matches {_names(match)} on the layout and must capture {which} "
                "(capture is compulsory)"
            )
        return t, -1, cmask, pairs
    x = _tile_id(turn.capture, "the captured tile")
    if cmask >> x & 1:
        raise IllegalActionError(
            f"{TILES[x]} is claimed this turn: a claim and a capture cannot share a tile"
        )
    if not layout_mask >> x & 1:
        raise IllegalActionError(f"{TILES[x]} is not on the layout (layout: {_names(layout)})")
    if not MATCH[t] >> x & 1:
        raise IllegalActionError(
            f"{turn.capture} does not match {turn.tile}, so it cannot capture it"
        )
    if opts.capture_choice == "first_in_row" and match[0] != x:
        raise IllegalActionError(
            f"{turn.tile} must capture {TILES[match[0]]}, the first matching tile in the row "
            "(capture_choice first_in_row)"
        )
    return t, x, cmask, pairs
