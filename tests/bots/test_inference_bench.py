"""``bench/inference.py``'s hits by plays read: how much of the true other hand the weighted
candidates hold, for the reading models against plain sampling."""

from __future__ import annotations

from bench import inference


def test_greedy_plays_read_as_greedy_put_more_of_the_true_hand_in_the_worlds() -> None:
    states = inference.positions("highfive", 2, ["greedy", "greedy"], 8, 3)
    rows = inference.hits_by_plays("highfive", states, 60, 3)
    assert set(rows) == {*inference.MODELS, "uniform"}

    def mean_hit(name: str) -> float:
        by = rows[name].values()
        return sum(r["hit"] * r["positions"] for r in by) / sum(r["positions"] for r in by)

    greedy = next(m for m in inference.MODELS if m.startswith("greedy"))
    assert mean_hit(greedy) > mean_hit("uniform") + 0.03
    assert mean_hit("expert (mixture)") > mean_hit("uniform")
    for by in rows.values():
        assert all(0.0 <= r["hit"] <= 1.0 and r["ess_median"] >= 1.0 for r in by.values())
        assert set(by) <= {str(k) for k in range(1, 7)}
    uniform = rows["uniform"].values()
    assert all(r["ess_median"] == 60 for r in uniform)  # every candidate weighs alike
