"""The guided first hand: High Five against a bot, with a hint at each step.

``POST /api/quickplay`` with ``{"guide": true}`` makes a table whose settings say ``guide``; until
its first hand has ended (and while that end is on screen) the view of the person's seat carries
``guide``: ``{"text", "move"?}`` — what to do now and why, in a player's words, and the move the
hint suggests (one of the seat's legal moves, as its record event). The hint is worked out from
that seat's own observation and legal moves only (``action_points``): it knows nothing hidden.
"""

from __future__ import annotations

from typing import Any

from boneyard.core.protocol import JSON
from boneyard.server.tables.live import LiveTable


def first_hand(table: LiveTable) -> bool:
    """Whether the guided hand is still on: no hand has ended, or the first end is shown."""
    played = table.movelog.played if table.movelog is not None else 0
    return played == 0 or (played == 1 and table.break_until is not None)


def hint(table: LiveTable, seat: int, obs: Any, msg: JSON) -> JSON | None:
    """The hint for ``seat`` now (``None``: the guided hand is over)."""
    st = table.state
    if st is None or table.ended or not first_hand(table):
        return None
    if table.break_until is not None:
        return {
            "text": "The hand is over. Look at the tiles everyone kept and how the hand was "
            "scored, then press Continue: the next hand is dealt when you are ready. The first "
            "to 150 wins the game."
        }
    view = msg.get("view") or {}
    moves = msg.get("moves") or []
    if st.current_seat != seat:
        names = [s.name for s in table.seats]
        who = names[st.current_seat] if st.current_seat is not None else "The other player"
        return {
            "text": f"{who} is playing. Watch the count: a play that makes the open ends add "
            "up to a multiple of 5 scores that many points."
        }
    plays = [(a, m) for a, m in zip(obs.legal_actions, moves, strict=False) if "play" in m["event"]]
    if plays and not view.get("layout"):
        _a, move = plays[0]
        tile = move["event"]["play"]
        if view.get("big6_lead"):
            text = (
                f"You hold the highest double, {tile}: it must lead. It becomes the spinner: "
                "tiles can later join it on all four sides. Press it to play it."
            )
        else:
            text = f"You lead this hand: any tile will do. Press {tile} to lead it."
        return {"text": text, "move": move["event"]}
    if plays:
        return _best_play(obs, plays)
    events = [m["event"] for m in moves]
    if any("draw" in e for e in events):
        return {
            "text": "None of your tiles fits an open end: press Draw to take a tile from the "
            "boneyard, until one fits.",
            "move": next(e for e in events if "draw" in e),
        }
    if any("pass" in e for e in events):
        return {
            "text": "Nothing fits and the boneyard is empty: press Pass.",
            "move": next(e for e in events if "pass" in e),
        }
    return None


def _best_play(obs: Any, plays: list[tuple[object, JSON]]) -> JSON:
    """The hint among the plays that fit: the one that scores most, with why."""
    scored = [(obs.action_points(a), m) for a, m in plays]
    best, move = max(scored, key=lambda pm: pm[0])
    event = move["event"]
    if best > 0:
        text = (
            f"Play {event['play']} on {event.get('on')}: the open ends then add up to a "
            f"multiple of 5, so it scores {best} points. Press the tile, then the "
            "highlighted end."
        )
    else:
        text = (
            "No play scores this turn. The raised tiles fit an open end: play one that "
            f"leaves the count awkward for your opponent, for example {event['play']}."
        )
    return {"text": text, "move": event}
