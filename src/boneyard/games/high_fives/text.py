"""High Fives for people: typed moves, short descriptions and the table as text (Rich markup).

A typed turn names the played tile, optionally the capture after ``x`` (or ``takes``) and a
claim after ``claim`` (or as ``a+b``)::

    7-8                    play 7-8 (the capture is implied when only one is possible)
    7-8 x 8-9              play 7-8 and capture 8-9
    claim 0-1 1-2 7-8 x 7-7
    7-8 x 8-9 0-1+1-2      the same with the claim written as a pair
    5-8 leave              (capture optional only) play 5-8 and capture nothing

A turn typed without a claim claims nothing. When any number of pairs may be claimed
(``max_claims_per_turn`` ``"unlimited"``) each pair is its own step: type ``claim 0-1 1-2``,
then the next pair or the tile you play. A move's own description reads back too
(``plays 5-8 to the layout``, ``claims 0-1+1-2, plays 7-8 capturing 8-9 (3 pts)``: the points
in brackets are not read).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim, Turn
from boneyard.games.high_fives.observation import HighFivesObservation
from boneyard.games.high_fives.rules import MATCH, POINTS, TILE_ID, mask_of
from boneyard.games.high_fives.turns import check_claim, check_turn

_CAPTURE_WORDS = {"x", "take", "takes", "capture", "captures", "capturing", "cap", "with"}
_CLAIM_WORDS = {"claim", "claims", "c"}
_PLAY_WORDS = {"play", "plays", "p", "then", "and", "to", "the"}
_LEAVE_WORDS = {"leave", "keep", "stay", "nocapture", "no-capture", "layout"}
_HELP = (
    "type the tile to play, e.g. 7-8; add 'x 8-9' to choose the capture and "
    "'claim 0-1 1-2' (or 0-1+1-2) to claim a pair"
)


def _tile(text: str) -> Tile:
    try:
        return Tile.parse(text)
    except BoneyardError:
        raise BoneyardError(f"{text!r} is not a tile or a word I know ({_HELP})") from None


def parse_action(observation: HighFivesObservation, text: str) -> Turn | Claim:
    """The legal turn (or claim step) a player typed (see the module docstring).

    >>> from boneyard.games.high_fives.state import HighFivesState
    >>> row = [Tile(0, 1), Tile(1, 2), Tile(7, 7), Tile(8, 9), Tile(10, 15)]
    >>> s = HighFivesState.from_position(row, [[Tile(7, 8)], [Tile(3, 3)]])
    >>> str(parse_action(s.observation(0), "claim 0-1 1-2 7-8 x 8-9"))
    'claim 0-1+1-2; play 7-8 x 8-9'
    >>> parse_action(s.observation(0), "7-8")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: 7-8 can capture 7-7 or 8-9: add 'x' and the tile, ...
    """
    legal = observation.legal_actions
    if not legal:
        raise BoneyardError("it is not your turn")
    in_hand = set(observation.hand)
    on_layout = set(observation.layout)
    play: Tile | None = None
    capture: Tile | None = None
    leave = False
    claimed: list[Tile] = []
    claiming = False
    on_layout |= {t for pair in observation.claimed_this_turn for t in pair}
    for token in re.sub(r"\([^)]*\)", " ", text).replace(",", " ").split():
        word = token.lower()
        if word in _CAPTURE_WORDS or word in _PLAY_WORDS:
            claiming = False
        elif word in _CLAIM_WORDS:
            claiming = True
        elif word in _LEAVE_WORDS:
            leave = True
        elif "+" in token:
            claimed.extend(_tile(part) for part in token.split("+") if part)
        else:
            tile = _tile(token)
            if tile in in_hand:
                if play is not None:
                    raise BoneyardError(f"a turn plays one tile, not {play} and {tile}")
                play, claiming = tile, False
            elif tile not in on_layout:
                raise BoneyardError(f"{tile} is neither in your hand nor on the layout")
            elif claiming:
                claimed.append(tile)
            else:
                if capture is not None:
                    raise BoneyardError(f"a turn captures one tile, not {capture} and {tile}")
                capture = tile
    if len(claimed) % 2:
        raise BoneyardError("a claim is pairs of tiles: name two tiles for each pair")
    pairs = tuple((claimed[k], claimed[k + 1]) for k in range(0, len(claimed), 2))
    pending = frozenset(frozenset(p) for p in observation.claimed_this_turn)
    if pairs and play is not None and frozenset(frozenset(p) for p in pairs) == pending:
        pairs = ()  # the turn that ends a claim taken step by step, as it is described
    if observation.options.max_claims_per_turn == "unlimited" and pairs:
        if play is not None or len(pairs) > 1:
            raise BoneyardError(
                "claim pairs one at a time (e.g. 'claim 0-1 1-2'), then type the tile you play"
            )
        for a in legal:
            if isinstance(a, Claim) and set(a.pair) == set(pairs[0]):
                return a
        _explain(observation, Claim(pairs[0]))
        raise BoneyardError(f"{pairs[0][0]}+{pairs[0][1]} cannot be claimed now")
    if play is None:
        raise BoneyardError(f"which tile do you play? ({_HELP})")
    if leave and capture is not None:
        raise BoneyardError(f"you cannot both capture {capture} and leave {play} on the layout")
    claim = pairs or observation.claimed_this_turn
    want = frozenset(frozenset(p) for p in claim)
    found = [
        a
        for a in legal
        if isinstance(a, Turn)
        and a.tile == play
        and frozenset(frozenset(p) for p in a.claim) == want
        and (capture is None or a.capture == capture)
        and not (leave and a.capture is not None)
    ]
    if len(found) == 1:
        return found[0]
    if found:
        options = [a.capture for a in found]
        if None in options:
            raise BoneyardError(
                f"{play} may capture {' or '.join(str(c) for c in options if c)} or stay on the "
                f"layout: add 'x' and the tile, or 'leave'"
            )
        shown = " or ".join(str(c) for c in options)
        raise BoneyardError(
            f"{play} can capture {shown}: add 'x' and the tile, e.g. {play} x {options[0]}"
        )
    turn = Turn(play, capture, claim)
    _explain(observation, turn)
    raise BoneyardError(f"{turn} is not a legal turn here")


def _explain(obs: HighFivesObservation, action: Turn | Claim) -> None:
    """Raise the rule a typed action breaks (the same checks ``apply`` makes)."""
    assert obs.seat is not None
    hand = 0
    for t in obs.hand:
        hand |= 1 << TILE_ID[t]
    pending = tuple((TILE_ID[a], TILE_ID[b]) for a, b in obs.claimed_this_turn)
    layout = [TILE_ID[t] for t in obs.layout]
    allowed = None
    if obs.options.claimable_pairs == "left_by_player":
        allowed = [(TILE_ID[a], TILE_ID[b]) for a, b in obs.claimable]
    if isinstance(action, Claim):
        check_claim(action, layout, mask_of(layout), (), allowed, obs.options)
        return
    layout += [t for pair in pending for t in pair]
    if allowed is not None:
        allowed += pending
    check_turn(action, obs.seat, hand, layout, mask_of(layout), allowed, obs.options, pending)


def describe_action(action: object) -> str:
    """A short description of a turn (every tile it names is face up once played).

    >>> describe_action(Turn(Tile(7, 8), Tile(8, 9), ((Tile(0, 1), Tile(1, 2)),)))
    'claims 0-1+1-2, plays 7-8 capturing 8-9 (3 pts)'
    >>> describe_action(Turn(Tile(5, 8)))
    'plays 5-8 to the layout'
    """
    if isinstance(action, Claim):
        a, b = action.pair
        pts = action.points
        return f"claims {a}+{b}" + (f" ({pts} pt{'s' if pts != 1 else ''})" if pts else "")
    if not isinstance(action, Turn):
        return str(action)
    parts = []
    if action.claim:
        parts.append("claims " + ", ".join(f"{a}+{b}" for a, b in action.claim))
    if action.capture is not None:
        parts.append(f"plays {action.tile} capturing {action.capture}")
    else:
        parts.append(f"plays {action.tile} to the layout")
    text = ", ".join(parts)
    pts = action.points
    if pts:
        text += f" ({pts} pt{'s' if pts != 1 else ''})"
    return text


def _escape(text: str) -> str:
    """Keep a player's name from being read as Rich markup."""
    return text.replace("\\", "\\\\").replace("[", "\\[")


def _tile_text(tile: Tile) -> str:
    pts = POINTS[TILE_ID[tile]]
    return f"{tile}[dim]·{pts}[/]" if pts else str(tile)


def render(
    observation: HighFivesObservation, seat_names: Sequence[str], width: int | None = None
) -> str:
    """The table as ``observation``'s seat sees it, with Rich markup (its one-row layout wraps
    between tiles at any ``width``).

    Layout tiles that match a tile in the seat's hand are highlighted; a tile's points follow a
    dot (``5-10·3``).
    """
    obs = observation
    names = [_escape(n) for n in seat_names]
    names += [f"Player {i + 1}" for i in range(len(names), obs.num_seats)]
    lines: list[str] = []
    head = f"[bold]High Fives[/] · target {obs.options.target}"
    if obs.pass_number >= 0:
        head += (
            f" · pass {obs.pass_number + 1}, deal {obs.deal_number + 1} of {obs.deals_in_pass}"
            f" · {obs.undealt} tiles undealt"
        )
        if obs.leader is not None:
            head += f" · {names[obs.leader]} leads"
    lines.append(head)
    hand_match = 0
    for t in obs.hand:
        hand_match |= MATCH[TILE_ID[t]]
    shown = []
    for t in obs.layout:
        text = _tile_text(t)
        if hand_match >> TILE_ID[t] & 1:
            text = f"[bold yellow]{text}[/]"
        shown.append(text)
    lines.append("Layout: " + ("  ".join(shown) if shown else "[dim](empty)[/]"))
    if obs.claimed_this_turn:
        pairs = "  ".join(f"{a}+{b}" for a, b in obs.claimed_this_turn)
        lines.append(f"Claimed this turn: {pairs}")
    if obs.claimable:
        pairs = "  ".join(f"{a}+{b}" for a, b in obs.claimable)
        lines.append(f"Claimable pairs: {pairs}")
    if obs.extra_to_come:
        lines.append(f"[dim]{obs.extra_to_come} tiles will join the layout at the last deal[/]")
    width = max(len(n) for n in names)
    for i in range(obs.num_seats):
        marker = "▶" if obs.current_seat == i else " "
        name = names[i].ljust(width)
        if i == obs.seat:
            name = f"[bold]{name}[/]"
        pile = " ".join(_tile_text(t) for t in obs.piles[i]) or "[dim]-[/]"
        lines.append(
            f"{marker} {name}  score {obs.scores[i]:>3}  tiles in hand {obs.hand_sizes[i]}"
            f"  won: {pile}"
        )
    if obs.seat is not None:
        held = []
        layout_mask = 0
        for t in obs.layout:
            layout_mask |= 1 << TILE_ID[t]
        for t in obs.hand:
            text = _tile_text(t)
            if MATCH[TILE_ID[t]] & layout_mask:
                text = f"[bold yellow]{text}[/]"
            held.append(text)
        lines.append("Your hand: " + ("  ".join(held) if held else "[dim](empty)[/]"))
    if obs.is_over and obs.winner is not None:
        lines.append(f"[bold green]{names[obs.winner]} wins with {obs.scores[obs.winner]}[/]")
    return "\n".join(lines)
