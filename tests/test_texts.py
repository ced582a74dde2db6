"""One catalogue, CLDR rules: plural forms by Babel's categories, numbers, percentages and dates
from Babel, and pictures that are handed their words instead of reading a catalogue."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from bot.i18n import (
    catalogues,
    date_text,
    decimal,
    image_words,
    month_name,
    number,
    percent,
    plural_categories,
    plural_form,
    plural_groups,
    t,
    weekday_name,
)
from bot.ui.focus import date_text as focus_date

ROOT = Path(__file__).resolve().parent.parent
NNBSP, NBSP = "\u202f", "\u00a0"


def test_every_plural_key_has_exactly_the_cldr_forms_of_each_language():
    groups = plural_groups()
    assert {"digits.lives", "focus.daily.streak", "images.counts.days", "rithmo.menu.moves",
            "progress.answers_value"} <= groups
    for lang, texts in catalogues().texts.items():
        needed = plural_categories(lang)
        for group in groups:
            forms = {k.rpartition(".")[2] for k in texts if k.rpartition(".")[0] == group}
            assert forms == needed, (lang, group, forms)
    assert plural_categories("en") == {"one", "other"}
    assert plural_categories("fr") == {"one", "many", "other"}


@pytest.mark.parametrize("n,en,fr", [(0, "0 lives", "0 vie"), (1, "1 life", "1 vie"),
                                     (2, "2 lives", "2 vies"),
                                     (1_000_000, "1000000 lives", "1\u202f000\u202f000 de vies")])
def test_one_function_picks_the_plural_form_cldr_gives(n: int, en: str, fr: str):
    assert t("digits.lives", "en", count=n) == en
    assert t("digits.lives", "fr", count=n) == fr
    assert image_words("fr").count("lives", n) == fr  # the pictures say it the same way
    assert plural_form(n, "fr") == ("one" if n < 2 else "many" if n == 1_000_000 else "other")


def test_count_on_a_key_without_forms_only_fills_the_placeholder():
    assert t("errors.limits.digits_solo", "en", count=1, games="#1").startswith(
        "You already have 1 solo matches open")  # said at the cap (3), never for 1


def test_numbers_decimals_and_percentages_in_english_and_french():
    assert number(12345, "en") == "12,345" and number(12345, "fr") == f"12{NNBSP}345"
    assert number(1.5, "fr") == "1,5" and number(24.0, "en") == "24"
    assert decimal(3.25, "en") == "3.2" and decimal(41.2, "fr") == "41,2"
    assert decimal(3, "fr", 1, whole_digits=2) == "03,0"
    assert percent(0.96, "en") == "96%"
    assert percent(0.96, "fr") == f"96{NBSP}%"  # CLDR's French: a no-break space before %


def test_dates_months_and_weekdays_come_from_cldr():
    day = dt.date(2026, 11, 30)
    assert date_text(day, "en") == "30 November 2026"
    assert date_text(day, "fr") == "30 novembre 2026"
    assert month_name(12, "fr") == "décembre" and month_name(11, "en", "abbreviated") == "Nov"
    assert weekday_name(0, "en") == "Mon" and weekday_name(6, "fr") == "dim."
    assert focus_date(dt.date(2026, 12, 1), "fr") == "1er décembre 2026"
    assert focus_date(dt.date(2026, 12, 1), "en") == "1 December 2026"
    words = image_words("fr")
    assert words.date(day, "d MMM y") == "30 nov. 2026" and words.month(2) == "févr."


def test_pictures_say_the_catalogues_words_and_topics():
    en, fr = image_words("en"), image_words("fr")
    assert en("to_move", side=en("white_side")) == "White (Even) to move"
    assert fr("best", days=fr.count("days", 0)) == "Record\u00a0: 0 jour"  # typeset
    assert en.topic("priority") == t("focus.topics.priority", "en")  # one list of topic names
    assert en.topic("new_topic") == "new topic"
    assert en.percent(0.25) == "25%" and fr.decimal(12.0) == "12,0"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_images_read_no_catalogue_and_no_language_library():
    product = [p for p in (ROOT / "images").glob("*.py") if p.stem not in ("bench", "samples")]
    assert product
    for path in product:
        bad = {m for m in _imports(path)
               if m.split(".")[0] in ("babel", "cogs", "discord", "db") or m == "bot.i18n"}
        assert bad == set(), path.name
    assert not (ROOT / "images" / "texts.py").exists()


def test_no_decimal_comma_or_percent_sign_is_written_by_hand():
    sources = [p for d in ("bot", "cogs", "images", "db") for p in (ROOT / d).rglob("*.py")]
    hand_written = [p.relative_to(ROOT).as_posix() for p in sources
                    if 'replace(".", ",")' in (text := p.read_text(encoding="utf-8"))
                    or '"," if' in text or "} %\"" in text]
    assert hand_written == []
    for lang in ("en", "fr"):
        texts = catalogues().texts[lang]
        assert [k for k, v in texts.items() if "} %" in v or "}%" in v] == [], lang


def test_the_plurals_that_were_wrong_now_agree_with_their_count():
    # "1 moves", "1 answers": these texts had one form for every count.
    assert t("rithmo.menu.moves", "en", count=1) == "1 move"
    assert t("rithmo.menu.drop_squares", "fr", count=1) == "1 case libre sur ta première rangée"
    assert t("progress.answers_value", "en", count=1, weeks=12, percent="100%") == (
        "1 answer in the last 12 weeks, 100% right")
    assert t("progress.answers_value", "fr", count=1, weeks=12, percent=percent(1, "fr")) == (
        f"1 réponse ces 12 dernières semaines, 100{NBSP}% juste")


def test_a_text_kept_per_load_is_worked_out_once_and_again_after_a_reload() -> None:
    from bot import texts

    worked: list[str] = []

    @texts.kept_per_load
    def said(key: str, lang: str) -> str:
        worked.append(key)
        return t(key, lang)

    assert said("focus.run.answer", "fr") == t("focus.run.answer", "fr")
    assert said("focus.run.answer", "fr") == t("focus.run.answer", "fr")
    assert said("focus.run.answer", "en") == t("focus.run.answer", "en")
    assert worked == ["focus.run.answer"] * 2  # once a language
    texts.reload()  # a catalogue loaded again may say it otherwise: worked out again
    said("focus.run.answer", "fr")
    assert worked == ["focus.run.answer"] * 3
    assert said("focus.run.answer", lang="fr") == t("focus.run.answer", "fr")  # by keyword too
    assert said("focus.run.answer", lang="fr") == t("focus.run.answer", "fr")
    assert len(worked) == 4


def test_a_corrections_worked_steps_are_the_same_said_again() -> None:
    from bot.corrections import worked_line

    first = worked_line("order", "2 + 3 × 4", 14, "fr")
    assert first and worked_line("order", "2 + 3 × 4", 14, "fr") == first
    assert worked_line("order", "2 + 3 × 4", 14, "en") != first
