"""What all formats share: rounds of matches, lookup, recording games, JSON."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Self

from boneyard.tournament.errors import TournamentError
from boneyard.tournament.labels import MATCH_KINDS, Label, criterion
from boneyard.tournament.match import Match
from boneyard.tournament.schedule import Schedule
from boneyard.tournament.standings import Standing

VERSION = 1
_ID_TAIL = re.compile(r"[A-Z](\d+)M(\d+)$")


@dataclass(frozen=True, slots=True)
class TournamentBase:
    """Entrants in seed order, the schedule, and the rounds of matches known so far."""

    format: ClassVar[str] = ""
    RANKING: ClassVar[tuple[str, ...]] = ()
    """The standings criteria in order (keys of :mod:`boneyard.tournament.labels`)."""
    TIEBREAKS: ClassVar[tuple[str, ...]] = ()
    """The criteria held in ``Standing.tiebreaks``, in order."""

    entrants: tuple[str, ...]
    schedule: Schedule
    rounds: tuple[tuple[Match, ...], ...]

    @property
    def num_rounds(self) -> int:
        """The planned number of rounds."""
        return len(self.rounds)

    def matches(self) -> tuple[Match, ...]:
        """Every match known so far, in round order."""
        return tuple(m for r in self.rounds for m in r)

    def match(self, match_id: str) -> Match:
        """The match with this id (``R1M3``)."""
        r, i = self._locate(match_id)
        return self.rounds[r][i]

    def _guess(self, match_id: str) -> tuple[int, int]:
        """Where a match id such as ``R2M5`` or ``P3R2M5`` should sit in ``rounds`` (checked by
        :meth:`_locate`, which falls back to a scan)."""
        m = _ID_TAIL.search(match_id)
        return (int(m[1]) - 1, int(m[2]) - 1) if m else (-1, -1)

    def _locate(self, match_id: str) -> tuple[int, int]:
        r, i = self._guess(match_id)
        rounds = self.rounds
        if 0 <= r < len(rounds) and 0 <= i < len(rounds[r]) and rounds[r][i].id == match_id:
            return r, i
        for r, rnd in enumerate(self.rounds):
            for i, m in enumerate(rnd):
                if m.id == match_id:
                    return r, i
        raise TournamentError(f"there is no match {match_id!r} in this event")

    @property
    def current_round(self) -> int:
        """The lowest round (1-based) with an unfinished match; the last round once over."""
        for r, rnd in enumerate(self.rounds):
            if not all(m.is_over for m in rnd):
                return r + 1
        return max(1, len(self.rounds))

    def pending(self) -> tuple[Match, ...]:
        """Matches that can be played now (both sides known, not decided), current round only."""
        if not self.rounds:
            return ()
        return tuple(m for m in self.rounds[self.current_round - 1] if m.is_ready)

    @property
    def is_over(self) -> bool:
        """Every planned match is decided."""
        return len(self.rounds) == self.num_rounds and all(m.is_over for m in self.matches())

    @property
    def champion(self) -> str | None:
        """The winner of the event once it is over."""
        if not self.is_over:
            return None
        return self.standings()[0].entrant

    def seed_of(self, entrant: str) -> int:
        """An entrant's seed (1-based)."""
        try:
            return self.entrants.index(entrant) + 1
        except ValueError:
            raise TournamentError(f"{entrant!r} is not an entrant of this event") from None

    def standings(self) -> tuple[Standing, ...]:
        """The standings (see the format)."""
        raise NotImplementedError

    def _bye_points(self) -> float | None:
        """What a bye scores, for formats that count byes as points."""
        return None

    def ranking(self) -> tuple[Label, ...]:
        """What orders the standings, first criterion first, with names and explanations."""
        return tuple(criterion(k, self._bye_points()) for k in self.RANKING)

    def tiebreak_labels(self) -> tuple[Label, ...]:
        """The names and explanations of the ``Standing.tiebreaks`` values, in order."""
        return tuple(criterion(k) for k in self.TIEBREAKS)

    def round_titles(self) -> tuple[str, ...]:
        """A title for each entry of ``rounds``: ``Round 1``, ``Round 2`` ..."""
        return tuple(f"Round {r}" for r in range(1, len(self.rounds) + 1))

    def match_kind(self, match_id: str) -> str | None:
        """What the match is, where a bracket names it (a key of ``labels.MATCH_KINDS``:
        ``final``, ``third_place``, ``grand_final``, ``grand_final_reset``); ``None`` for an
        ordinary match."""
        self.match(match_id)
        return None

    def match_title(self, match_id: str) -> str:
        """The match's heading: its kind's name (``Third-place match``), else the title of its
        round (``Round 3``, ``Losers' round 2``)."""
        kind = self.match_kind(match_id)
        if kind is not None:
            return MATCH_KINDS[kind].name
        return self.round_titles()[self._locate(match_id)[0]]

    def _check_playable(self, m: Match) -> None:
        if m.is_ready and m.round != self.current_round:
            raise TournamentError(
                f"match {m.id} is in round {m.round}; round {self.current_round} comes first"
            )

    def record_game(
        self,
        match_id: str,
        winner: str,
        scores: tuple[int, int] = (0, 0),
        reason: str = "target",
    ) -> Self:
        """The event with one more game of ``match_id`` won by ``winner``; a decided match
        advances the event (next bracket slot, next Swiss round)."""
        m = self.match(match_id)
        self._check_playable(m)
        return self._put(m.with_game(winner, scores, reason))

    def record_forfeit(self, match_id: str, loser: str, reason: str = "forfeit") -> Self:
        """The event with ``match_id`` forfeited by ``loser``; ``reason`` (``forfeit``,
        ``no_show``, ``abandoned``, ``withdrawn``, ``timeout``, ``ruling``, ``disqualified``)
        marks the match in brackets and standings."""
        m = self.match(match_id)
        self._check_playable(m)
        return self._put(m.with_forfeit(loser, reason))

    def _put(self, m: Match) -> Self:
        r, i = self._locate(m.id)
        rnd = self.rounds[r]
        rounds = (*self.rounds[:r], (*rnd[:i], m, *rnd[i + 1 :]), *self.rounds[r + 1 :])
        new = replace(self, rounds=rounds)
        return new._advanced(m) if m.is_over else new

    def _advanced(self, m: Match) -> Self:
        """Hook: the event after ``m`` was decided."""
        return self

    def _json_base(self) -> dict[str, object]:
        return {
            "format": self.format,
            "version": VERSION,
            "entrants": list(self.entrants),
            "schedule": self.schedule.to_json(),
            "rounds": [[self._match_json(m) for m in rnd] for rnd in self.rounds],
        }

    def _match_json(self, m: Match) -> dict[str, object]:
        """A match's JSON, with its ``kind`` where the bracket names it (read back as a
        plain match: the kind follows from where the match is)."""
        kind = self.match_kind(m.id)
        return {**m.to_json(), "kind": kind} if kind is not None else m.to_json()

    @staticmethod
    def _parse_base(
        doc: dict[str, Any], fmt: str
    ) -> tuple[tuple[str, ...], Schedule, tuple[tuple[Match, ...], ...]]:
        if doc.get("format") != fmt:
            raise TournamentError(f"this is not a {fmt} event: format {doc.get('format')!r}")
        if doc.get("version", VERSION) != VERSION:
            raise TournamentError(f"event version {doc.get('version')!r} is not supported")
        return (
            tuple(doc["entrants"]),
            Schedule.from_json(doc["schedule"]),
            tuple(tuple(Match.from_json(m) for m in rnd) for rnd in doc["rounds"]),
        )


def competition_ranks(keys: list[tuple[object, ...]]) -> list[int]:
    """1-based ranks of already sorted keys, equal keys sharing a rank (1, 2, 3, 3, 5).

    >>> competition_ranks([(1,), (2,), (3,), (3,), (4,)])
    [1, 2, 3, 3, 5]
    """
    out: list[int] = []
    for i, k in enumerate(keys):
        out.append(out[-1] if i and keys[i - 1] == k else i + 1)
    return out
