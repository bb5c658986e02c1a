"""Tournament events on the site: online events played at live tables, and over-the-board
events with score cards (docs/events.md).

The pairing logic is the pure :mod:`boneyard.tournament` package; this package keeps its JSON in
the event row and feeds it results. One module per job:

* :mod:`~boneyard.server.events.site` puts it together (:class:`EventSite`: routes, hooks, the
  background work); :mod:`~boneyard.server.events.context` what every route shares, and the
  dependencies that hand it over (``Ctx``, ``Me``);
* :mod:`~boneyard.server.events.service` the tournament value, results, tables, forfeits;
* :mod:`~boneyard.server.events.settings` the settings and their defaults, the format's value;
* :mod:`~boneyard.server.events.start` seeding and the start;
* :mod:`~boneyard.server.events.scheduler` what happens at a time (start time, no-show grace);
* :mod:`~boneyard.server.events.timeouts` the move clock's time-outs at event tables;
* :mod:`~boneyard.server.events.notify` notifications (the bell, e-mail);
* the work behind the routes: :mod:`manage`, :mod:`entry`, :mod:`places`, :mod:`rulings`,
  :mod:`scorecards` (no web framework: they raise domain errors, boneyard.server.errors);
  :mod:`~boneyard.server.events.background` the periodic task of the scheduler and mailer;
* routes: :mod:`admin` (create, edit, cancel, delete, co-directors), :mod:`entrants`
  (registration, check-in, seeding, start), :mod:`offers` (replacements, invitations),
  :mod:`console` (rulings, forfeits, undo, PDA 9b), :mod:`cards` (over-the-board score
  cards), :mod:`exports` (CSV, JSON), :mod:`pages`, :mod:`inbox` (the bell's list, e-mail
  settings);
* :mod:`~boneyard.server.events.views` the pages' JSON; :mod:`schemas` the request bodies.
"""

from boneyard.server.events.exports import csv_cell
from boneyard.server.events.site import EventSite

__all__ = ["EventSite", "csv_cell"]
