"""Swiss pairings by the criteria of the Dutch system, found as a maximum-weight matching.

A round's pairing is the one that is best by these criteria, each one counting only among
pairings equal by all the ones before it (a lexicographic order):

1. **second byes**: nobody gets a second bye while someone has had none;
2. **rematches**: no two entrants meet twice while a pairing without a rematch exists;
3. **bye score**: the bye goes to the lowest score group it can;
4. **floaters**: as few entrants as possible play outside their score group (the entrants with
   the same points). As in the Dutch system, where an entrant left over in a score group floats
   down one group at a time, an entrant paired ``k`` groups away counts as ``k`` floats, and
   the pairing has as few floats as can be;
5. **score differences**: then the smallest score differences, as the sum of their squares: a
   float goes to the next group down rather than further (1 v 0.5 and 0.5 v 0 rather than
   1 v 0, as the Dutch system floats the lowest scores it can);
6. **exchanges**: in a score group, the top half plays the bottom half (as few pairs as
   possible inside one half);
7. **seed distance**: in a score group of ``g`` with its entrants numbered ``0 .. g-1`` in
   standings order, entrant ``i`` of the top half meets ``i + g // 2`` (1 v 5, 2 v 6, 3 v 7,
   4 v 8 in a group of eight): the total distance from that is as small as can be. An entrant
   who floats down is the lowest of its group and meets the highest of the group below it
   (the distance counts the entrants passed over), and the bye goes to the lowest entrant of
   its group.

The project has no colours (sides alternate seats game by game), so the Dutch colour rules
have no counterpart. Each criterion is a sum over the pairs (and the bye) of a small whole
number, so a pairing's cost is a vector of seven sums, and :func:`pair_round` finds the
pairing of least cost with :func:`networkx.max_weight_matching` (Edmonds' blossom algorithm,
as lichess's Swiss pairings use it): the entrants are the vertices, an odd field adds a
vertex for the bye, and every pair is an edge whose weight encodes its cost vector.

Why the weights are exact: with ``E`` edges in a pairing and ``v_k`` a bound on criterion
``k`` for one edge, a pairing's sum of criterion ``k`` lies in ``0 .. E·v_k``. Each edge's cost
is ``Σ c_k · M_k`` with ``M_7 = 1`` and ``M_k = M_{k+1} · (E·v_{k+1} + 1)``, so a pairing's
total cost is the mixed-radix number whose digits are its seven sums: no sum of the lower
criteria can reach one unit of a higher one, and comparing totals is comparing the vectors
lexicographically. The weights are Python integers (no rounding; networkx then computes in
integers and checks the optimality of its answer), the matching is asked for at maximum
cardinality (every entrant paired, the graph being complete), and the weight of an edge is
``C - cost`` for a constant ``C`` above every cost, so the heaviest perfect matching is the
cheapest pairing. The tests check the result against every pairing of fields of up to 10.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

CRITERIA = (
    "second_byes",
    "rematches",
    "bye_score",
    "floaters",
    "score_differences",
    "exchanges",
    "seed_distance",
)
"""The criteria in order of priority (the positions of a cost vector)."""

Cost = tuple[int, ...]
Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Place:
    """Where an entrant stands in its score group."""

    group: int
    """The score group, 0 the highest score."""
    size: int
    """How many entrants the group has."""
    at: int
    """The entrant's place in the group, 0 the best."""
    halves: int
    """Twice the entrant's points: a whole number (a bye may score 0.5)."""


@dataclass(frozen=True, slots=True)
class Field:
    """What a round's pairing depends on: the entrants to pair, best first (by points, then the
    standings' tiebreaks), their points, who has met whom, and who has had a bye."""

    order: tuple[str, ...]
    points: Mapping[str, float]
    met: frozenset[frozenset[str]]
    had_bye: frozenset[str]

    def places(self) -> dict[str, Place]:
        """Each entrant's score group and place in it."""
        members: dict[float, list[str]] = {}
        for e in self.order:
            members.setdefault(self.points[e], []).append(e)
        return {
            e: Place(g, len(group), i, round(2 * score))
            for g, (score, group) in enumerate(sorted(members.items(), reverse=True))
            for i, e in enumerate(group)
        }


def edge_cost(f: Field, places: Mapping[str, Place], x: str, y: str | None) -> Cost:
    """The cost vector of ``x`` meeting ``y`` (``x`` ranked above ``y``), or of ``x``'s bye
    (``y`` is ``None``); the positions are :data:`CRITERIA`."""
    px = places[x]
    below_x = px.size - 1 - px.at
    if y is None:
        return (int(x in f.had_bye), 0, px.halves, 0, 0, 0, below_x)
    py = places[y]
    rematch = int(frozenset((x, y)) in f.met)
    if px.group != py.group:
        floats = abs(py.group - px.group)
        return (0, rematch, 0, floats, (px.halves - py.halves) ** 2, 0, below_x + py.at)
    half = px.size // 2
    exchange = int((px.at < half) == (py.at < half))
    return (0, rematch, 0, 0, 0, exchange, abs(py.at - px.at - half))


def pairing_cost(f: Field, pairs: Sequence[Pair], bye: str | None) -> Cost:
    """The cost vector of a whole pairing (the sum of its edges')."""
    places = f.places()
    rank = {e: i for i, e in enumerate(f.order)}
    edges = [edge_cost(f, places, *sorted(p, key=rank.__getitem__)) for p in pairs]
    if bye is not None:
        edges.append(edge_cost(f, places, bye, None))
    return tuple(sum(c[k] for c in edges) for k in range(len(CRITERIA)))


def place_values(places: Mapping[str, Place], edges: int) -> tuple[int, ...]:
    """The multiplier of each criterion (the module docstring says why they are exact), from
    bounds on one edge's value of each: 1 for the yes-or-no criteria, the highest score for
    the bye's, the groups for the floats, the widest score gap squared, twice the largest
    group for the seed distance."""
    halves = [p.halves for p in places.values()] or [0]
    groups = max((p.group for p in places.values()), default=0)
    size = max((p.size for p in places.values()), default=0)
    bounds = (1, 1, max(halves), groups, (max(halves) - min(halves)) ** 2, 1, 2 * size)
    out = [1] * len(CRITERIA)
    for k in range(len(CRITERIA) - 2, -1, -1):
        out[k] = out[k + 1] * (edges * bounds[k + 1] + 1)
    return tuple(out)


def pair_round(f: Field) -> tuple[list[Pair], str | None]:
    """The least-cost pairing of ``f.order`` and the bye (``None`` for an even field); each
    pair is written better-ranked entrant first, pairs in the order of their first entrant.

    >>> f = Field(("a", "b", "c"), {"a": 1, "b": 1, "c": 0}, frozenset({frozenset("bc")}),
    ...           frozenset({"c"}))
    >>> pair_round(f)
    ([('a', 'c')], 'b')
    """
    order = f.order
    if len(order) < 2:
        return [], (order[0] if order else None)
    places = f.places()
    odd = len(order) % 2 == 1
    place = place_values(places, (len(order) + 1) // 2)
    cost: dict[tuple[int, int], int] = {}
    for i, x in enumerate(order):
        for j in range(i + 1, len(order)):
            cost[i, j] = sum(map(operator.mul, edge_cost(f, places, x, order[j]), place))
        if odd:
            cost[-1, i] = sum(map(operator.mul, edge_cost(f, places, x, None), place))
    ceiling = max(cost.values()) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_weighted_edges_from((i, j, ceiling - c) for (i, j), c in cost.items())
    pairs: list[tuple[int, int]] = []
    bye = None
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        i, j = min(u, v), max(u, v)
        if i == -1:
            bye = order[j]
        else:
            pairs.append((i, j))
    return [(order[i], order[j]) for i, j in sorted(pairs)], bye
