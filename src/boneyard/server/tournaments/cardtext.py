"""A score card in words: how each game ended, who signed its result, and every entry of its
history — the one text the card's page, the printed card, its PDF and ``scorecards.csv`` all
show (docs/tournaments-site.md, "Cards, prints and exports").

Signatures belong to the entry they were given to: a card overruled by a ruling shows no
signature for the ruling, and its history says which entry each signature was for. A bogus play
(PDA 8c–e) names the offender and the official 150–100; a PDA 9b penalty names who was
penalised and who scored; a forfeit for an absence, a time-out and a ruling are each named as
what they were.

Every function reads a game as the pages' JSON has it (``views.game_json``) with the entrants'
names and the accounts' names (``users``) by id; times are formatted by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo

from boneyard.server.tournaments.viewtypes import GameFacts, HistoryEntry, Names

Game = GameFacts

FORFEITS = {
    "no_show": "no-show",
    "withdrawn": "withdrew",
    "timeout": "time-out",
}
STATUS = {
    "playing": "in play",
    "reported": "awaits the players' signatures",
    "disputed": "disputed: awaits the director's ruling",
    "timeout": "time ran out: awaits the director's ruling",
}


def loser_of(g: Game) -> int | None:
    """The side that lost the game (``None`` before a result)."""
    if g.get("winner") is None:
        return None
    side: int | None = g["side_b"] if g["winner"] == g["side_a"] else g["side_a"]
    return side


def last_entry(g: Game, what: str) -> HistoryEntry | None:
    """The newest history entry named ``what`` (``None`` when none)."""
    return next((h for h in reversed(g.get("history") or []) if h.get("what") == what), None)


def last_by(g: Game, what: str) -> int:
    """Who gave the newest history entry named ``what`` (0: nobody known)."""
    entry = last_entry(g, what)
    return (entry.get("by") if entry else None) or 0


def bogus_text(g: Game, names: Names, offender: int | None) -> str:
    """``bogus play by Bob (PDA 8c–e: 150–100)``."""
    return f"bogus play by {names.get(offender or 0, '?')} (PDA 8c–e: 150–100)"


def how(g: Game, names: Names, users: Names) -> str:
    """How the game ended (or where it stands), in the words every page prints."""
    if g["kind"] == "forfeit":
        reason = g.get("reason") or "forfeit"
        loser = names.get(loser_of(g) or 0, "?")
        if reason in FORFEITS:
            return f"forfeit: {loser} {FORFEITS[reason]}"
        by = users.get(last_by(g, "forfeit"))
        return f"forfeit by {loser}" + (f", ruled by {by}" if by else "")
    status = g["status"]
    if status == "void":
        return "void"
    if status in STATUS:
        return STATUS[status]
    bits = [result_words(g, names, users)]
    if g.get("reason") == "bogus" and status != "ruled":
        bits.append(bogus_text(g, names, loser_of(g)))
    for h in penalties(g):
        bits.append(penalty_text(h, names))
    return "; ".join(b for b in bits if b)


def result_words(g: Game, names: Names, users: Names) -> str:
    """Who made a decided game's result count: the players' signatures, a paper card, the
    table, a time-out or a ruling."""
    status = g["status"]
    if status == "over":
        return "played at the table" + (" (bogus play)" if g.get("reason") == "bogus" else "")
    if status == "confirmed" and g.get("paper"):
        who = users.get(g.get("reported_by") or 0, "?")
        return f"signed on paper, entered from the paper card by {who}"
    if status == "confirmed":
        entered = ", entered by the director" if g.get("by_director") else ""
        return "signed on screen by both" + entered
    if g.get("reason") == "timeout":
        timeout = last_entry(g, "time-out")
        rule = (timeout.get("rule") if timeout else None) or "lose"
        return f"{names.get(loser_of(g) or 0, '?')} lost on time (the event's rule: {rule})"
    by = users.get(last_by(g, "ruling"), "the director")
    if g.get("reason") == "bogus":
        ruling = last_entry(g, "ruling")
        offender = (ruling.get("offender") if ruling else None) or loser_of(g)
        return f"ruled by {by}: {bogus_text(g, names, offender)}"
    return f"ruled by {by}"


def penalties(g: Game) -> list[HistoryEntry]:
    """The card's PDA 9b penalties still standing."""
    undone = {h.get("action") for h in g.get("history") or [] if h.get("what") == "penalty undone"}
    return [
        h
        for h in g.get("history") or []
        if h.get("what") == "penalty 9b" and (h.get("action") is None or h["action"] not in undone)
    ]


def penalty_text(h: HistoryEntry, names: Names) -> str:
    """``PDA 9b: Bob penalised, Ann scores 55``."""
    return (
        f"PDA 9b: {names.get(h.get('offender') or 0, '?')} penalised, "
        f"{names.get(h.get('beneficiary') or 0, '?')} scores {h.get('points')}"
    )


def signature(g: Game, side: str, when: Callable[[str | None], str]) -> str:
    """Side ``side``'s signature of the result as it stands: ``signed on paper``, ``signed on
    screen <time>``, or nothing (a ruling, a forfeit, a table: no player signed it)."""
    if g["kind"] != "game" or g["status"] not in ("confirmed", "reported", "disputed"):
        return ""
    if g.get("paper"):
        return "signed on paper"
    at = g["signed_a_at"] if side == "a" else g["signed_b_at"]
    return f"signed on screen {when(at)}".strip() if at else ""


def history_lines(g: Game, names: Names, users: Names, a_name: str, b_name: str) -> list[str]:
    """Every entry of the card's history in words (no time: see :func:`history_with_times`)."""
    return [text for _at, text in history_entries(g, names, users, a_name, b_name)]


def history_entries(
    g: Game, names: Names, users: Names, a_name: str, b_name: str
) -> list[tuple[str | None, str]]:
    """``(time, words)`` for every entry of the card's history, oldest first. A signature
    names the entry it was given to; a ruling says which entry it overrules."""
    out: list[tuple[str | None, str]] = []
    entry: str | None = None  # the scores of the entry in force ("150–95")
    for h in g.get("history") or []:
        what = str(h.get("what", ""))
        who = users.get(h.get("by") or 0, "")
        scores = f"{h.get('score_a')}–{h.get('score_b')}" if h.get("score_a") is not None else ""
        if what in ("entered", "entered by the director", "entered from the paper card"):
            entry = f"{a_name} {scores} {b_name}"
            text = entry_words(what, entry, who, h, names)
        elif what == "signed":
            side = a_name if h.get("side") == "a" else b_name
            text = f"signed on screen by {side}" + (f" ({who})" if who and who != side else "")
            text += f", for the entry {entry}" if entry else ""
        elif what == "disputed":
            text = f"disputed by {who or '?'}" + (f": {h['note']}" if h.get("note") else "")
            text += f" (the entry {entry})" if entry else ""
        elif what == "ruling":
            text = ruling_words(h, names, who, a_name, b_name, entry)
            entry = None
        elif what == "penalty 9b":
            text = penalty_text(h, names) + (f", ruled by {who}" if who else "")
        elif what == "time-out":
            text = f"{names.get(h.get('entrant') or 0, '?')}'s time ran out (rule: {h.get('rule')})"
        else:
            text = f"{what}" + (f" by {who}" if who else "")
        if h.get("note") and what not in ("disputed", "ruling"):
            text += f": {h['note']}"
        out.append((h.get("at"), text))
    return out


def entry_words(what: str, entry: str, who: str, h: HistoryEntry, names: Names) -> str:
    """An entry of the scores: by a player, by the director for signing, or from paper."""
    bogus = " (bogus play, PDA 8c–e)" if h.get("reason") == "bogus" else ""
    if what == "entered from the paper card":
        by = who or "?"
        return f"{entry}{bogus} entered from the paper card by {by}: signed on paper by both"
    if what == "entered by the director":
        return f"{entry}{bogus} entered by {who or 'the director'}, for both players to sign"
    return f"{entry}{bogus} entered by {who or '?'} (their signature)"


def ruling_words(
    h: HistoryEntry, names: Names, who: str, a_name: str, b_name: str, entry: str | None
) -> str:
    """A ruling: its scores, a bogus play's offender, the entry it overrules, the note."""
    scores = f"{h.get('score_a')}–{h.get('score_b')}"
    text = f"ruled {a_name} {scores} {b_name} by {who or 'the director'}"
    if h.get("kind") == "bogus":
        text += f": bogus play by {names.get(h.get('offender') or 0, '?')} (PDA 8c–e)"
    if entry:
        text += f"; overrules the entry {entry} and its signatures"
    return text + (f" ({h['note']})" if h.get("note") else "")


def clock(tz: tzinfo) -> Callable[[str | None], str]:
    """A formatter of stored times as ``HH:MM`` in zone ``tz`` (a ``ZoneInfo``)."""

    def fmt(at: str | None) -> str:
        if not at:
            return ""
        return datetime.fromisoformat(at).astimezone(tz).strftime("%H:%M")

    return fmt
