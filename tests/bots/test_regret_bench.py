"""``bench/regret.py``: the expert's High Five decisions valued again by its seer."""

from __future__ import annotations

from bench import regret
from bench.strength import plan


def test_the_seer_values_every_choice_and_the_reranking_reproduces_the_expert() -> None:
    tasks = plan("highfive", 2, "expert", "greedy", 2, 5, False)
    rows = [d for task in tasks for d in regret.decisions(12, task)]
    assert rows
    for d in rows:
        n = len(d["seer"])
        assert n >= 2 and len(d["expert"]) == len(d["points"]) == len(d["weight"]) == n
        assert regret.regret(d, d["chose"]) >= 0.0
        assert regret.regret(d, regret.best(d)) == 0.0
        assert regret.reranked(d, 0.0) == d["chose"]  # the expert's own choice, ties and all
    doc = regret.report(rows, len(tasks))
    assert doc["decisions"] == len(rows)
    assert sum(n for _, n, _, _ in doc["by_other_plays"]) == len(rows)
    assert doc["regret_a_hand"] == sum(regret.regret(d, d["chose"]) for d in rows) / 2
    n, share = doc["seer_best_dropped"]
    assert 0 <= n <= len(rows) and 0.0 <= share <= 1.0
