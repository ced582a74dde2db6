"""French typography by rule (bot.texts.typography), dates and times the French way, and a check
over every text of the catalogue in both languages, the pictures' words and the examples the
issue quoted (issue 29)."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from typing import Any

import pytest

from bot.texts import (
    COMMANDS_PREFIX,
    NBSP,
    NNBSP,
    catalogues,
    date_text,
    image_words,
    moment_text,
    placeholders,
    plural_groups,
    t,
    time_text,
    typography,
)
from images.progress import progress_image
from tests.french_check import faults

# --- The rule itself --------------------------------------------------------------------------


@pytest.mark.parametrize("plain,typeset", [
    ("Bravo ! Et toi ?", f"Bravo{NNBSP}! Et toi{NNBSP}?"),
    ("Réglages : niveau 2 ; temps normal", f"Réglages{NBSP}: niveau 2{NNBSP}; temps normal"),
    ("Pour les professeurs: `/progrès membre:`", f"Pour les professeurs{NBSP}: `/progrès membre:`"),
    ("« Moitiés »", f"«{NNBSP}Moitiés{NNBSP}»"),
    ("«Moitiés»", f"«{NNBSP}Moitiés{NNBSP}»"),
    ("**Juste !**", f"**Juste{NNBSP}!**"),
    ("**Ana**!", f"**Ana**{NNBSP}!"),
    ("Le double de 1 250", f"Le double de 1{NNBSP}250"),
    ("12 000 000 et 2026", f"12{NNBSP}000{NNBSP}000 et 2026"),
    ("50 % ou 3%", f"50{NBSP}% ou 3{NBSP}%"),
    ("la partie n° {match} à {hour} h", f"la partie n°{NBSP}{{match}} à {{hour}}{NBSP}h"),
    ("Voulais-tu dire ?!", f"Voulais-tu dire{NNBSP}?!"),
])
def test_french_is_typeset_by_rule(plain, typeset):
    assert typography(plain, "fr") == typeset
    assert typography(typeset, "fr") == typeset  # twice is once
    assert typography(plain, "en") == plain  # English keeps its own


@pytest.mark.parametrize("kept", [
    "`/rithmomachie jouer tour:xd7`", "<t:1796162400:R>", "<@123> <#456> <@&789>",
    "</focus jouer:1234567890>", "<:ardoise:1234>", ":white_check_mark:", "à 18:00",
    "https://example.org/page?x=1&y=2", "{value:>3}", "```\na : b ?\n```", "série:{name}",
    "(?)", "12 ÷ 4", "Ligne 1 2345",
])
def test_code_urls_discord_syntax_and_placeholders_are_left_as_they_are(kept):
    assert typography(kept, "fr") == kept


def test_every_french_text_the_catalogue_gives_is_typeset_and_numbers_are_french():
    assert t("digits_leave.end.resigned", "fr", name="Zoé", match=1042, winner="Hugo") == (
        f"🏳️ Zoé a abandonné la partie n°{NBSP}1042{NBSP}: Hugo gagne.")  # a number: no group
    assert t("images.counts.answers", "fr", count=1250) == f"1{NNBSP}250 réponses"
    assert t("images.counts.answers", "fr", count=0.5) == "0,5 réponse"
    assert t("images.counts.answers", "en", count=1250) == "1250 answers"  # English unchanged


def test_the_pictures_words_and_command_descriptions_are_typeset_too():
    words = image_words("fr")
    assert NNBSP in words("tier", n=1) or ":" not in words("tier", n=1)
    for key, text in catalogues().texts["fr"].items():
        if key.startswith("images.") and not placeholders(text):
            assert words(key[len("images."):]) == typography(text, "fr")


# --- Dates and times --------------------------------------------------------------------------


def test_the_first_of_a_month_is_an_ordinal_in_french_in_every_pattern():
    first, later = dt.date(2026, 12, 1), dt.date(2026, 11, 25)
    assert date_text(first, "fr") == "1er décembre 2026"
    assert date_text(first, "fr", "d MMM y") == "1er déc. 2026"
    assert date_text(first, "fr", "d MMM") == "1er déc."
    assert date_text(first, "fr", "EEEE d MMMM y") == "mardi 1er décembre 2026"
    assert date_text(later, "fr", "d MMM") == "25 nov."
    assert date_text(first, "en") == "1 December 2026"
    assert image_words("fr").date(first, "d MMM y") == "1er déc. 2026"


def test_times_are_said_18_h_and_18_h_30_in_french():
    assert time_text(dt.time(18, 0), "fr") == f"18{NBSP}h"
    assert time_text(dt.time(18, 30), "fr") == f"18{NBSP}h{NBSP}30"
    assert time_text(dt.time(8, 5), "fr") == f"8{NBSP}h{NBSP}05"
    assert time_text(dt.time(18, 30), "en") == "18:30"
    assert moment_text(dt.datetime(2026, 12, 1, 18, 0), "fr") == (
        f"mardi 1er décembre 2026 à 18{NBSP}h")
    assert moment_text(dt.datetime(2026, 12, 8, 9, 30), "en") == "Tuesday 8 December 2026 at 09:30"


# --- The check over every text ------------------------------------------------------------------

GIRLS = ("Zoé", "Ève", "Léa", "Inès")
BOYS = ("Hugo", "Yann", "Adam", "Élie")
#: Placeholders that hold a member's name (or a side's).
NAMES = {"name", "player", "winner", "loser", "opponent", "challenger", "challenged",
         "author", "offerer", "picker", "teacher", "white", "black", "ally", "whom", "by",
         "names", "players", "left", "right", "other", "student"}
#: Placeholders that hold a number.
NUMBERS = {"count", "level", "round", "digit", "max", "size", "cell", "n", "high", "low",
           "slot", "lives", "best", "gold", "last", "score", "exchanges", "current", "games",
           "targets", "min", "weeks", "minutes", "total", "points", "digits", "solved", "rank",
           "seconds", "answers", "pages", "page", "cost", "days", "squares", "answered",
           "percent", "tier", "hours", "hour", "offers", "students", "rounds", "slots",
           "threshold", "turns", "played", "levels", "cells", "length", "number", "battles",
           "distinct", "losses", "questions", "times", "targets_2", "parts", "wins", "draws",
           "k", "n1", "n2", "n3", "row", "column", "income", "damage", "reroll", "sell",
           "tiers", "place", "mastered", "facts", "rows", "limit", "turn", "game", "match",
           "year", "line", "value", "v", "a", "b", "x", "y", "z", "expected", "given",
           "left_lives", "right_lives", "left_digits", "right_digits", "white_count",
           "black_count", "base", "reach", "support", "mean", "median", "rating", "rd",
           "delta", "exp", "correct", "wrong", "shown", "drawn", "lost", "won", "cards",
           "victories", "simulated", "step", "period", "root", "second", "first", "share"}
FIRST = dt.date(2026, 12, 1)


def sample(name: str, case: int, lang: str = "fr") -> Any:
    """A value for ``{name}``: a girl's or a boy's name, 1, 2, 1 250 or 0,5, a first of the
    month, or a word."""
    if name in NAMES:
        return (GIRLS if case % 2 == 0 else BOYS)[case % 4]
    if name in NUMBERS:
        return (1, 2, 1250, 0.5)[case] if name == "count" else (1, 2, 1250, 2)[case]
    if name in {"day", "date", "due", "deadline", "when", "until", "started", "today", "now"}:
        return date_text(FIRST, lang)
    if name in {"channel"}:
        return "<#123>"
    if name in {"role", "roles"}:
        return "<@&456>"
    return "mot"


def rendered(lang: str) -> list[tuple[str, str, bool]]:
    """Every catalogue text of ``lang`` as the bot sends it, with four sets of sample values:
    (key, text, whether the text speaks to one member)."""
    texts = catalogues().texts[lang]
    plural = plural_groups()
    out: list[tuple[str, str, bool]] = []
    said: set[str] = set()
    for key, text in texts.items():
        if key.startswith(COMMANDS_PREFIX):
            out.append((key, typography(text, lang), True))
            continue
        base = key.rsplit(".", 1)[0]
        if base in plural:
            if base in said:
                continue
            said.add(base)
            names = set().union(*(placeholders(v) for k, v in texts.items()
                                  if k.startswith(base + ".") and k.count(".") == key.count(".")))
            for case in range(4):
                params = {p: sample(p, case, lang) for p in names - {"count"}}
                count = sample("count", case)
                out.append((base, t(base, lang, count=count, **params), count == 1))
            continue
        for case in range(4):
            out.append((key, t(key, lang, **{p: sample(p, case, lang)
                                             for p in placeholders(text)}), True))
    return out


def test_every_french_text_follows_the_rules():
    found = {}
    for key, text, to_one in rendered("fr"):
        wrong = faults(text, "fr")
        if not to_one:  # a text for several players may say vous to them
            wrong = [f for f in wrong if not f.startswith("vous")]
        if wrong:
            found.setdefault(key, wrong)
    assert found == {}


def test_every_english_text_follows_the_rules():
    found = {key: wrong for key, text, _ in rendered("en") if (wrong := faults(text, "en"))}
    assert found == {}


#: The examples the issue quoted, as the bot sent them: each must fail the check.
ISSUE_EXAMPLES = [
    "Pour les professeurs: `/progrès membre:`",
    "Pour les professeurs : voir /progrès",  # an ordinary space before « : »
    "Du 25 nov. au 1 déc. 2026",
    "Énigme du jour · 1 décembre 2026",
    "1 déc. 2026",
    "Le devoir est à rendre mardi 8 décembre 2026 à 18:00",
    "Le double de 1 250 = 2500",
    "La moitié de 3 = 1.5",
    f"La manche 2 commence{NBSP}: faites votre Focus{NNBSP}!",
    "Enregistre-le de nouveau en CSV depuis votre tableur.",
    f"Zoe{NBSP}: ses réglages à lui",
    f"Son entraînement puise dans les compétences de son année scolaire à lui{NBSP}: 5e.",
    "Trouve la pièce la plus précieuse que tu peux prendre ce tour-ci.",
    f"La pièce la plus précieuse à prendre était T81 en d14{NBSP}:",
    f"Abandonner la n°{NBSP}1 contre les fantômes",
    f"Victoire propre médiocre{NBSP}: la pyramide adverse prise",
    "son temps n'est pas comparé (il est classé avec le plus rapide de son score)",
    "le carré avance d'exactement trois cases ou saute un et trois.",
    "Impair — rang 1",
    "quitte-la avec /rithmomachie abandon dans son salon",
    f"❌ 12 ×{NNBSP}? = 96 = 8 (tu as tapé 0)",
]


@pytest.mark.parametrize("example", ISSUE_EXAMPLES)
def test_the_check_fails_on_each_example_of_the_issue(example):
    assert faults(example, "fr")


@pytest.mark.parametrize("example", ["2 answers2 answers", "Only teachers : this"])
def test_the_english_check_fails_on_the_issues_examples(example):
    assert faults(example, "en")


def test_a_solo_match_is_won_by_the_ghosts_in_every_sentence():
    asked = t("digits_leave.resign.ask_solo", "fr", match=1, round=2)
    done = t("digits_leave.end.resigned_solo", "fr", name="Zoé", match=1)
    assert "fantômes" in asked and "fantômes" in done and "ombre" not in asked.lower()
    assert "ghosts" in t("digits_leave.resign.ask_solo", "en", match=1, round=2)


def test_help_and_progress_say_what_progress_shows_with_the_same_words():
    member = catalogues().get("meta.help.options.progress.member", "fr")
    described = catalogues().get("commands.progress.description", "fr")
    assert member is not None and described is not None
    assert "cotes" in member and "cotes" in described and "classements" not in member


# --- The pictures' words ----------------------------------------------------------------------

TOPICS = ("addition", "subtraction", "multiplication", "division", "squares", "priority",
          "parentheses", "missing", "negatives", "decimals", "fractions", "percentages",
          "powers")


def chart_records(points: int, days: int) -> list[dict[str, Any]]:
    rng = random.Random(points * 31 + days)
    return [{"date": dt.date(2026, 11, 1) + dt.timedelta(days=i % days),
             "topic": TOPICS[i % len(TOPICS)], "correct": rng.randint(0, 2), "total": 2}
            for i in range(points)]


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("points,days", [(1, 1), (2, 1), (2, 2), (30, 1), (30, 2), (30, 3),
                                         (30, 30)])
def test_the_progress_charts_labels_never_overlap_and_say_their_unit(lang, points, days):
    boxes: list[tuple[str, tuple[float, float, float, float]]] = []
    progress_image(chart_records(points, days), image_words(lang), boxes=boxes)
    assert boxes
    touching = [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2)
                if overlap(a[1], b[1])]
    assert touching == []
    assert all(not re.fullmatch(r"[\d\s\u202f]+", text) for text, _ in boxes), boxes  # a unit
    for text, _ in boxes:
        assert faults(text, lang, wording=False) == [], text


def test_the_label_check_sees_two_labels_run_together():
    a, b = (10.0, 10.0, 60.0, 20.0), (59.0, 10.0, 100.0, 20.0)
    assert overlap(a, b) and not overlap(a, (61.0, 10.0, 100.0, 20.0))


def test_a_missing_number_is_corrected_without_an_equation_said_twice():
    said = t("focus_steps.wrong_missing", "fr", question="12 × ? = 96", expected=8, given=0)
    assert faults(said, "fr") == [], said
    assert faults(t("focus.run.wrong", "fr", question="12 × ? = 96", expected=8, given=0), "fr")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("played", [1, 2, 30])
def test_the_streak_calendars_labels_never_overlap(lang, played):
    from images.progress import streak_image

    today = dt.date(2026, 12, 1)
    days = [today - dt.timedelta(days=2 * k) for k in range(played)]
    for first_day in (None, today - dt.timedelta(days=4), dt.date(2026, 10, 29)):
        boxes: list[tuple[str, tuple[float, float, float, float]]] = []
        streak_image(days, 1, today, image_words(lang), first_day=first_day, boxes=boxes)
        touching = [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2)
                    if overlap(a[1], b[1])]
        assert touching == []
        for text, _ in boxes:
            assert faults(text, lang, wording=False) == [], text


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("count", [1, 2, 30])
def test_the_leaderboards_labels_never_overlap(lang, count):
    from images.progress import leaderboard_image

    rows = [{"rank": k + 1, "name": (GIRLS + BOYS)[k % 8] * (1 + k % 5), "score": 6 - k % 7,
             "time": 12.5 + 7 * k} for k in range(count)]
    for title in (None, "Classement du défi du jour de la classe de 5e B, semaine 49 " * 2):
        boxes: list[tuple[str, tuple[float, float, float, float]]] = []
        leaderboard_image(rows, image_words(lang), title=title, date=FIRST, highlight=count,
                          limit=10, out_of=6, boxes=boxes)
        touching = [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2)
                    if overlap(a[1], b[1])]
        assert touching == []
        for text, _ in boxes:
            assert faults(text, lang, wording=False) == [], text


def test_a_time_over_a_minute_reads_as_a_duration_in_french():
    from images.progress import format_time

    assert format_time(63, image_words("fr")) == "1 min 03,0 s"
    assert format_time(63, image_words("en")) == "1:03.0"


def test_the_rule_agrees_with_babel_on_numbers_and_percentages():
    from babel.numbers import get_decimal_symbol, get_group_symbol

    from bot.texts import number, percent

    assert get_group_symbol("fr") == NNBSP  # CLDR's French groups of digits
    assert get_decimal_symbol("fr") == ","
    assert typography("1 250 et 50 %", "fr") == f"{number(1250, 'fr')} et {percent(0.5, 'fr')}"


def test_the_issues_double_of_1_250_reads_with_its_groups_kept_together():
    from fractions import Fraction

    from bot.ui.focus_run import shown_question, value_text

    question = shown_question("Le double de 1 250", "fr")
    said = t("focus.run.wrong", "fr", question=question,
             expected=value_text(2500, "whole", "fr"), given=value_text(2400, "whole", "fr"))
    assert said == f"❌ Le double de 1{NNBSP}250 = 2{NNBSP}500 (tu as tapé 2{NNBSP}400)."
    assert faults(said, "fr") == []
    assert faults("❌ Le double de 1 250 = 2500 (tu as tapé 2400).", "fr")
    assert value_text(Fraction(12345, 100), "decimal", "fr") == "123,45"
    assert value_text(2500, "whole", "en") == "2500"  # English as it was
