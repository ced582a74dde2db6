"""Readable everywhere (issue 26): every Focus skill and each of its levels has a name in both
languages, and no skill id (``fractions-of``, ``negatives-add``) reaches a member: not in the
catalogues, not in the words the pictures draw (the mastery map, the progress chart, the class
report), not in ``/progress`` nor ``/class report`` (texts, pictures, CSV) of a member who
practised every skill on a cycle 4 server. The Focus window's footer names the level of the
question's own skill, and the class report shows each skill's mastery within its topic."""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

import images
from bot.focus import Question, generate_questions
from bot.focus.exact import json_answer
from bot.focus.mastery import SKILL, Item, Mastery, map_data, skill_item
from bot.focus.school import draw_round, ladder
from bot.focus.skills import SKILLS, check_skill, level_of
from bot.play.class_report import Answered, build, own_skill, report_csv, topic_skills
from bot.texts import catalogues, image_words, skill_level_name, skill_name, t
from bot.ui import class_report as report_ui
from bot.ui.focus_run import question_level_text
from db import FocusAnswer
from db.class_report import StudentTally, tally_of_times
from db.mastery import SkillLevel
from images import style
from tests.french import fr

LANGS = ("en", "fr")
#: The ids that are no word of either language: none may be read anywhere.
HYPHENATED = tuple(s for s in SKILLS if "-" in s)
#: French reads no English id either (``addition``, ``division`` and ``multiplication`` are
#: French words too).
FRENCH_WORDS = {"addition", "division", "multiplication"}


def ids_in(text: str, lang: str) -> set[str]:
    """The skill ids ``text`` holds as words (a hyphenated id in any language; in French, also
    the eight levels' English ids)."""
    ids = HYPHENATED if lang == "en" else tuple(s for s in SKILLS if s not in FRENCH_WORDS)
    found = re.findall(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])", text)
    return set(found)


@contextmanager
def drawn() -> Iterator[list[str]]:
    """Every text the pictures draw meanwhile (``images.style.text`` is the one place that draws
    a text; the pictures run in threads of this process)."""
    seen: list[str] = []
    original = style.text

    def recording(draw: Any, xy: Any, s: str, *args: Any, **kwargs: Any) -> None:
        seen.append(s)
        original(draw, xy, s, *args, **kwargs)

    style.text = recording  # type: ignore[assignment]
    try:
        yield seen
    finally:
        style.text = original  # type: ignore[assignment]


# --- The names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_skill_and_each_of_its_levels_has_a_name(lang: str) -> None:
    for skill in SKILLS.values():
        assert catalogues().has(f"focus.skills.{skill.id}", lang), skill.id
        name = skill_name(skill.id, lang)
        assert name and ids_in(name, lang) == set(), (skill.id, name)
        for level in skill.levels:
            key = f"focus.skill_levels.{skill.id}.{level.number}"
            assert catalogues().has(key, lang), key
            assert skill_level_name(skill.id, level.number, lang) == t(key, lang)
            if lang == "en":  # the engine's own names (the command line, the docs) are these
                assert t(key, lang) == level.name
    assert skill_name("fractions-of", "en") == "a fraction of a number"
    assert skill_name("fractions-of", "fr") == "fraction d'un nombre"
    # French writes its decimals with a comma in a level's name too.
    assert skill_level_name("decimals-multiply", 1, "fr") == "0,a × un nombre entier"
    # A topic and a skill sharing an id keep their own names.
    assert image_words("en").topic("powers") == "powers and roots"
    assert image_words("en").skill("powers") == "powers"
    # No level of another's: a skill's own name.
    assert skill_level_name("fractions-of", 9, "en") == "a fraction of a number"


def test_no_catalogue_text_holds_a_skill_id() -> None:
    # A placeholder's name ("{squares}") is no text a member reads.
    said = {(lang, key): re.sub(r"\{[^{}]*\}", "", text) for lang in LANGS
            for key, text in catalogues().texts[lang].items()}
    found = {where: ids_in(text, where[0]) for where, text in said.items()
             if ids_in(text, where[0])}
    # The French names of the eight levels' skills are words of their own (« soustraction »).
    assert found == {}
    assert ids_in("fractions-of, level 2: proficient", "en") == {"fractions-of"}
    assert ids_in("négatifs: negatives-add; squares", "fr") == {"negatives-add", "squares"}
    assert ids_in("addition de décimaux", "fr") == set()


# --- The footer ---------------------------------------------------------------------------------


def test_the_footer_names_the_level_of_the_question_s_own_skill() -> None:
    # Level 1 of cycle 4 asks squares and negatives: none of it is "Sums within 20".
    rng = random.Random(3)
    for question in draw_round("cycle4", 1, 6, rng):
        skill = check_skill(question.skill)
        found = level_of(question)
        assert found is not None and found in skill.levels
        assert question.skill_level == found.number
        for lang in LANGS:
            text = question_level_text(question, lang)
            assert text == t("focus.level_line", lang, level=1,
                             name=skill_level_name(skill.id, found.number, lang))
            assert "Sums within 20" not in text and "Sommes jusqu'à 20" not in text
    square = Question("12 × 12", "12 * 12", 144, "squares", 1, skill="squares", skill_level=1)
    assert question_level_text(square, "en") == "Level 1 · Squares of 2 to 15"
    assert question_level_text(square, "fr") == "Niveau 1 · Carrés de 2 à 15"
    # "5 × 6 − 8" of the two steps is not "Two steps with parentheses" at level 7.
    priority = Question("5 × 6 − 8", "5 * 6 - 8", 22, "priority", 7, skill="priority",
                        skill_level=1)
    assert question_level_text(priority, "fr") == fr("Niveau 7 · Deux étapes : × et ÷ avant + et −")
    # A question of the eight levels: its topic's level where its Focus level falls.
    for level in range(1, 9):
        for question in generate_questions(level, 6, random.Random(level)):
            found = level_of(question)
            assert found is not None and found.tier <= level
            assert question_level_text(question, "en").startswith(f"Level {level} · ")
    # The skill level travels with a round's JSON (a round resumed after a restart).
    [drawn_one] = draw_round("5e", 3, 1, random.Random(1))
    assert Question.from_json(drawn_one.to_json()) == drawn_one
    old = {"text": "7 + 8", "ascii": "7 + 8", "answer": 15, "topic": "addition", "level": 1}
    assert Question.from_json(old).skill_level == 0 and "skill_level" not in \
        Question.from_json(old).to_json()
    # A teacher's question has no skill of the engine's: its own words.
    own = Question("3 × 4", "3 * 4", 12, "Times tables", 1)
    assert level_of(own) is None


# --- The pictures' words ------------------------------------------------------------------------

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)


def every_skill_model() -> Mastery:
    """A member with a mastery in every level of every skill (four states in turn)."""
    items = []
    for n, skill in enumerate(SKILLS.values()):
        for level in skill.levels:
            items.append(Item(SKILL, skill_item(skill.id, level.tier), 1 + (n + level.number) % 4,
                              1, "f", 3, 2, 1, NOW, NOW))
    return Mastery(items)


@pytest.mark.parametrize("lang", LANGS)
def test_the_mastery_map_draws_every_skill_by_its_name(lang: str) -> None:
    data = map_data(every_skill_model(), NOW)
    assert [s["skill"] for s in data["skills"]] == list(SKILLS)  # the engine's order
    with drawn() as seen:
        images.render_mastery({**data, "title": "Ana"}, image_words(lang))
    words = "\n".join(seen)
    assert ids_in(words, lang) == set()
    state = t("images.mastery.proficient", lang)
    assert any(line.startswith(skill_name("fractions-of", lang)) for line in seen)
    assert any(state in line for line in seen)


def every_skill_report(lang: str) -> Any:
    """A class report of three students who answered in every topic and have a mastery of every
    skill (one of them of none of the negatives)."""
    names = {1: "Inès", 2: "Oliver", 3: "Zoé"}
    topics = sorted({skill.topic for skill in SKILLS.values()})
    tallies = [StudentTally(uid, topic, tally_of_times([2500] * 6, 4 + uid % 3))
               for uid in names for topic in topics]
    mastery = {(uid, s): SkillLevel(uid, s, 5, 1 + (uid + n) % 4)
               for uid in names for n, s in enumerate(SKILLS)
               if not (uid == 3 and s.startswith("negatives"))}
    data = Answered("week", date(2026, 11, 25), date(2026, 12, 1), None, tallies, [], mastery)
    return build(data, names, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_class_report_shows_every_skill_s_mastery_within_its_topic(lang: str) -> None:
    report = every_skill_report(lang)
    # Each topic of several skills lists them all (someone has a mastery of each).
    for topic in report.topics:
        if own_skill(topic) is None:
            assert report.skills[topic] == topic_skills(topic)
        else:
            assert topic not in report.skills
    assert report.skills["negatives"] == ("negatives-add", "negatives-subtract",
                                          "negatives-multiply", "negatives-divide",
                                          "negatives-priority")
    table = report_ui.table(report, lang, 0)
    columns = report_ui.columns(report)
    assert len(table["topics"]) == len(columns) == len(table["skills"]) == \
        len(report.topics) + sum(len(s) for s in report.skills.values())
    assert table["topics"][columns.index(("fractions", "fractions-of"))] == \
        skill_name("fractions-of", lang)
    zoe = next(row for row in table["rows"] if row["name"] == "Zoé")
    ines = next(row for row in table["rows"] if row["name"] == "Inès")
    negatives = columns.index(("negatives", "negatives-add"))
    assert zoe["cells"][negatives] is None  # no mastery of it: a dash
    assert ines["cells"][negatives] == {"band": None, "mastery": 1 + (1 + 11) % 4}
    # A topic that is one skill keeps its pips in its own cell (percentages, multiplication).
    cell = ines["cells"][columns.index(("percentages", None))]
    assert cell["mastery"] == 1 + (1 + list(SKILLS).index("percentages")) % 4
    with drawn() as seen:
        images.render_class_report(table, image_words(lang))
    words = "\n".join(seen)
    assert ids_in(words, lang) == set() and ids_in(repr(table), lang) == set()
    assert t("images.class_report.skills_reading", lang) in seen

    # The CSV: each skill's mastery in words, under its topic.
    rows = list(csv.reader(io.StringIO(report_csv(report, lang).decode("utf-8-sig")),
                           delimiter="," if lang == "en" else ";"))
    assert ids_in(repr(rows), lang) == set()
    head = rows[0]
    assert head[2] == t("class.report.csv.skill", lang)
    mine = {(r[1], r[2]): r for r in rows[1:] if r[0] == "Inès"}
    negative = mine[(t("focus.topics.negatives", lang), skill_name("negatives-add", lang))]
    assert negative[3:7] == ["", "", "", ""]
    assert negative[7] == t("mastery.level.attempted", lang) and negative[8] == "5"
    assert len([r for r in rows[1:] if r[0] == "Inès" and r[7]]) == len(SKILLS)
    assert not [r for r in rows[1:] if r[0] == "Zoé" and r[2] == skill_name("negatives-add",
                                                                              lang)]


# --- Through the bot: /progress and /class report on a cycle 4 server ----------------------------


def files_of(message: Any) -> dict[str, bytes]:
    return {a.filename: a.data for a in message.attachments}


async def practised_everything(standin: Any, start_bot: Any, clock: Any) -> tuple[Any, Any, Any]:
    """A cycle 4 server where Ana played a practice round through the bot, then answered every
    level of every skill (stored as practice answers, as a term of rounds would have)."""
    from test_cog_focus_skills import answer, focus_bot

    from tests.focus_helpers import practice_questions
    bot = await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    await standin.slash(head, "settings focus", school_year="cycle4")
    # A new student on a server with a year is offered a placement first: skipped here.
    offer = (await standin.slash(ana, "focus practice")).reply
    window = (await standin.click(ana, offer, label="Skip")).reply
    for q in practice_questions(1, 42, school_year="cycle4"):
        clock.now += 1.0
        await answer(standin, ana, window, str(json_answer(q.answer, q.form)).replace(
            "-", "−"), "Answer")
    assert "Practice: 6/6" in window.text()
    guild = standin.guild.id
    rng = random.Random(26)
    made = []
    at = datetime.now(UTC) - timedelta(hours=2)
    for ref in ladder("cycle4") + tuple((s, lv.number) for s in SKILLS
                                        for lv in SKILLS[s].levels):
        skill, level = SKILLS[ref[0]], SKILLS[ref[0]].level(ref[1])
        for n in range(2):
            m = level.build(rng)
            at += timedelta(seconds=20)
            made.append(FocusAnswer(guild, ana.id, skill.topic, level.tier, m.text, m.answer,
                                    m.answer if n else Fraction(m.answer) + 1, 2500,
                                    answered_at=at, skill=skill.id, form=skill.form))
    await bot.db.focus.record_many(made)
    return bot, head, ana


async def test_progress_and_the_class_report_of_every_skill_name_no_id(standin, start_bot,
                                                                       clock):
    _, head, ana = await practised_everything(standin, start_bot, clock)
    petit = standin.add_member("M. Petit", locale="fr", teacher=True)
    for member, lang in ((ana, "en"), (head, "en"), (petit, "fr")):
        command = "progrès" if lang == "fr" else "progress"
        options = {} if member is ana else {"member": ana}
        with drawn() as seen:
            progress = (await standin.slash(member, command, **options)).reply
        assert set(files_of(progress)) == {"progress.png", "streak.png", "mastery.png"}
        words = "\n".join(seen)
        assert ids_in(progress.text(), lang) == set(), progress.text()
        assert ids_in(words, lang) == set()
        assert any(line.startswith(skill_name("negatives-priority", lang)) for line in seen)
        assert t("focus.topics.negatives", lang) in seen  # the chart's topic, by its name

    # The topics offered as the teacher types: by their names.
    for member, lang, command in ((head, "en", "class report"), (petit, "fr", "classe bilan")):
        offered = await standin.autocomplete(member, command, "topic", topic="")
        assert {c["name"] for c in offered} >= {t("focus.topics.negatives", lang),
                                                t("focus.topics.fractions", lang)}
        assert ids_in(" | ".join(c["name"] for c in offered), lang) == set()

    for member, lang, command, delimiter in ((head, "en", "class report", ","),
                                             (petit, "fr", "classe bilan", ";")):
        with drawn() as seen:
            record = await standin.slash(member, command, period="all")
        reply = record.reply
        words = "\n".join(seen)
        assert ids_in(reply.text(), lang) == set()
        assert ids_in(words, lang) == set()
        # The skills' names head their columns (wrapped over narrow columns: joined again).
        assert skill_name("fractions-subtract", lang).split()[0] in seen
        for name, data in files_of(reply).items():
            if name.endswith(".csv"):
                text = data.decode("utf-8-sig")
                assert ids_in(text, lang) == set(), (name, text)
        csv_name = next(n for n in files_of(reply) if n.endswith(".csv")
                        and n.startswith(("class-report", "bilan-classe")))
        rows = list(csv.reader(io.StringIO(files_of(reply)[csv_name].decode("utf-8-sig")),
                               delimiter=delimiter))
        skills = {r[2]: r[7] for r in rows[1:] if r[0] == "Ana" and r[2]}
        # Every skill of the engine has its mastery in words, by its name.
        assert set(skills) == {skill_name(s, lang) for s in SKILLS}
        states = {t(f"mastery.level.{k}", lang)
                  for k in ("attempted", "familiar", "proficient", "mastered")}
        assert set(skills.values()) <= states and all(skills.values())
        negatives = [r for r in rows[1:] if r[0] == "Ana"
                     and r[1] == t("focus.topics.negatives", lang)]
        assert negatives[0][2] == "" and negatives[0][3] != ""  # the topic's figures first
        assert [r[2] for r in negatives[1:]] == [skill_name(s, lang)
                                                 for s in topic_skills("negatives")]
        # French decimals in the question-level files.
        if lang == "fr":
            questions = files_of(reply)[next(n for n in files_of(reply)
                                             if n.startswith("questions-") and
                                             n.endswith(".csv"))].decode("utf-8-sig")
            assert not re.search(r"\d\.\d", questions)
            assert re.search(r"\d,\d+ [+−×]", questions)
