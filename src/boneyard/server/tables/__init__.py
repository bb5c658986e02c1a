"""Live play at a table.

:mod:`.manager` keeps the live tables (loading, commits, bots, the cross-process refresh) and
serialises each table's commands; :mod:`.ws` is the realtime protocol (docs/server.md). Beside
them, one module per job: :mod:`.clock` (the turn clock), :mod:`.between` (the pause between
hands), :mod:`.endings` (resign, abort, claim, rematch), :mod:`.presence`, :mod:`.chat`,
:mod:`.access` (private tables), :mod:`.fairness` (seeds and deals), :mod:`.broadcast` (events
between processes), and the view's parts: :mod:`.tableview`, :mod:`.movelog`, :mod:`.handend`,
:mod:`.guide`.
"""
