"""The Fives layout and the parts High Five and Merry-Go-Round share (RULES §1.3, §2.2).

Both games lay tiles on the same layout and differ in their rules, not in how a hand is dealt,
held, laid out, shown, written down or sampled for search; that common part is this package:
the layout (:mod:`.layout`), the actions and placements (:mod:`.play`), the events
(:mod:`.events`), the base state (:mod:`.state`), the record reader's checks (:mod:`.record`),
the replay lines (:mod:`.lines`), the terminal text (:mod:`.text`), the rules-page figures
(:mod:`.figures`), the learners' ids and vectors (:mod:`.learning`, :mod:`.fast`) and the
search's hidden deals (:mod:`.worlds`). It is not a game: no registry line names it.
"""

COMPILED = ("layout", "play", "events", "state", "fast", "playout")
"""The package's modules compiled with mypyc (setup.py reads this tuple from the source): its
state and events (a compiled class may only extend a compiled class, and the base state is
compiled), the rules' hot paths, the learners' fast path and the expert's play-out policy."""
