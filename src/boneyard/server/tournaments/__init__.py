"""Tournaments on the site: online tournaments played at live tables, and over-the-board
tournaments with score cards (docs/tournaments-site.md).

The pairing logic is the pure :mod:`boneyard.tournament` package; this package keeps its JSON in
the tournament's row (``store.tournaments.TournamentRow``) and feeds it results. One module per
job:

* :mod:`~boneyard.server.tournaments.router` gathers every route (and serves the old ``/events``
  addresses); :mod:`~boneyard.server.tournaments.site` puts the rest together
  (:class:`TournamentSite`: hooks, the background work);
  :mod:`~boneyard.server.tournaments.context` what every route shares, and the dependencies that
  hand it over (``Ctx``, ``Me``);
* :mod:`~boneyard.server.tournaments.service` the tournament value, results, tables, forfeits;
* :mod:`~boneyard.server.tournaments.settings` the settings and their defaults, the format's
  value;
* :mod:`~boneyard.server.tournaments.start` seeding and the start;
* :mod:`~boneyard.server.tournaments.scheduler` what happens at a time (start time, no-show
  grace);
* :mod:`~boneyard.server.tournaments.timeouts` the move clock's time-outs at tournament tables;
* :mod:`~boneyard.server.tournaments.notify` notifications (the bell, e-mail);
* the work behind the routes: :mod:`manage`, :mod:`entry`, :mod:`places`, :mod:`rulings`,
  :mod:`scorecards` (no web framework: they raise domain errors, boneyard.server.errors);
  :mod:`~boneyard.server.tournaments.background` the periodic task of the scheduler and mailer;
* routes: :mod:`admin` (create, edit, cancel, delete, co-directors), :mod:`entrants`
  (registration, check-in, seeding, start), :mod:`offers` (replacements, invitations),
  :mod:`console` (rulings, forfeits, undo, PDA 9b), :mod:`cards` (over-the-board score
  cards), :mod:`exports` (CSV, JSON), :mod:`prints`, :mod:`venue`, :mod:`pages`, :mod:`inbox`
  (the bell's list, e-mail settings);
* :mod:`~boneyard.server.tournaments.views` the pages' JSON; :mod:`schemas` the request bodies.

The database keeps its table and column names (``events``, ``event_games``, ``event_id`` …), and
the API, records and exports their field names, so that nothing stored or exported changes.
"""

from boneyard.server.tournaments.exports import csv_cell
from boneyard.server.tournaments.site import TournamentSite

__all__ = ["TournamentSite", "csv_cell"]
