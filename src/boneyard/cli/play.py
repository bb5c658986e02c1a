"""The terminal game: one person (or several) against bots, any game of the registry.

The loop is generic: a game supplies ``render`` (its table as text, cut to the terminal's
width), ``describe_action``, ``parse_action`` and its move ``syntax`` through its
:class:`~boneyard.games.registry.GameSpec`. Scores, hand ends and game ends are announced from
the replay lines of the events as they happen (the spec's move log), so what a player reads is
exactly what ``boneyard replay`` would print, in words (and numbered from 1).

Each hand is dealt from the game's seed and the hand's number (:func:`deal_rng`), so a game
saved with ``q`` and resumed (``boneyard play --resume``) deals the hands it had not reached
yet exactly as the uninterrupted game would have. The record's ``meta`` keeps what resuming
needs: the seed and, by seat, the bot's name (``null`` for a person).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from boneyard.bots.analysis import hint
from boneyard.bots.referee import Forfeit, Run, Seat, finish_bots, forfeit_result, seat_bots
from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action, GameState, Observation
from boneyard.core.records import JSON, dump_record
from boneyard.games.registry import AnySpec

COMMANDS = (
    "Type a move's number from the list, or the move itself; 'hint' asks the expert bot for "
    "its move; 'q' saves the game and quits (boneyard play --resume FILE goes on with it)."
)


def deal_rng(seed: int, hand: int) -> random.Random:
    """The generator that deals hand ``hand`` (0-based) of a game played with ``seed``."""
    return random.Random(f"boneyard-play/{seed}/{hand}")


class Quit(Exception):
    """The player asked to stop (or input ended)."""


class TerminalGame:
    """Runs one game at the terminal; ``ask`` reads a line (raises EOFError at the end)."""

    def __init__(
        self,
        spec: AnySpec,
        state: GameState,
        humans: set[int],
        bots: dict[int, Seat],
        seed: int,
        console: Console,
        ask: Callable[[str], str],
    ) -> None:
        self.spec = spec
        self.state = state
        self.names = list(state.names)
        self.humans = humans
        self.bots = bots
        self.seed = seed
        self.console = console
        self.ask = ask
        self.log = spec.move_log(state)
        self.told: dict[int, int] = {}
        """Failures already told, by seat."""

    def run(self) -> bool:
        """Play until the game ends (True: over, or forfeited by a bot) or the player quits."""
        state = self.state
        seat_bots(state, self.bots, self.spec.title, dict(state.record()["options"]))
        try:
            while not state.is_over:
                if state.awaiting_deal:
                    state.deal_random(deal_rng(self.seed, state.hands_dealt))
                    self.announce()
                    continue
                seat = state.current_seat
                assert seat is not None
                if seat in self.humans:
                    action = self.human_move(seat)
                else:
                    referee = self.bots[seat]
                    referee.hand = state.hands_dealt - 1
                    action = referee.choose(state.observation(seat))
                    self.tell_failures(referee)
                self.tell_move(seat, action)
                state.apply(action)
                self.announce()
        except Quit:
            self.close(None)
            return False
        except Forfeit as forfeit:
            self.tell_failures(self.bots[forfeit.failure.seat])
            result = forfeit_result(state, forfeit.failure.seat)
            self.close(Run(result, forfeit=forfeit.failure))
            who = "Nobody" if result.winner is None else escape(self.names[result.winner])
            self.say(f"[bold magenta]Game over: {who} {self.verb(result.winner, 'win')}.[/]")
            return True
        over = state.result()
        assert over is not None
        self.close(Run(over))
        if self.humans:
            seat = min(self.humans)
            self.console.print(self.render(state.observation(seat)))
        return True

    def close(self, run: Run | None) -> None:
        """Tell the bots the game is over (or stop them when the player quits)."""
        seats = list(self.bots.values())
        if run is None:
            for seat in seats:
                close = getattr(seat.bot, "close", None)
                if callable(close):
                    close()
            return
        run.failures = [f for s in seats for f in s.failures]
        finish_bots(seats, run)

    def render(self, obs: Observation[Action]) -> str:
        """The table as ``obs``'s seat sees it, cut to the terminal's width."""
        width = self.console.width if self.console.is_terminal else None
        return self.spec.render(obs, self.names, width)

    def tell_failures(self, referee: Seat) -> None:
        """Say what went wrong with a bot (once per failure)."""
        told = self.told.get(referee.seat, 0)
        for failure in referee.failures[told:]:
            self.say(f"[yellow]A bot failed: {escape(failure.describe())}[/]")
        self.told[referee.seat] = len(referee.failures)

    def tell_move(self, seat: int, action: Action) -> None:
        """Announce a move (a draw never names its tile)."""
        what = escape(self.spec.describe_action(action))
        self.say(f"[bold]{escape(self.names[seat])}[/]: {what}")

    def say(self, text: str) -> None:
        """Print one message line."""
        self.console.print(text)

    def help(self) -> str:
        """The ``?`` help: this game's move syntax, then the commands of every game."""
        return f"{self.spec.title}: type {escape(self.spec.syntax)}.\n{COMMANDS}"

    def human_move(self, seat: int) -> Action:
        """Show the table to ``seat`` and read a legal move."""
        obs = self.state.observation(seat)
        self.console.print()
        self.console.print(self.render(obs))
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
                self.say(self.help())
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

    def verb(self, seat: int | None, base: str) -> str:
        """``base`` agreeing with a seat's name: "You score", "Ann scores"."""
        if seat is not None and seat in self.humans and self.names[seat] == "You":
            return base
        return {"have": "has", "go": "goes"}.get(base, base + "s")

    def describe_line(self, line: JSON) -> str | None:
        """A replay line in a player's words (hidden tiles stay hidden)."""
        names = self.names
        kind = line.get("type")
        if kind == "hand_end":
            return self._hand_end(line)
        if kind == "game_end":
            scores = ", ".join(f"{escape(names[i])} {s}" for i, s in enumerate(line["scores"]))
            winner = line.get("winner")
            if winner is None:
                shared = " and ".join(escape(names[s]) for s in line.get("winners", []))
                who = f"{shared} share the win" if shared else "Nobody wins"
            else:
                who = f"{escape(names[winner])} {self.verb(winner, 'win')}"
            return f"[bold magenta]Game over: {who}.[/] Final scores: {scores}"
        seat = line.get("seat")
        if seat is None:
            return None
        who = escape(names[seat])
        if kind == "draw":
            if seat in self.humans and line.get("tile"):
                return f"  {who} {self.verb(seat, 'draw')} {line['tile']}"
            return f"  {who} {self.verb(seat, 'draw')} a tile"
        points = line.get("points", 0)
        if points:
            count = f" (count {line['count']})" if "count" in line else ""
            return f"  [green]{who} {self.verb(seat, 'score')} {points}{count}[/]"
        return None

    def _awards(self, awards: Sequence[int]) -> str:
        """Every seat's award at a hand's end, as the record says: "Ann scores 6, Bob loses 4"."""
        parts = []
        for s, a in enumerate(awards):
            who = escape(self.names[s])
            if a > 0:
                parts.append(f"{who} {self.verb(s, 'score')} {a}")
            elif a < 0:
                parts.append(f"{who} {self.verb(s, 'lose')} {-a}")
            else:
                parts.append(f"{who} {self.verb(s, 'score')} nothing")
        return ", ".join(parts)

    def _hand_end(self, line: JSON) -> str:
        names = self.names
        reason = str(line.get("reason"))
        winner = line.get("winner")
        who = "nobody" if winner is None else escape(names[winner])
        award = line.get("award", 0)
        awards = line.get("awards")
        scores = ", ".join(f"{escape(names[i])} {s}" for i, s in enumerate(line["scores"]))
        if reason == "domino":
            what = f"{who} {self.verb(winner, 'go')} out (domino)"
            what += (
                f": {self._awards(awards)}"
                if awards
                else f" and {self.verb(winner, 'collect')} {award}"
            )
        elif reason == "block":
            if awards:
                what = f"the hand is blocked: {self._awards(awards)}"
            elif winner is not None:
                what = f"the hand is blocked; {who} {self.verb(winner, 'have')} the fewest pips"
                what += f" and {self.verb(winner, 'collect')} {award}" if award else ""
            else:
                what = "the hand is blocked with a tie: nobody scores"
        else:
            what = {
                "redeal": "nobody holds a double: the tiles are reshuffled and dealt again",
                "bogus": f"bogus play: {who} {self.verb(winner, 'collect')} {award}",
                "ruling": f"a ruling ends the hand; {who} {self.verb(winner, 'collect')} {award}",
                "played_out": "all tiles of the pass are played",
                "game_over": f"{who} {self.verb(winner, 'reach')} the target",
            }.get(reason, reason)
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


def save_record(state: GameState, path: Path, meta: JSON) -> Path:
    """Write the game's record (also an unfinished one) with ``meta`` (seed, bots...)."""
    record = state.record()
    record["meta"] = {**record.get("meta", {}), **meta}
    path.write_text(dump_record(record))
    return path
