"""The shapes of the tournament pages' JSON, as typed dicts: what :mod:`views` builds and what
the cards' words (:mod:`cardtext`), the exports, the printed pages and their PDF read, so that
a key's name and its value's type are checked where a view is written and where it is read.

They describe the JSON as it is sent (each key in the order the builder writes it); they add no
validation at run time. A key marked ``NotRequired`` is absent from some views: the results of
an event that has not started, a history entry's fields that only some entries carry.

Free-form JSON as the database stores it (game options, settings, a log entry's payload) stays
a :data:`Stored` mapping.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from boneyard.store.statuses import (
    EntrantStatus,
    MatchGameKind,
    MatchGameStatus,
    TournamentStatus,
)
from boneyard.tournament.standings import StandingJSON

Stored = dict[str, Any]
"""JSON as a row stores it, its keys free (game options, settings, a log entry's payload)."""
Names = dict[int, str]
"""Display names by id (entrants' or accounts')."""


class LabelView(TypedDict):
    """A result mark or a standings criterion (``tournament.labels.Label``)."""

    key: str
    name: str
    short: str
    explanation: str


class HistoryEntry(TypedDict):
    """An entry of a game's card history (``service.history``): what happened, when, by whom,
    and the fields of its kind (scores, the side that signed, an offender …)."""

    at: str | None
    what: str
    by: NotRequired[int | None]
    note: NotRequired[str | None]
    score_a: NotRequired[int | None]
    score_b: NotRequired[int | None]
    side: NotRequired[str]
    reason: NotRequired[str | None]
    kind: NotRequired[str]
    offender: NotRequired[int | None]
    beneficiary: NotRequired[int | None]
    points: NotRequired[int | None]
    action: NotRequired[int | None]
    entrant: NotRequired[int | None]
    rule: NotRequired[str]
    winner: NotRequired[int | None]


class HistoryLine(TypedDict):
    """A history entry in words (``cardtext.history_entries``)."""

    at: str | None
    text: str


class GameFacts(TypedDict):
    """A game row of a match as the pages have it, before its card is put in words."""

    id: int
    number: int
    kind: MatchGameKind
    table_id: str | None
    status: MatchGameStatus
    side_a: int | None
    side_b: int | None
    score_a: int | None
    score_b: int | None
    winner: int | None
    winner_name: str | None
    reason: str | None
    reason_label: LabelView | None
    note: str | None
    reported_by: int | None
    reported_by_name: str | None
    confirmed_by: int | None
    by_director: bool
    paper: bool
    signed_a: int | None
    signed_b: int | None
    signed_a_at: str | None
    signed_b_at: str | None
    history: list[HistoryEntry]
    final: bool
    created_at: str | None
    updated_at: str | None


class GameView(GameFacts):
    """A game row with its card in words (``views.game_json``)."""

    how: str
    history_text: list[HistoryLine]


class WaitView(TypedDict):
    """A side of a ready match not checked in, and when its grace ends."""

    entrant: int
    name: str
    until: str


class MatchView(TypedDict):
    """A match of the tournament with its names, game rows and marks (``views.match_json``)."""

    id: str
    round: int
    index: int
    a: int | None
    b: int | None
    a_name: str | None
    b_name: str | None
    best_of: int
    wins: list[int]
    winner: int | None
    winner_name: str | None
    bye: bool
    forfeit: int | None
    outcome: str | None
    outcome_label: LabelView | None
    over: bool
    ready: bool
    games: list[GameView]
    table: int | None
    waiting: list[WaitView]
    kind: str | None
    title: str


class EntrantView(TypedDict):
    """An entrant (``views.entrant_json``); the claim code for the event's staff only."""

    id: int
    name: str
    club: str | None
    bot: str | None
    user_id: int | None
    walk_in: bool
    claim_code: str | None
    checked_in: bool
    status: EntrantStatus
    dropped: bool
    seed: int | None
    registered_at: str | None


class ActionView(TypedDict):
    """An entry of the event log (``views.action_json``)."""

    id: int
    kind: str
    payload: Stored
    note: str | None
    by: str | None
    at: str | None
    undone: bool


class MeView(TypedDict):
    """Who the viewer is in the event (``views.me_json``)."""

    entrant: int | None
    director: bool
    scorekeeper: bool
    owner: bool


class ListedView(TypedDict):
    """An event in the list of tournaments (``views.listed_json``)."""

    id: str
    name: str
    game: str
    format: str
    mode: str
    schedule: str
    status: TournamentStatus
    cap: int
    entrants: int
    starts_at: str | None
    director: str


class TournamentList(TypedDict):
    """The list of tournaments (under ``events``: the API's field name stays)."""

    events: list[ListedView]


class CheckinView(TypedDict):
    """Whether entrants may check in, why not, and the director's hand."""

    open: bool
    why: str
    by_hand: str


class ClockView(TypedDict):
    """The move clock of the event's tables (``settings.clock_rule``)."""

    per_move: int
    grace: int
    timeout: str


class PersonView(TypedDict):
    """An account by id and name."""

    id: int
    name: str


class DirectorView(PersonView):
    """A director; ``owner``: the one who created the event."""

    owner: bool


class StandingLine(StandingJSON):
    """A line of the standings with the entrant's name."""

    name: str


class CrossCellView(TypedDict):
    """A meeting seen from the row entrant (``tournament.crosstable.CrossCell``)."""

    match_id: str
    round: int
    result: str | None
    games: list[int]
    outcome: str | None


class CrossRowView(TypedDict):
    """A row of a crosstable: the entrant's standing, its meetings by column, its byes."""

    standing: StandingJSON
    cells: list[list[CrossCellView]]
    byes: list[int]


class CrosstableView(TypedDict):
    """A crosstable with its title and its entrants' names (``views.crosstables``)."""

    order: list[str]
    rows: list[CrossRowView]
    title: str
    names: list[str]


class SectionView(TypedDict):
    """A section of the bracket: columns ``(index into rounds, slots)`` (``views.sections``)."""

    title: str
    columns: list[tuple[int, int]]
    third_place: NotRequired[str | None]


class ChampionView(TypedDict):
    """The winner of the event."""

    id: int
    name: str | None


class ResultsView(TypedDict):
    """The results of a started event (``views.results_json``)."""

    num_rounds: int
    current_round: int
    round_titles: list[str]
    rounds: list[list[MatchView]]
    standings: list[StandingLine]
    ranking: list[LabelView]
    tiebreak_labels: list[LabelView]
    crosstables: list[CrosstableView]
    sections: list[SectionView]
    champion: ChampionView | None


class TournamentView(TypedDict):
    """The event page's JSON (``views.event_json``): everything, and the results (the keys
    marked ``NotRequired``) once the event has started; the answer to an action may say what
    it did (``message``)."""

    id: str
    name: str
    game: str
    title: str
    format: str
    format_name: str
    mode: str
    options: Stored
    rules: list[str]
    schedule: str
    settings: Stored
    clock: ClockView
    cap: int
    starts_at: str | None
    started_at: str | None
    finished_at: str | None
    status: TournamentStatus
    rated: bool
    checkin: CheckinView
    director: PersonView
    directors: list[DirectorView]
    scorekeepers: list[PersonView]
    entrants: list[EntrantView]
    rounds: list[list[MatchView]]
    standings: list[StandingLine]
    champion: ChampionView | None
    actions: list[ActionView]
    me: MeView
    join_code: str | None
    num_rounds: NotRequired[int]
    current_round: NotRequired[int]
    round_titles: NotRequired[list[str]]
    ranking: NotRequired[list[LabelView]]
    tiebreak_labels: NotRequired[list[LabelView]]
    crosstables: NotRequired[list[CrosstableView]]
    sections: NotRequired[list[SectionView]]
    message: NotRequired[str]
    """What a director's or a player's action did, in words (in the answer to that action)."""


class MatchEventView(TypedDict):
    """The few fields of the event the match page shows."""

    id: str
    name: str
    mode: str
    status: TournamentStatus
    me: MeView
    format: str
    round_title: str


class MatchPageView(TypedDict):
    """The match page's JSON (``views.match_page_json``)."""

    event: MatchEventView
    match: MatchView


class OfferView(TypedDict):
    """A place a director offered the viewer, or an invitation (``/api/me/offers``)."""

    id: int
    event: str
    event_name: str
    place_of: str | None
    note: str | None
    at: str


class OffersView(TypedDict):
    """The viewer's pending offers."""

    offers: list[OfferView]


class TableEventNames(TypedDict):
    """The event of a table, in short."""

    id: str
    name: str
    status: TournamentStatus


class TableMatchLink(TypedDict):
    """The match a table's game belongs to, and its page."""

    id: str
    url: str


class TableGameView(TypedDict):
    """The game of the match a table plays."""

    number: int
    status: MatchGameStatus
    note: str | None


class NextGameView(TypedDict):
    """The next table to go to: the same match's next game, or the viewer's."""

    table_id: str
    match: str
    number: int


class TableEventView(TypedDict):
    """The event game a table plays and where to go next (``/api/tables/{id}/event``)."""

    event: TableEventNames
    match: TableMatchLink
    game: TableGameView
    next: NextGameView | None


class NoteView(TypedDict):
    """A notification for the bell (``notify.note_json``)."""

    id: int
    kind: str
    title: str
    body: str | None
    url: str | None
    event: str | None
    at: str
    read: bool


class NotesView(TypedDict):
    """The viewer's newest notifications and how many are unread."""

    notifications: list[NoteView]
    unread: int


class PrefsView(TypedDict):
    """A person's e-mail settings, and whether the site sends e-mail at all."""

    email: str | None
    by_email: bool
    site_sends_email: bool
