"""Reading the table: how likely a hidden hand is, given the choices its seat made.

A draw or a pass proves what a seat did not hold (the samplers enforce that as a hard
constraint). Its *plays* say more, softly: a seat that led a blank when it could have scored
probably could not score; a greedy player that laid a light tile probably held no heavier one
that fitted. :class:`PlayModel` turns that into probabilities: a seat is taken to choose among
its legal placements by a softmax over their value (points now plus a weight per pip), mixed
with a uniform choice so that no play, however odd, makes a hand impossible.

A sampler records, for every earlier play of a hidden seat, what each tile could have done
there (:class:`Choice`: its placements' points and weights, the layout being public), and the
likelihood of a world is then the product over those plays of the probability the model gives
to the play made, given the hand the world says the seat held at that moment.
:func:`log_likelihood` works it out from the hidden hands and draws alone, without replaying the
hand, so that many candidate worlds can be weighed and only the likely ones built.

>>> c = Choice(seat=1, moment=3, later=0b1, draw_from=0, chosen=(5, 0),
...            options=((0, ((5, 0),)), (1, ((0, 0),))))
>>> w = Style(beta=1.0, weight=0.0, eps=0.0).weigh([c])
>>> round(math.exp(choice_log_p(w[0], 0b11)), 4)  # it held both: 5 points over 0
0.9933
>>> choice_log_p(w[0], 0b01)  # it held only the tile it played
0.0
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """One way of choosing among legal placements: a placement's value is ``points + weight *
    pips`` (``pips``: the game's tile weight, the greedy bot's tie-break), and it is picked with
    probability ``(1 - eps) * softmax(beta * value) + eps / (number of placements)``. A greedy
    player is near ``beta = inf``; a searching one softer."""

    beta: float
    weight: float
    eps: float

    def weigh(self, choices: Sequence[Choice]) -> list[Weighed]:
        """The choices with every tile's placements turned into unnormalised weights (relative
        to the play made, which weighs 1)."""
        out = []
        for c in choices:
            made = c.chosen[0] + self.weight * c.chosen[1]
            weights: dict[int, float] = {}
            counts: dict[int, int] = {}
            for tile, places in c.options:
                total = 0.0
                for points, pips in places:
                    total += math.exp(min(600.0, self.beta * (points + self.weight * pips - made)))
                weights[tile] = total
                counts[tile] = len(places)
            out.append(Weighed(c, weights, counts, self.eps))
        return out


@dataclass(frozen=True, slots=True)
class PlayModel:
    """How the other seats are taken to play: a mixture of :class:`Style` values with their
    prior probabilities, so that a hand's plays can show which style a seat plays (a seat that
    always took the most points is read as greedy; one that did not, as softer). Fitted on
    self-play records (docs/performance.md, "Reading the table")."""

    styles: tuple[tuple[float, Style], ...]

    def weigh(self, choices: Sequence[Choice]) -> list[tuple[float, list[Weighed]]]:
        """Every style's log prior and weighed choices."""
        return [(math.log(p), style.weigh(choices)) for p, style in self.styles]


@dataclass(frozen=True, slots=True)
class Choice:
    """One earlier play of a hidden seat, as evidence about its hand.

    ``moment`` is the play's moment in the sampler's numbering (the one of
    :class:`~boneyard.games.fives.worlds.SeatHistory`); ``later`` the tiles the seat played at
    that moment or after (it held them then); ``draw_from`` the index of its first draw after
    the moment (the tiles it drew from there on it did not hold yet). ``chosen`` is the
    ``(points, pips)`` of the play made; ``options`` gives, for every tile the seat might have
    held, the ``(points, pips)`` of each of its legal placements then (a tile that did not fit
    is absent).
    """

    seat: int
    moment: int
    later: int
    draw_from: int
    chosen: tuple[int, int]
    options: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]


@dataclass(frozen=True, slots=True)
class Weighed:
    """A :class:`Choice` under one model: each tile's summed placement weight and count."""

    choice: Choice
    weights: dict[int, float]
    counts: dict[int, int]
    eps: float


def choice_log_p(w: Weighed, hand: int) -> float:
    """The log probability of the play made, for a seat holding ``hand`` then (a bit mask of
    tile ids, the tile it played included)."""
    total = 0.0
    n = 0
    weights = w.weights
    counts = w.counts
    m = hand
    while m:
        low = m & -m
        t = low.bit_length() - 1
        m ^= low
        x = weights.get(t)
        if x is not None:
            total += x
            n += counts[t]
    if total <= 0.0 or n == 0:
        return 0.0
    return math.log((1.0 - w.eps) / total + w.eps / n)


def log_likelihood(
    weighed: Sequence[tuple[float, Sequence[Weighed]]],
    hands: dict[int, int],
    draws: dict[int, list[int]],
) -> float:
    """The log probability of every recorded play of the hidden seats under a model
    (:meth:`PlayModel.weigh`), in the world whose hidden hands now are ``hands`` and whose
    hidden draws (per seat, in order) are ``draws``."""
    if not weighed or not weighed[0][1]:
        return 0.0
    after: dict[int, list[int]] = {}
    for seat, tiles in draws.items():
        masks = [0] * (len(tiles) + 1)
        for k in range(len(tiles) - 1, -1, -1):
            masks[k] = masks[k + 1] | (1 << tiles[k])
        after[seat] = masks
    held: list[int] = []
    for w in weighed[0][1]:
        c = w.choice
        h = hands[c.seat] | c.later
        suffix = after.get(c.seat)
        if suffix is not None and c.draw_from < len(suffix):
            h &= ~suffix[c.draw_from]
        held.append(h)
    terms = []
    for prior, ws in weighed:
        total = prior
        for w, h in zip(ws, held, strict=True):
            total += choice_log_p(w, h)
        terms.append(total)
    return log_sum_exp(terms)


def log_sum_exp(xs: Sequence[float]) -> float:
    """``log(sum(exp(x) for x in xs))``, without overflow.

    >>> round(log_sum_exp([math.log(0.25), math.log(0.75)]), 9)
    0.0
    """
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs))


def resample(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` (systematic resampling: each index
    appears ``floor`` or ``ceil`` of its expected number of times).

    >>> resample([0.5, 0.5, 0.0], 4, random.Random(1))
    [0, 0, 1, 1]
    """
    total = sum(weights)
    step = total / count
    u = rng.random() * step
    out: list[int] = []
    acc = 0.0
    k = 0
    for i, x in enumerate(weights):
        acc += x
        while k < count and u + k * step < acc:
            out.append(i)
            k += 1
    while len(out) < count:  # rounding: the last index with weight takes what is left
        out.append(max(i for i, x in enumerate(weights) if x > 0))
    return out


def effective_size(log_weights: Sequence[float]) -> float:
    """Kish's effective sample size of importance weights (``exp(log_weights)``).

    >>> effective_size([0.0, 0.0, 0.0, 0.0])
    4.0
    """
    top = max(log_weights)
    weights = [math.exp(x - top) for x in log_weights]
    # math.fsum, not sum: compiled by mypyc, ``sum(...) ** 2 / sum(...)`` of these floats raised
    # "TypeError: int object expected; got float" (so did a sum into a variable, squared).
    total = math.fsum(weights)
    return total * total / math.fsum(x * x for x in weights)
