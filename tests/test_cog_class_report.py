"""/class report end to end through the stand-in with the real bot: a class of 30 members (some
French, some English) answering over a week of simulated days (most answers stored through the
repository, two practice rounds played through the bot), then the teacher's report: the picture
(drawn from the figures worked out here from the answers themselves), the CSV parsed back, the
pages and their buttons, the filters, pseudonyms, a former member, the French export; a student
gets the teachers-only refusal."""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from test_cog_focus import focus_bot

import images
from bot.focus.mastery import Evidence, Mastery, map_data
from bot.i18n import date_text, image_words
from bot.play.class_report import topic_name
from bot.ui import class_report as report_ui
from db import FocusAnswer
from db.class_report import tally_of_times
from tests.focus_helpers import practice_questions

FRENCH = ["Anaïs", "Benoît", "Chloé", "Élodie", "François", "Gaëlle", "Hélène", "Inès", "Jérôme",
          "Léa", "Maël", "Noé"]
ENGLISH = ["Alice", "Brian", "Carla", "David", "Emma", "Felix", "Grace", "Harry", "Isla", "Jack",
           "Kate", "Liam", "Mia", "Nathan", "Olivia", "Peter", "Quinn", "Ruby"]
TOPICS = ["addition", "subtraction", "multiplication", "division", "priority"]
ROUND = 6


@dataclass
class Class:
    bot: Any
    teacher: Any
    students: list[Any]
    group_a: Any  # a role held by every third student
    later: list[Any]  # three students who answered three weeks ago only


def start_of(day: date) -> datetime:
    return datetime.combine(day, time(), UTC)  # the server's zone is UTC


async def seed(standin: Any, start_bot: Any, clock: Any) -> Class:
    bot = await focus_bot(start_bot)
    group_a = standin.add_role("Groupe A")
    students = []
    for n, name in enumerate(FRENCH + ENGLISH):
        students.append(standin.add_member(
            name, locale="fr" if name in FRENCH else "en-US",
            roles=[group_a] if n % 3 == 0 else []))
    teacher = standin.add_member("Mme Roux", teacher=True)
    later = [standin.add_member(name) for name in ("Zoé", "Yanis", "Xavier")]
    guild = standin.guild.id
    rng = random.Random(14)
    today = datetime.now(UTC).date()
    answers = []
    # A week of simulated days: each day, most students play a round or two of a topic.
    for days_ago in range(1, 7):
        for student in students:
            for _ in range(rng.choice((0, 1, 1, 2))):
                topic = rng.choice(TOPICS)
                start = start_of(today - timedelta(days=days_ago)) + timedelta(
                    hours=rng.randrange(8, 18), minutes=rng.randrange(60))
                skill = 0.4 + 0.6 * (FRENCH + ENGLISH).index(student.name) / 30
                for q in range(ROUND):
                    right = rng.random() < skill
                    answers.append(FocusAnswer(
                        guild, student.id, topic, 2, "6 × 7", 42, 42 if right else 41,
                        rng.randrange(800, 25_000), answered_at=start + timedelta(seconds=8 * q)))
    for student in later:
        answers.append(FocusAnswer(guild, student.id, "addition", 1, "2 + 2", 4, 4, 2000,
                                   answered_at=start_of(today - timedelta(days=21))))
    await bot.db.focus.record_many(answers)
    # Two students play a practice round through the bot today, one in French.
    questions = practice_questions(1, 42)
    for student, label in ((students[0], "Répondre"), (students[13], "Answer")):
        window = (await standin.slash(student, "focus practice")).reply
        for i, question in enumerate(questions):
            clock.now += 2.0 + i
            typed = question.answer if i % 2 else question.answer + 1
            opened = await standin.click(student, window, label=label)
            await standin.submit_modal(student, opened, {"answer": str(typed)})
    return Class(bot, teacher, students, group_a, later)


Figures = dict[str, dict[str, tuple[int, int, float]]]


async def stored(bot: Any, guild: int, members: list[Any], since: date) -> dict[str, list]:
    """Each member's answers since the server's midnight of ``since``, by name, from
    focus_answers itself (not the rollup the report reads)."""
    found = {}
    for member in members:
        mine = [a for a in await bot.db.focus.recent(guild, member.id, limit=10_000)
                if a.answered_at >= start_of(since)]
        if mine:
            found[member.name] = mine
    return found


async def mastery_of(bot: Any, guild: int, members: list[Any]) -> dict[str, dict[str, int]]:
    """Each member's mastery of each skill (at its highest level practised), by name: worked out
    here from all their stored answers, oldest first, by the pure model."""
    found = {}
    for member in members:
        model = Mastery()
        for a in reversed(await bot.db.focus.recent(guild, member.id, limit=10_000)):
            model.record(Evidence(a.question, a.topic, a.level, a.correct, a.time_ms / 1000,
                                  a.answered_at))
        skills = map_data(model, datetime.now(UTC))["skills"]
        found[member.name] = {s["skill"]: s["mastery"] for s in skills}
    return found


def figures_of(answers: list[FocusAnswer]) -> dict[str, tuple[int, int, float]]:
    """Per topic: (answers, right, median ms as the report works it out from its spans)."""
    by_topic: dict[str, list[FocusAnswer]] = defaultdict(list)
    for a in answers:
        by_topic[a.topic].append(a)
    return {topic: (len(got), sum(a.correct for a in got),
                    tally_of_times([a.time_ms for a in got]).median_ms)
            for topic, got in by_topic.items()}


def band(answers: int, right: int) -> str:
    if answers < 3:
        return "few"
    share = right / answers
    return "top" if share >= 0.9 else "good" if share >= 0.7 else "fair" if share >= 0.5 \
        else "low"


def cell(figure: tuple[int, int, float] | None) -> dict | None:
    if figure is None:
        return None
    answers, right, median = figure
    return {"band": band(answers, right), "accuracy": right / answers, "answers": answers,
            "median_s": median / 1000}


def with_mastery(figure: dict | None, mastery: int | None) -> dict | None:
    return figure if mastery is None else {**(figure or {"band": None}), "mastery": mastery}


def expected_picture(answers: dict[str, list], lang: str, title: str, subtitle: str,
                     mastery: dict[str, dict[str, int]], page: int = 0) -> bytes:
    students = {name: figures_of(mine) for name, mine in answers.items()}
    everyone = figures_of([a for mine in answers.values() for a in mine])
    topics = [t for t in TOPICS if t in everyone]
    names = sorted(students, key=str.casefold)
    rows = [{"name": n, "cells": [with_mastery(cell(students[n].get(t)), mastery[n].get(t))
                                  for t in topics]} for n in names]
    return images.render_class_report({
        "title": title, "subtitle": subtitle, "topics": [topic_name(t, lang) for t in topics],
        "rows": rows[page * 30:(page + 1) * 30],
        "class": {"cells": [cell(everyone[t]) for t in topics]},
        "page": page + 1, "pages": -(-len(rows) // 30)}, image_words(lang))


def parse(data: bytes, delimiter: str = ",") -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data[3:].decode("utf-8")), delimiter=delimiter))


def files(record_or_message: Any) -> dict[str, bytes]:
    message = getattr(record_or_message, "reply", record_or_message)
    return {a.filename: a.data for a in message.attachments}


async def test_the_teachers_report_of_a_week_picture_csv_and_figures(standin, start_bot,
                                                                      clock):
    world = await seed(standin, start_bot, clock)
    bot, guild = world.bot, standin.guild.id
    today = datetime.now(UTC).date()
    first = today - timedelta(days=6)

    record = await standin.slash(world.teacher, "class report")
    assert record.deferred and record.ephemeral
    reply = record.reply
    csv_name = f"class-report-{today.isoformat()}.csv"
    day = today.isoformat()
    assert set(files(record)) == {"class-report.png", csv_name, f"questions-{day}.png",
                                  f"questions-{day}.csv", f"mistakes-{day}.csv"}
    embed = reply.embeds[0]
    assert embed["title"] == "Class report: The last 7 days"
    assert embed["image"]["url"] == "attachment://class-report.png"
    assert reply.components == []  # 30 students: one page, no buttons

    answers = await stored(bot, guild, world.students, first)
    assert len(answers) == 30  # everyone answered this week; the three of long ago did not
    rows = parse(files(record)[csv_name])
    assert rows[0] == ["Student", "Topic", "Skill", "Answers", "Right", "Accuracy (%)",
                       "Median time (s)", "Mastery", "Mastery level"]
    mastery = await mastery_of(bot, guild, world.students)
    names = {1: "Attempted", 2: "Familiar", 3: "Proficient", 4: "Mastered"}
    shown = {(r[0], r[1]): r[2:] for r in rows[1:]}  # the eight levels' topics: one skill
    assert len(shown) == len(rows) - 1  # one row per student (or the class) and topic
    want = {(name, topic): figure for name, mine in answers.items()
            for topic, figure in figures_of(mine).items()}
    want |= {("Class", topic): figure for topic, figure in figures_of(
        [a for mine in answers.values() for a in mine]).items()}
    assert len(shown) == len(want)
    for (name, topic), (count, right, median) in want.items():
        known = mastery.get(name, {}).get(topic)
        assert shown[(name, topic_name(topic, "en"))] == [
            "" if name == "Class" else topic_name(topic, "en"), str(count), str(right),
            f"{100 * right / count:.1f}", f"{median / 1000:.1f}",
            "" if known is None else names[known], "" if known is None else "2"]
    # The class's rows are the sums of the students'.
    for topic in {topic for _, topic in want}:
        mine = [v for (name, t), v in want.items() if t == topic and name != "Class"]
        assert want[("Class", topic)][:2] == (sum(m[0] for m in mine), sum(m[1] for m in mine))
    total = sum(len(mine) for mine in answers.values())
    assert f"30 students · {total} answers" in embed["description"]

    subtitle = f"From {date_text(first, 'en', 'd MMM')} to {date_text(today, 'en', 'd MMM y')}"
    assert embed["description"].startswith(subtitle)
    assert files(record)["class-report.png"] == expected_picture(
        answers, "en", "Class report: The last 7 days", subtitle, mastery)


async def test_a_month_has_two_pages_turned_by_the_teacher_until_it_expires(standin, start_bot,
                                                                           clock):
    world = await seed(standin, start_bot, clock)
    record = await standin.slash(world.teacher, "class report", period="month")
    reply = record.reply
    assert "Page 1 of 2" in reply.embeds[0]["description"]
    assert "33 students" in reply.embeds[0]["description"]
    previous, following = reply.button("◀ Previous"), reply.button("Next ▶")
    assert previous["disabled"] and not following.get("disabled")
    first_page = files(reply)["class-report.png"]

    turned = await standin.click(world.teacher, reply, label="Next ▶")
    assert turned.reply is reply and "Page 2 of 2" in reply.embeds[0]["description"]
    assert reply.button("Next ▶")["disabled"] and not reply.button("◀ Previous").get("disabled")
    second_page = files(reply)["class-report.png"]
    assert second_page != first_page
    today = datetime.now(UTC).date()
    first = today - timedelta(days=29)
    answers = await stored(world.bot, standin.guild.id, [*world.students, *world.later], first)
    assert len(answers) == 33
    # The CSV holds everyone, whatever the page.
    csv_name = f"class-report-{today.isoformat()}.csv"
    assert {r[0] for r in parse(files(reply)[csv_name])[1:]} == {*answers, "Class"}
    # The second page: the last three names.
    subtitle = f"From {date_text(first, 'en', 'd MMM')} to {date_text(today, 'en', 'd MMM y')}"
    mastery = await mastery_of(world.bot, standin.guild.id, [*world.students, *world.later])
    assert second_page == expected_picture(answers, "en", "Class report: The last 30 days",
                                           subtitle, mastery, page=1)

    await standin.click(world.teacher, reply, label="◀ Previous")
    assert files(reply)["class-report.png"] == first_page

    # Fifteen minutes without a click: the report says it expired, and stays as it was.
    windows = report_ui.report_windows(world.bot)
    windows.clock = clock
    windows.show(reply.id, windows.get(reply.id))
    clock.now += report_ui.EXPIRY + 1
    expired = await standin.click(world.teacher, reply, label="Next ▶")
    assert expired.reply.content.startswith("This report has expired")
    assert expired.ephemeral and "Page 1 of 2" in reply.embeds[0]["description"]


async def test_the_role_and_topic_filters_pseudonyms_and_a_former_member(standin, start_bot,
                                                                        clock):
    world = await seed(standin, start_bot, clock)
    guild = standin.guild.id
    today = datetime.now(UTC).date()
    csv_name = f"class-report-{today.isoformat()}.csv"

    by_role = await standin.slash(world.teacher, "class report", role=world.group_a,
                                  topic="division")
    in_group = [s for s in world.students if world.group_a in s.roles]
    answers = await stored(world.bot, guild, in_group, today - timedelta(days=6))
    want = {(n, "division") for n, mine in answers.items() if any(
        a.topic == "division" for a in mine)}
    assert want
    rows = parse(files(by_role)[csv_name])[1:]
    assert {(r[0], r[1]) for r in rows if r[0] != "Class"} == want
    assert "Role: Groupe A" in by_role.reply.embeds[0]["description"]
    assert "Topic: division" in by_role.reply.embeds[0]["description"]

    # Pseudonyms: numbered by first answer in the server: the three of three weeks ago first.
    masked = await standin.slash(world.teacher, "class report", period="all", pseudonym=True)
    rows = parse(files(masked)[csv_name])[1:]
    shown = {r[0] for r in rows} - {"Class"}
    assert shown == {f"Student {n}" for n in range(1, 34)}
    assert not any(s.name in str(rows) for s in world.students)
    week = parse(files(await standin.slash(world.teacher, "class report", pseudonym=True))[
        csv_name])[1:]
    assert {r[0] for r in week} - {"Class"} == {f"Student {n}" for n in range(4, 34)}

    # A student who left: "a former member", their figures kept.
    gone = world.students[5]
    del standin.guild.members[gone.id]
    after = parse(files(await standin.slash(world.teacher, "class report"))[csv_name])[1:]
    assert gone.name not in {r[0] for r in after}
    assert "a former member" in {r[0] for r in after}


async def test_the_topics_offered_are_those_answered(standin, start_bot, clock):
    world = await seed(standin, start_bot, clock)
    offered = await standin.autocomplete(world.teacher, "class report", "topic", topic="")
    assert [(c["name"], c["value"]) for c in offered] == [
        (topic_name(t, "en"), t) for t in TOPICS]
    # What is typed matches a name ("order of operations") or a key ("priority").
    for typed in ("OPER", "prior"):
        offered = await standin.autocomplete(world.teacher, "class report", "topic",
                                             topic=typed)
        assert [c["value"] for c in offered] == ["priority"]


async def test_the_report_in_french_and_the_refusal_to_a_student(standin, start_bot, clock):
    world = await seed(standin, start_bot, clock)
    petit = standin.add_member("M. Petit", locale="fr", teacher=True)
    today = datetime.now(UTC).date()
    record = await standin.slash(petit, "classe bilan")
    assert record.reply.embeds[0]["title"] == "Bilan de la classe : les 7 derniers jours"
    rows = parse(files(record)[f"bilan-classe-{today.isoformat()}.csv"], ";")
    assert rows[0] == ["Élève", "Thème", "Compétence", "Réponses", "Justes", "Réussite (%)",
                       "Temps médian (s)", "Maîtrise", "Niveau de la maîtrise"]
    assert {r[7] for r in rows[1:]} <= {"", "Essayé", "Familier", "Acquis", "Maîtrisé"}
    assert {r[0] for r in rows[1:]} >= {"Anaïs", "Élodie", "Gaëlle", "Classe"}
    assert all("," in r[5] and "," in r[6] for r in rows[1:])  # decimal commas
    assert {r[1] for r in rows[1:]} <= {topic_name(t, "fr") for t in TOPICS}

    student = world.students[2]
    refused = await standin.slash(student, "classe bilan")
    assert refused.ephemeral and not refused.reply.attachments
    assert refused.reply.content.startswith("Seuls les professeurs")
