"""School years: which skills, at which of their levels, a class of a given year practises.

France by cycle (cycle 2: CP–CE2, cycle 3: CM1–6e, cycle 4: 5e–3e, after the national
programmes) and by class (CP to 3e, each its part of its cycle), the United States by grade
(1 to 8, after the Common Core's operations strands).
A teacher chooses a school year for the server (``/settings``) or for one student
(``/class student``); practice then draws from that year's skills.

How a year meets the eight Focus levels (the adaptive level, the teacher's pin and range are
unchanged): the year's skill levels, easiest first (by their tier, then in the order listed
here), are shared out in order among the Focus levels 1 to 8 (``ladder``, ``pool``): level 1
practises the year's easiest, level 8 its hardest. A year with fewer than eight skill levels
gives some of them to two Focus levels. ``docs/rules/focus.md`` shows the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.domain import DomainError
from bot.focus.questions import MAX_COUNT, MAX_LEVEL, MIN_LEVEL, Question, check_level
from bot.focus.skills import SKILLS, SkillRef, check_skill, draw


@dataclass(frozen=True, slots=True)
class SchoolYear:
    id: str
    country: str  # "fr", "us"
    #: (skill, its levels in this year), in the year's own order
    skills: tuple[tuple[str, tuple[int, ...]], ...]


def _year(id: str, country: str, *skills: tuple[str, tuple[int, ...]]) -> SchoolYear:
    return SchoolYear(id, country, skills)


YEARS: dict[str, SchoolYear] = {year.id: year for year in (
    _year("cycle2", "fr",
          ("addition", (1, 2)), ("subtraction", (1, 2)), ("missing-addition", (1, 2)),
          ("missing-subtraction", (1, 2)), ("multiplication", (1, 2)), ("division", (1,)),
          ("missing-multiplication", (1,))),
    _year("cycle3", "fr",
          ("addition", (2, 3)), ("subtraction", (2, 3)), ("missing-addition", (2, 3)),
          ("missing-subtraction", (2, 3)), ("multiplication", (2, 3, 4)),
          ("division", (1, 2, 3)), ("missing-multiplication", (2, 3)),
          ("missing-division", (1, 2, 3)), ("decimals-add", (1, 2, 3)),
          ("decimals-subtract", (1, 2, 3)), ("decimals-times-ten", (1, 2, 3)),
          ("decimals-multiply", (1, 2)), ("fractions-of", (1, 2)),
          ("fractions-simplify", (1,)), ("fractions-add", (1,)), ("percentages", (1, 2)),
          ("priority", (1,)), ("parentheses", (1,))),
    _year("cycle4", "fr",
          ("missing-multiplication", (3,)), ("missing-division", (3,)),
          ("squares", (1, 2)), ("priority", (1, 2)), ("parentheses", (1, 2)),
          ("decimals-multiply", (3,)), ("fractions-of", (3,)),
          ("fractions-simplify", (2, 3)), ("fractions-add", (2, 3)),
          ("fractions-subtract", (1, 2, 3)), ("percentages", (2, 3)),
          ("negatives-add", (1, 2, 3)), ("negatives-subtract", (1, 2, 3)),
          ("negatives-multiply", (1, 2, 3)), ("negatives-divide", (1, 2, 3)),
          ("negatives-priority", (1, 2, 3)), ("powers", (1, 2, 3)),
          ("square-roots", (1, 2, 3))),
    _year("cp", "fr",
          ("addition", (1,)), ("subtraction", (1,)), ("missing-addition", (1,))),
    _year("ce1", "fr",
          ("addition", (1, 2)), ("subtraction", (1, 2)), ("missing-addition", (1, 2)),
          ("missing-subtraction", (1,)), ("multiplication", (1,))),
    _year("ce2", "fr",
          ("addition", (2,)), ("subtraction", (2,)), ("missing-subtraction", (2,)),
          ("multiplication", (1, 2)), ("missing-multiplication", (1,)), ("division", (1,))),
    _year("cm1", "fr",
          ("addition", (3,)), ("subtraction", (3,)), ("multiplication", (2, 3)),
          ("division", (1, 2)), ("missing-multiplication", (2,)), ("missing-division", (1,)),
          ("decimals-add", (1,)), ("decimals-subtract", (1,)), ("decimals-times-ten", (1,)),
          ("fractions-of", (1,))),
    _year("cm2", "fr",
          ("multiplication", (3, 4)), ("division", (2, 3)), ("missing-division", (2,)),
          ("decimals-add", (2, 3)), ("decimals-subtract", (2, 3)),
          ("decimals-times-ten", (2,)), ("decimals-multiply", (1,)), ("fractions-of", (2,)),
          ("percentages", (1,))),
    _year("6e", "fr",
          ("missing-multiplication", (3,)), ("missing-division", (3,)),
          ("decimals-times-ten", (3,)), ("decimals-multiply", (2,)),
          ("fractions-simplify", (1,)), ("fractions-add", (1,)), ("fractions-of", (2,)),
          ("percentages", (1, 2)), ("priority", (1,)), ("parentheses", (1,))),
    _year("5e", "fr",
          ("squares", (1,)), ("priority", (2,)), ("parentheses", (2,)),
          ("decimals-multiply", (3,)), ("fractions-simplify", (2,)), ("fractions-add", (2,)),
          ("fractions-subtract", (1, 2)), ("percentages", (2,)),
          ("negatives-add", (1, 2)), ("negatives-subtract", (1, 2))),
    _year("4e", "fr",
          ("squares", (2,)), ("fractions-simplify", (3,)), ("fractions-add", (3,)),
          ("fractions-subtract", (3,)), ("percentages", (3,)), ("negatives-add", (3,)),
          ("negatives-subtract", (3,)), ("negatives-multiply", (1, 2, 3)),
          ("negatives-divide", (1, 2, 3)), ("negatives-priority", (1, 2)), ("powers", (1, 2))),
    _year("3e", "fr",
          ("fractions-of", (3,)), ("percentages", (3,)), ("negatives-priority", (3,)),
          ("powers", (2, 3)), ("square-roots", (1, 2, 3))),
    _year("grade1", "us",
          ("addition", (1,)), ("subtraction", (1,)), ("missing-addition", (1,)),
          ("missing-subtraction", (1,))),
    _year("grade2", "us",
          ("addition", (1, 2)), ("subtraction", (1, 2)), ("missing-addition", (1, 2)),
          ("missing-subtraction", (1, 2))),
    _year("grade3", "us",
          ("addition", (2, 3)), ("subtraction", (2, 3)), ("multiplication", (1, 2)),
          ("division", (1,)), ("missing-multiplication", (1, 2)),
          ("missing-division", (1, 2))),
    _year("grade4", "us",
          ("multiplication", (2, 3, 4)), ("division", (1, 2, 3)),
          ("missing-multiplication", (3,)), ("missing-division", (3,)),
          ("fractions-add", (1,)), ("fractions-subtract", (1,)), ("fractions-of", (1,)),
          ("decimals-times-ten", (1,))),
    _year("grade5", "us",
          ("decimals-add", (1, 2, 3)), ("decimals-subtract", (1, 2, 3)),
          ("decimals-times-ten", (1, 2, 3)), ("decimals-multiply", (1, 2)),
          ("fractions-simplify", (1,)), ("fractions-add", (2, 3)),
          ("fractions-subtract", (2, 3)), ("fractions-of", (2,)), ("priority", (1,)),
          ("parentheses", (1,))),
    _year("grade6", "us",
          ("decimals-multiply", (3,)), ("fractions-simplify", (2,)), ("fractions-of", (3,)),
          ("percentages", (1, 2, 3)), ("squares", (1,)), ("powers", (1, 2)),
          ("priority", (2,)), ("parentheses", (2,))),
    _year("grade7", "us",
          ("negatives-add", (1, 2, 3)), ("negatives-subtract", (1, 2, 3)),
          ("negatives-multiply", (1, 2)), ("negatives-divide", (1, 2)),
          ("negatives-priority", (1, 2)), ("fractions-simplify", (3,)),
          ("fractions-add", (3,)), ("fractions-subtract", (3,)), ("percentages", (2, 3))),
    _year("grade8", "us",
          ("squares", (2,)), ("powers", (2, 3)), ("square-roots", (1, 2, 3)),
          ("negatives-multiply", (3,)), ("negatives-divide", (3,)),
          ("negatives-priority", (3,))),
)}


def check_year(year: Any) -> SchoolYear:
    """The school year of that id, or a domain error naming them."""
    found = YEARS.get(year) if isinstance(year, str) else None
    if found is None:
        raise DomainError("focus.unknown_school_year",
                          f"there is no school year {year!r}: {', '.join(YEARS)}", year=year)
    return found


def ladder(year: str) -> tuple[SkillRef, ...]:
    """The year's skill levels, easiest first: by tier, then in the year's order."""
    found = check_year(year)
    refs = [(skill, n) for skill, levels in found.skills for n in levels]
    order = {ref: i for i, ref in enumerate(refs)}
    return tuple(sorted(refs, key=lambda ref: (SKILLS[ref[0]].level(ref[1]).tier, order[ref])))


def pool(year: str, level: int) -> tuple[SkillRef, ...]:
    """What a round at Focus level ``level`` of ``year`` draws from: the ``level``-th of eight
    consecutive shares of the year's ladder (at least one skill level each)."""
    check_level(level)
    refs = ladder(year)
    n, size = len(refs), MAX_LEVEL - MIN_LEVEL + 1
    start = (level - MIN_LEVEL) * n // size
    end = max(start + 1, (level - MIN_LEVEL + 1) * n // size)
    return refs[start:end]


# --- a round for every year and level ----------------------------------------------------------

#: How many different questions a skill level can give, as a sample of this many draws (seeded,
#: so the same on every machine) finds them: a lower bound, exact for the small ones.
_CAPACITY_SAMPLE = 400
#: A pool is wide enough for ``count`` questions when it holds this many times as many: drawing
#: from a pool barely as large as the round would make the round slow to draw and always the same.
_SLACK = 2
#: No round asks more than this many different questions of a pool (``MAX_COUNT`` with its
#: slack): a skill level known to give that many needs no longer sample.
_ENOUGH = MAX_COUNT * _SLACK


@cache
def capacity(ref: SkillRef) -> int:
    """The different questions that (skill, skill level) ``ref`` gives (a seeded sample), up to
    ``_ENOUGH``: more never changes a pool (``round_pool`` compares sums with at most that).

    Measured once per process, lazily: the first round of a year after a restart pays for its
    skill levels (about 1 ms each; all 79 of every year in some 0.1 s), every later draw reads
    the cache. Sampling stops at ``_ENOUGH`` different questions, which most skill levels reach
    in about a hundred draws (the whole sample is drawn only for the small ones, which it
    then counts exactly)."""
    skill, number = ref
    build = SKILLS[skill].level(number).build
    rng = random.Random(f"capacity:{skill}:{number}")
    seen: set[str] = set()
    for _ in range(_CAPACITY_SAMPLE):
        seen.add(build(rng).ascii)
        if len(seen) >= _ENOUGH:
            break
    return len(seen)


def year_refs(year: str | None, skills: Sequence[str] | None = None
              ) -> tuple[SkillRef, ...]:
    """The year's ladder (``ladder``), or only ``skills`` of it, easiest first. A skill the year
    does not practise brings all its levels (a teacher may ask for it on purpose); without a
    year (``None``), every skill of ``skills`` brings all its levels."""
    refs = () if year is None else ladder(year)
    if not skills:
        if year is None:
            raise ValueError("nothing to draw from: no year and no skills")
        return refs
    wanted = [check_skill(s).id for s in skills]
    kept = tuple(ref for ref in refs if ref[0] in wanted)
    outside = [s for s in wanted if all(ref[0] != s for ref in refs)]
    extra = tuple((s, lv.number) for s in outside for lv in SKILLS[s].levels)
    return tuple(sorted(kept + extra, key=lambda ref: (SKILLS[ref[0]].level(ref[1]).tier,
                                                        wanted.index(ref[0]))))


def round_pool(refs: Sequence[SkillRef], level: int, count: int) -> tuple[SkillRef, ...]:
    """What a round of ``count`` questions at Focus level ``level`` draws from ``refs`` (a
    ladder, easiest first): the ``level``-th of eight shares (``pool``), widened one neighbour at
    a time, alternately harder and easier, until it can give ``count`` different questions with
    room to spare. The student is told nothing: the round is a little wider, never refused."""
    check_level(level)
    n, size = len(refs), MAX_LEVEL - MIN_LEVEL + 1
    if n == 0:
        raise ValueError("nothing to draw from")
    start = (level - MIN_LEVEL) * n // size
    end = min(n, max(start + 1, (level - MIN_LEVEL + 1) * n // size))
    wanted = min(count * _SLACK, sum(capacity(ref) for ref in refs))
    up = True
    while sum(capacity(ref) for ref in refs[start:end]) < wanted:
        if (up and end < n) or start == 0:
            end += 1
        else:
            start -= 1
        up = not up
    return tuple(refs[start:end])


def draw_round(year: str | None, level: int, count: int, rng: random.Random,
               skills: Sequence[str] | None = None) -> list[Question]:
    """``count`` different questions that a round of ``year`` at Focus ``level`` asks (every
    kind of round: practice, the daily challenge, a live round, an assignment, a match's Focus),
    from the year's skills or only ``skills`` (all their levels without a year: a server
    without one may still ask for skills); the pool borrows from the neighbouring levels of
    the same year when its own share is too small (``round_pool``)."""
    refs = year_refs(year, skills)
    if skills and sum(capacity(ref) for ref in refs) < count * _SLACK:
        # The year's own levels of the skills asked are too few for the round (6e simplifies
        # only the easiest fractions; a live round asks 20): their other levels join, in order.
        refs = year_refs(year, skills) + tuple(
            (s, lv.number) for s in dict.fromkeys(check_skill(x).id for x in skills)
            for lv in SKILLS[s].levels if (s, lv.number) not in refs)
        refs = tuple(sorted(refs, key=lambda ref: SKILLS[ref[0]].level(ref[1]).tier))
    return draw(round_pool(refs, level, count), count, rng, level=level)
