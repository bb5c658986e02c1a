"""The terminal game: one person (or several) against bots, any game of the registry.

The loop is generic: a game supplies ``render`` (its table as text), ``describe_action`` and
``parse_action`` through its :class:`~boneyard.games.registry.GameSpec`. Scores, hand ends and
game ends are announced from the replay lines of the events as they happen (the spec's move
log), so what a player reads is exactly what ``boneyard replay`` would print.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from boneyard.bots import AnyBot
from boneyard.bots.analysis import hint
from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action, GameState, Observation
from boneyard.core.records import JSON, dump_record
from boneyard.games.registry import AnySpec

HELP = (
    "Type a move's number, or a tile (5-6, or 5-6 on 5-5 when it fits several ends); "
    "draw / pass where allowed; 'hint' asks the expert bot for its move; "
    "'q' saves the game and quits."
)


class Quit(Exception):
    """The player asked to stop (or input ended)."""


class TerminalGame:
    """Runs one game at the terminal; ``ask`` reads a line (raises EOFError at the end)."""

    def __init__(
        self,
        spec: AnySpec,
        state: GameState,
        names: Sequence[str],
        humans: set[int],
        bots: dict[int, AnyBot],
        rng: random.Random,
        console: Console,
        ask: Callable[[str], str],
    ) -> None:
        self.spec = spec
        self.state = state
        self.names = list(names)
        self.humans = humans
        self.bots = bots
        self.rng = rng
        self.console = console
        self.ask = ask
        self.log = spec.move_log(state)

    def run(self) -> bool:
        """Play until the game ends (True) or the player quits (False)."""
        state = self.state
        try:
            while not state.is_over:
                if state.awaiting_deal:
                    state.deal_random(self.rng)
                    self.announce()
                    continue
                seat = state.current_seat
                assert seat is not None
                if seat in self.humans:
                    action = self.human_move(seat)
                    self.tell_move(seat, action)
                else:
                    action = self.bots[seat].choose(state.observation(seat))
                    self.tell_move(seat, action)
                state.apply(action)
                self.announce()
        except Quit:
            return False
        if self.humans:
            seat = min(self.humans)
            self.console.print(self.spec.render(state.observation(seat), self.names))
        return True

    def tell_move(self, seat: int, action: Action) -> None:
        """Announce a move (a draw never names its tile)."""
        what = escape(self.spec.describe_action(action))
        self.say(f"[bold]{escape(self.names[seat])}[/]: {what}")

    def say(self, text: str) -> None:
        """Print one message line."""
        self.console.print(text)

    def human_move(self, seat: int) -> Action:
        """Show the table to ``seat`` and read a legal move."""
        obs = self.state.observation(seat)
        self.console.print()
        self.console.print(self.spec.render(obs, self.names))
        actions = list(obs.legal_actions)
        for k, a in enumerate(actions, 1):
            self.console.print(f"  [cyan]{k:>2}[/] {escape(self.spec.describe_action(a))}")
        while True:
            try:
                text = self.ask(f"{self.names[seat]}, your move: ").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            if text.lower() in ("q", "quit", "exit"):
                raise Quit
            if text in ("?", "h", "help"):
                self.say(HELP)
                continue
            if text.lower() == "hint":
                self.say(hint_text(obs, self.spec.describe_action))
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(actions):
                    return actions[k - 1]
                self.say(f"[red]There is no move {k}: choose 1 to {len(actions)}.[/]")
                continue
            try:
                return self.spec.parse_action(obs, text)
            except BoneyardError as exc:
                self.say(f"[red]{escape(str(exc))}.[/] Type ? for help.")

    def announce(self) -> None:
        """Print the replay lines of what happened since the last announcement."""
        for line in self.log.take():
            text = self.describe_line(line)
            if text:
                self.say(text)

    def describe_line(self, line: JSON) -> str | None:
        """A replay line in a player's words (hidden tiles stay hidden)."""
        names = self.names
        kind = line.get("type")
        if kind == "hand_end":
            return self._hand_end(line)
        if kind == "game_end":
            scores = ", ".join(f"{escape(names[i])} {s}" for i, s in enumerate(line["scores"]))
            winner = line.get("winner")
            who = "Nobody" if winner is None else escape(names[winner])
            return f"[bold magenta]Game over: {who} wins.[/] Final scores: {scores}"
        seat = line.get("seat")
        if seat is None:
            return None
        who = escape(names[seat])
        if kind == "draw":
            if seat in self.humans and line.get("tile"):
                return f"  {who} draws {line['tile']}"
            return f"  {who} draws a tile"
        points = line.get("points", 0)
        if points:
            count = f" (count {line['count']})" if "count" in line else ""
            return f"  [green]{who} scores {points}{count}[/]"
        return None

    def _hand_end(self, line: JSON) -> str:
        names = self.names
        reason = line.get("reason")
        winner = line.get("winner")
        who = "nobody" if winner is None else escape(names[winner])
        scores = ", ".join(f"{escape(names[i])} {s}" for i, s in enumerate(line["scores"]))
        award = line.get("award", 0)
        what = {
            "domino": f"{who} goes out (domino) and collects {award}",
            "block": f"the hand is blocked; {who} has the fewest pips"
            + (f" and collects {award}" if award else "")
            if winner is not None
            else "the hand is blocked with a tie: nobody scores",
            "redeal": "nobody holds a double: the tiles are reshuffled and dealt again",
            "bogus": f"bogus play: {who} collects {award}",
            "ruling": f"a ruling ends the hand; {who} collects {award}",
            "played_out": "all tiles of the pass are played",
            "game_over": f"{who} reaches the target",
        }.get(str(reason), str(reason))
        return f"[bold yellow]Hand {line['hand'] + 1} over:[/] {what}. Scores: {scores}"


def hint_text(obs: Observation[Action], describe: Callable[[Action], str]) -> str:
    """The expert's hint for ``obs`` as a line of text (or why there is none)."""
    try:
        h = hint(obs)
    except BoneyardError as exc:
        return f"[yellow]No hint: {escape(str(exc))}.[/]"
    values = ", ".join(f"{escape(describe(v.action))} {v.value:+.1f}" for v in h.values)
    best = escape(describe(h.best))
    return f"Hint: [bold]{best}[/] (expected lead over the rest of the hand: {values})"


def save_record(state: GameState, path: Path) -> Path:
    """Write the game's record (also an unfinished one)."""
    path.write_text(dump_record(state.record()))
    return path
