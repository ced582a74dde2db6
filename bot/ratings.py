"""Glicko-2 ratings: a player's strength and how sure we are of it.

Pure maths, no database and no Discord: a finished game's new records are computed here
(:func:`after_game`), and ``db`` stores them in the transaction that finishes the game. The
method is Mark Glickman's "Example of the Glicko-2 system" (2013); the names below follow that
paper.

A player has three numbers:

- ``rating`` (r): the strength on the familiar Elo-like scale, 1500 for a newcomer;
- ``rd`` (rating deviation): the uncertainty, 350 for a newcomer; a rating is believed to lie within
  about two RDs of r. Games make it shrink; time without games makes it grow again;
- ``volatility`` (σ): how erratic the player's results are, 0.06 to start.

How Ardoise uses it (decisions, not in the paper):

- Each finished game is its own rating period, rated as soon as it ends, both players from their
  ratings *before* the game (so the order in which the two are updated does not matter). Players
  in a classroom play a handful of games a week; waiting for a weekly period would leave the
  leaderboard stale for days.
- τ (``TAU``), which limits how fast the volatility may change, is 0.5, the value of the paper's
  example and the middle of its recommended range 0.3–1.2.
- An RD never grows beyond 350, a newcomer's uncertainty (:func:`idle`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

#: The factor between the Glicko scale (r, RD) and the Glicko-2 scale (μ, φ): 400 / ln 10.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant τ: smaller values keep volatility (and so ratings) steadier.
TAU = 0.5
#: Convergence tolerance of the volatility iteration (the paper's ε).
EPSILON = 1e-6
MAX_RD = DEFAULT_RD
#: Weeks without a rated game make the rating's RD grow back (one Glicko-2 idle period a week).
IDLE_PERIOD = timedelta(days=7)


@dataclass(frozen=True)
class Rating:
    """One player's Glicko-2 state in one game, on the familiar (Glicko) scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not (self.rd > 0 and self.volatility > 0):
            raise ValueError(f"RD and volatility must be positive: {self!r}")


def _g(phi: float) -> float:
    # Weight of a game: an opponent we are unsure about tells us less.
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1), per Glicko-2."""
    return _expected(
        (player.rating - DEFAULT_RATING) / SCALE,
        (opponent.rating - DEFAULT_RATING) / SCALE,
        opponent.rd / SCALE,
    )


def idle(player: Rating, periods: int = 1) -> Rating:
    """``periods`` rating periods without games: the rating stays, the RD grows (never beyond 350).

    Each period adds the volatility in quadrature: φ² becomes φ² + σ².
    """
    if periods < 0:
        raise ValueError(f"periods cannot be negative: {periods}")
    phi = player.rd / SCALE
    phi_star = math.sqrt(phi * phi + periods * player.volatility**2)
    return Rating(player.rating, min(phi_star * SCALE, MAX_RD), player.volatility)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    # Step 5 of the paper: solve f(x) = 0 by the Illinois (regula falsi) method.
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period.

    ``results`` holds, for each game of the period, the opponent's rating before the period and the
    player's score in it (1 win, 0.5 draw, 0 loss). With no game, this is :func:`idle`.
    """
    games = list(results)
    if not games:
        return idle(player)
    for _, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    inv_v = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        g = _g(opponent.rd / SCALE)
        e = _expected(mu, mu_j, opponent.rd / SCALE)
        inv_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inv_v
    delta = v * improvement
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + DEFAULT_RATING, min(new_phi * SCALE, MAX_RD), sigma)


def rate_game(a: Rating, b: Rating, score_a: float, *, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them, ``score_a`` being A's score (1, ½, 0).

    Each is rated from the other's rating before the game.
    """
    return rate(a, [(b, score_a)], tau=tau), rate(b, [(a, 1.0 - score_a)], tau=tau)


@dataclass(frozen=True)
class Record:
    """A member's record in one game: the rating, the games counted, the current and best runs
    of wins, and when it was last rated (None: never)."""

    rating: Rating = field(default_factory=Rating)
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    best_streak: int = 0
    updated_at: datetime | None = None


@dataclass(frozen=True)
class Rated:
    """One player of a rated game: the record the game was rated from (aged by the weeks away)
    and the record after it."""

    before: Record
    after: Record


def after_game(a: Record, b: Record, score_a: float, now: datetime) -> tuple[Rated, Rated]:
    """Both records after one game between A and B (``score_a``: A's score, 1, ½ or 0), rated
    at ``now``. A record with no game yet is a newcomer's; time away makes a rating less sure
    (:func:`idle`, one period a full week)."""

    def aged(record: Record) -> Record:
        if record.games == 0:
            return Record()
        if record.updated_at is None:
            return record
        weeks = (now - record.updated_at) // IDLE_PERIOD
        return replace(record, rating=idle(record.rating, max(weeks, 0)))

    old_a, old_b = aged(a), aged(b)
    new_a, new_b = rate_game(old_a.rating, old_b.rating, score_a)

    def counted(old: Record, new: Rating, score: float) -> Rated:
        won, lost = score == 1.0, score == 0.0
        streak = old.streak + 1 if won else 0
        return Rated(old, Record(new, old.games + 1, old.wins + won, old.losses + lost,
                                 old.draws + (not won and not lost), streak,
                                 max(old.best_streak, streak), now))

    return counted(old_a, new_a, score_a), counted(old_b, new_b, 1.0 - score_a)
