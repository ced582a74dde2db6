"""Focus: arithmetic quizzes (questions by level, answer reading, rounds, the daily challenge,
live class rounds, the adaptive level, and the mastery per fact and skill with spaced review,
``bot.focus.mastery``, from which ``bot.focus.review`` chooses a practice round), and the skills
of the school years (``skills``: negatives, decimals, fractions, powers, percentages, missing
numbers; ``school``: which a school year practises and a round of any count for every year and
level; ``exact``: answers as ints or fractions, never floats), and the worked corrections
(``steps``: each skill's steps as exact data). A pure engine: no discord, no database, no images.

The rules it plays are in ``docs/rules/focus.md``.
"""

from bot.focus.adaptive import Advice, next_level
from bot.focus.answers import read_answer, read_exact, read_for
from bot.focus.daily import DailyChallenge, DailyStanding, Streak, daily_questions
from bot.focus.live import LIVE_FORMAT, LiveAnswer, LiveRound, LiveStanding, live_points
from bot.focus.questions import (
    LEVELS,
    MAX_LEVEL,
    MIN_LEVEL,
    ROUND_SIZE,
    TOPICS,
    Question,
    generate_for_levels,
    generate_questions,
    level_for_match_round,
)
from bot.focus.round import ROUND_FORMAT, Answer, FocusRound
from bot.focus.school import YEARS
from bot.focus.skills import SKILLS, Skill, generate_skill

__all__ = [
    "LEVELS",
    "LIVE_FORMAT",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "ROUND_FORMAT",
    "ROUND_SIZE",
    "SKILLS",
    "TOPICS",
    "YEARS",
    "Advice",
    "Answer",
    "DailyChallenge",
    "DailyStanding",
    "FocusRound",
    "LiveAnswer",
    "LiveRound",
    "LiveStanding",
    "Question",
    "Skill",
    "Streak",
    "daily_questions",
    "generate_for_levels",
    "generate_questions",
    "generate_skill",
    "level_for_match_round",
    "live_points",
    "next_level",
    "read_answer",
    "read_exact",
    "read_for",
]
