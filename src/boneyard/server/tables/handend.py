"""A hand's end in words: the tiles every seat kept and how the hand was scored.

When a hand ends the server keeps the final board on screen with every hand's remaining tiles face
up (public from that moment: the hand's seed is revealed too, docs/fairness.md) and explains the
scoring in a player's words — "Bob kept 5-5 and 6-2: 18 pips, rounded to 20 — Ann scores 20".
Everything here works from public facts: the ``hand_end`` replay line (RECORDS.md §5: reason,
winner, award, awards, scores), the tiles revealed and the game's options; the amounts stated
are always the line's (what was actually credited: capped payments and busts included).

The tiles each seat kept are the hands just before the hand's last event, with that event's
tiles taken out or added (:func:`reveal`): an observation after a hand's end no longer shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.core.protocol import JSON

WILD_VALUE = 7
"""A Highrise wild half in a hand counts 7 (RULES §4.4)."""

NUMBERS = ("blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")  # fmt: skip


def same(a: str, b: str) -> bool:
    """Whether two tile names are the same tile, whichever way round.

    >>> same("5-0", "0-5"), same("W-3", "3-W"), same("1-2", "1-3")
    (True, True, False)
    """
    return sorted(a.split("-")) == sorted(b.split("-"))


def reveal(before: Sequence[Sequence[str]], event: Mapping[str, Any]) -> list[list[str]]:
    """Every seat's tiles after the hand's last event: ``before`` (the hands just before it) with
    the tile that event played taken out of, or the tile it drew added to, its seat's hand.

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


def half_value(face: str) -> int:
    """A half's count in hand: its number, a wild half 7."""
    return WILD_VALUE if face.upper() == "W" else int(face)


def pips(tiles: Sequence[str]) -> int:
    """The pips (Highrise: the hand value) of ``tiles``.

    >>> pips(["5-5", "6-2"]), pips(["W-3"])
    (18, 10)
    """
    return sum(half_value(f) for t in tiles for f in t.split("-"))


def round5(n: int) -> int:
    """To the nearest multiple of five (RULES §0.1; never a tie for whole numbers).

    >>> [round5(n) for n in (11, 12, 13, 18)]
    [10, 10, 15, 20]
    """
    return 5 * ((n + 2) // 5)


def tile_words(tile: str) -> str:
    """A tile's name for a screen reader: ``five-six``, ``wild-three``.

    >>> tile_words("5-6"), tile_words("W-3"), tile_words("0-12")
    ('five-six', 'wild-three', 'blank-twelve')
    """
    out = []
    for face in tile.split("-"):
        if face.upper() == "W":
            out.append("wild")
        elif face.isdigit() and int(face) < len(NUMBERS):
            out.append(NUMBERS[int(face)])
        else:
            out.append(face)
    return "-".join(out)


def listing(tiles: Sequence[str]) -> str:
    """``5-5``, ``5-5 and 6-2``, ``1-1, 5-5 and 6-2``."""
    if len(tiles) <= 1:
        return "".join(tiles)
    return ", ".join(tiles[:-1]) + " and " + tiles[-1]


def signed(n: int) -> str:
    """``+10``, ``0``, ``−14`` (a real minus sign)."""
    return f"+{n}" if n > 0 else "0" if n == 0 else f"−{-n}"


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def explain(
    game: str,
    names: Sequence[str],
    line: Mapping[str, Any],
    hands: Sequence[Sequence[str]] | None,
    options: Mapping[str, Any] | None = None,
    partners: bool = False,
) -> list[str]:
    """How a hand ended and was scored, sentence by sentence (see the module docstring);
    ``partners``: the seats play in partnerships (the view's ``partnerships``)."""
    reason = line.get("reason")
    if reason == "redeal":
        return ["Nobody held a double: the tiles were dealt again."]
    hands = list(hands or [])
    out = kept(game, names, hands)
    why = {
        "highfive": _highfive,
        "merry-go-round": _merry,
        "high-fives": _high_fives,
        "highrise": _highrise,
    }.get(game, _generic)
    opts = dict(options or {})
    opts["_partners"] = partners
    out.extend(why(names, line, hands, opts))
    scores = line.get("scores") or []
    if scores:
        out.append("Scores: " + " · ".join(f"{names[i]} {s}" for i, s in enumerate(scores)) + ".")
    return out


def kept(game: str, names: Sequence[str], hands: Sequence[Sequence[str]]) -> list[str]:
    """``Bob kept 5-5 and 6-2: 18 pips.`` for every seat with tiles left (High Fives counts no
    pips: the tiles are only named)."""
    out = []
    for i, tiles in enumerate(hands):
        if tiles and i < len(names):
            total = pips(tiles)
            amount = {"highrise": f": worth {total}", "high-fives": ""}.get(game, f": {total} pips")
            out.append(f"{names[i]} kept {listing(list(tiles))}{amount}.")
    return out


def _generic(
    names: Sequence[str], line: Mapping[str, Any], hands: Sequence[Sequence[str]], _o: JSON
) -> list[str]:
    w = line.get("winner")
    award = int(line.get("award") or 0)
    who = names[w] if isinstance(w, int) and w < len(names) else None
    reason = line.get("reason")
    if reason == "game_over":
        return [f"{who} reached the target: the game is over." if who else "The game is over."]
    if reason in ("bogus", "ruling"):
        what = "A bogus play" if reason == "bogus" else "A referee's ruling"
        tail = f": {who} scores {award}." if who and award else "."
        return [f"{what} ended the hand{tail}"]
    if who and award:
        return [f"{who} wins the hand and scores {award}."]
    return [f"{who} wins the hand." if who else "Nobody scores for this hand."]


def _highfive(
    names: Sequence[str], line: Mapping[str, Any], hands: Sequence[Sequence[str]], opts: JSON
) -> list[str]:
    n = len(names)
    w = line.get("winner")
    award = int(line.get("award") or 0)
    reason = line.get("reason")
    if reason not in ("domino", "block") or len(hands) != n:
        return _generic(names, line, hands, opts)
    every = n == 4 and opts.get("fourp_bonus_from") == "all_opponents"

    def payer(seat: int) -> int:
        return (seat + 2) % 4 if n == 4 else (seat - 1) % n

    def pays(seat: int) -> str:
        if every:
            total = sum(pips(h) for i, h in enumerate(hands) if i != seat)
            return f"the others' {total} pips, rounded to {round5(total)},"
        p = payer(seat)
        return f"{names[p]}'s {pips(hands[p])} pips, rounded to {round5(pips(hands[p]))},"

    if reason == "domino" and isinstance(w, int):
        return [f"{names[w]} went out: {pays(w)} go to {names[w]} — {names[w]} scores {award}."]
    out = ["Blocked: nobody can play and the boneyard is empty."]
    awards = line.get("awards")
    if isinstance(awards, list):
        out.append(
            "Each player with fewer pips than the one who pays them scores: "
            + ", ".join(f"{names[i]} {signed(int(a))}" for i, a in enumerate(awards))
            + "."
        )
    elif isinstance(w, int):
        out.append(
            f"{names[w]} holds the fewest pips ({pips(hands[w])}): {pays(w)} go to "
            f"{names[w]} — {names[w]} scores {award}."
        )
    else:
        out.append("The fewest pips are tied: nobody scores.")
    return out


def _merry(
    names: Sequence[str], line: Mapping[str, Any], hands: Sequence[Sequence[str]], opts: JSON
) -> list[str]:
    n = len(names)
    w = line.get("winner")
    award = int(line.get("award") or 0)
    reason = line.get("reason")
    target = int(opts.get("target") or 61)
    plain = not opts.get("_partners") and opts.get("domino_bonus_rounding") != "per_opponent"
    if reason == "domino" and isinstance(w, int) and len(hands) == n and plain:
        total = sum(pips(h) for i, h in enumerate(hands) if i != w)
        would = round5(total) // 5
        kept = f"{names[w]} went out: the others kept {total} pips, rounded to {round5(total)}"
        if would and not award:
            return [
                f"{kept}: {_points(would)}, a point for every 5.",
                f"That would take {names[w]} past {target} (exactly {target} wins): it scores "
                "nothing.",
            ]
        return [f"{kept}: a point for every 5 — {names[w]} scores {award}."]
    awards = line.get("awards")
    differences = opts.get("block_scoring", "differences") == "differences"
    if reason == "block" and isinstance(awards, list) and differences:
        return [
            "Blocked: nobody can play or draw. Each player scores a point for every 5 pips the "
            "players above them hold more: "
            + ", ".join(f"{names[i]} {signed(int(a))}" for i, a in enumerate(awards))
            + "."
        ]
    return _generic(names, line, hands, opts)


def _high_fives(
    names: Sequence[str], line: Mapping[str, Any], hands: Sequence[Sequence[str]], opts: JSON
) -> list[str]:
    if line.get("reason") == "played_out":
        return ["Every tile of the pass has been played: tiles left on the layout score nobody."]
    return _generic(names, line, hands, opts)


def _highrise(
    names: Sequence[str], line: Mapping[str, Any], hands: Sequence[Sequence[str]], opts: JSON
) -> list[str]:
    w = line.get("winner")
    award = int(line.get("award") or 0)
    reason = line.get("reason")
    awards = line.get("awards")
    if reason == "domino" and isinstance(w, int):
        return [
            f"{names[w]} went out and scores what the others hold (a wild half counts "
            f"{WILD_VALUE}): {names[w]} scores {award}."
        ]
    if reason == "block" and isinstance(awards, list):
        return [
            "Blocked: no tile can be placed. Each player subtracts what they hold: "
            + ", ".join(f"{names[i]} {signed(int(a))}" for i, a in enumerate(awards))
            + "."
        ]
    return _generic(names, line, hands, opts)


def summary(names: Sequence[str], line: Mapping[str, Any], word: str = "Hand") -> str:
    """One line for the log: ``Hand 2 is over: Ann went out and scores 15.`` (``word``: what
    the game calls a hand; High Fives deals a pass)."""
    w = line.get("winner")
    who = names[w] if isinstance(w, int) and w < len(names) else None
    reason = line.get("reason")
    award = int(line.get("award") or 0)
    text = {
        "domino": f"{who} went out",
        "block": f"blocked: {who} wins it" if who else "blocked: nobody wins it",
        "game_over": f"{who} reached the target" if who else "the game is over",
        "played_out": "the pass is played out",
        "redeal": "nobody held a double: dealt again",
        "bogus": "a bogus play ended it",
        "ruling": "a referee's ruling ended it",
    }.get(str(reason), "it ended")
    if award and who:
        text += f" and scores {award}" if reason == "domino" else f", {who} scores {award}"
    return f"{word} {int(line.get('hand') or 0) + 1} is over: {text}."
