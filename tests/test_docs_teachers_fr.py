"""docs/teachers.fr.md follows docs/teachers.md and says what the bot says in French.

The two guides keep the same headings (count, levels, order) and, section by section, the same
pictures (the French guide shows a picture's French version, ``<name>-fr.png``, wherever
``python -m tools.samples`` draws one). Every command the French guide writes (`` `/…` ``) is a
command, group or option as the bot registers it in French, and every command the English guide
names is named in the French one too. What the French guide quotes the bot saying (``/réglages
voir``, a ``/classe élève`` answer, a homework post, an upload with refused lines, a set's file
back) is what the bot's own presentation says in French."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from datetime import UTC, datetime
from itertools import zip_longest
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.play import question_sets
from bot.play.students import StudentView, changed_settings, focus_rules, server_rules
from bot.texts import t as typeset
from bot.ui.assignments import post_embed, post_view, when_text
from bot.ui.question_sets import upload_reply
from bot.ui.settings import settings_embed
from bot.ui.students import student_embed
from db import ServerSettings
from db.assignments import Assignment
from db.students import StudentSettings
from tests.test_docs_teachers import CHANNEL, ROLE, said
from tools import samples
from tools.focus_tables import names_table

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ENGLISH = (DOCS / "teachers.md").read_text(encoding="utf-8")
FRENCH = (DOCS / "teachers.fr.md").read_text(encoding="utf-8")

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)")
_PICTURE = re.compile(r"!\[[^\]]*\]\(images/([^)]+)\)")


# ---------------------------------------------------------------------------------------------
# Reading the guides

def sections(text: str) -> list[tuple[str, str]]:
    """(heading line, text) for the part before the first heading and every heading's section,
    whatever its level; a line inside a code block is never a heading."""
    parts: list[tuple[str, list[str]]] = [("", [])]
    in_code = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and _HEADING.match(line):
            parts.append((line.strip(), []))
        parts[-1][1].append(line)
    return [(heading, "\n".join(lines)) for heading, lines in parts]


def section(text: str, heading: str) -> str:
    """The text of the first section whose heading line starts with ``heading``."""
    return next(body for line, body in sections(text) if line.startswith(heading))


def quotes(body: str) -> list[list[str]]:
    """The block quotes of a text, each as its paragraphs (a lone ``>`` separates them; the lines
    of one paragraph are joined by a space)."""
    blocks: list[list[str]] = []
    lines: list[str] | None = None
    for line in [*body.splitlines(), ""]:
        if line.startswith(">"):
            lines = [] if lines is None else lines
            lines.append(line[1:].strip())
        elif lines is not None:
            paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", "\n".join(lines))]
            blocks.append([p for p in paragraphs if p])
            lines = None
    return blocks


def code_block(text: str, language: str, first_line: str) -> str:
    """The ``language`` code block whose first line starts with ``first_line``."""
    found = re.search(rf"```{language}\n({re.escape(first_line)}.*?)```", text, re.DOTALL)
    assert found is not None, first_line
    return found.group(1)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.lstrip("#").strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def french_of(picture: str) -> str:
    """The picture a French reader is shown for ``picture``: its French version if the samples
    draw one."""
    stem, _, ext = picture.rpartition(".")
    french = f"{stem}-fr.{ext}"
    return french if not stem.endswith("-fr") and (DOCS / "images" / french).exists() else picture


# ---------------------------------------------------------------------------------------------
# The same structure and pictures

def test_the_french_guide_has_the_english_headings_at_the_same_levels() -> None:
    def levels(text: str) -> list[tuple[int, str]]:
        return [(len(h) - len(h.lstrip("#")), h) for h, _ in sections(text)[1:]]

    english, french = levels(ENGLISH), levels(FRENCH)
    side_by_side = "\n".join(f"{e[1] if e else '':70} | {f[1] if f else ''}" for e, f in
                             zip_longest(english, french))
    assert [level for level, _ in french] == [level for level, _ in english], side_by_side


def test_each_section_shows_the_english_pictures_in_french_where_they_exist() -> None:
    for (en_heading, en_body), (fr_heading, fr_body) in zip(sections(ENGLISH), sections(FRENCH),
                                                            strict=True):
        english, french = _PICTURE.findall(en_body), _PICTURE.findall(fr_body)
        assert Counter(map(french_of, english)) == Counter(map(french_of, french)), \
            (en_heading, fr_heading, english, french)
        # An English picture that has a French version is shown only beside it ("the same
        # picture in English"), as the English guide shows a French one beside its own.
        for picture in french:
            if french_of(picture) != picture:
                assert french_of(picture) in french, (fr_heading, picture)


def test_every_french_picture_is_drawn_by_the_samples(tmp_path: Path) -> None:
    shown = set(_PICTURE.findall(FRENCH))
    written = {path.name for path in samples.write_samples(tmp_path)}
    assert shown <= written, shown - written
    assert {"live-ranking-fr.png", "live-report-fr.png", "class-report-fr.png",
            "class-report-skills-fr.png", "question-report-fr.png", "student-page-fr.png",
            "progress-fr.png", "streak-new-fr.png", "leaderboard-fr.png"} <= shown


def test_every_link_inside_the_french_guide_finds_its_heading() -> None:
    anchors = {slug(h) for h, _ in sections(FRENCH)[1:]}
    links = re.findall(r"\]\(#([^)]+)\)", FRENCH)
    assert links and set(links) <= anchors, set(links) - anchors
    focus = (DOCS / "rules" / "focus.fr.md").read_text(encoding="utf-8")
    focus_anchors = {slug(h) for h, _ in sections(focus)[1:]}
    targets = re.findall(r"\]\(rules/focus\.fr\.md#([^)]+)\)", FRENCH)
    assert targets and set(targets) <= focus_anchors, set(targets) - focus_anchors
    for target in re.findall(r"\]\(([^)#]+)", FRENCH):
        if not target.startswith("http"):
            assert (DOCS / target).exists(), target


def test_the_guides_and_the_readme_link_each_other() -> None:
    assert "](teachers.fr.md)" in ENGLISH.split("\n\n", 2)[1]
    assert "](teachers.md)" in FRENCH
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/teachers.md)" in readme and "](docs/teachers.fr.md)" in readme


def test_the_french_guide_names_every_skill() -> None:
    found = re.search(r"<!-- names-table -->\n(.*?)\n<!-- /names-table -->", FRENCH, re.DOTALL)
    assert found is not None
    assert found[1] == names_table("fr"), "regenerate with python -m tools.focus_tables names-fr"


# ---------------------------------------------------------------------------------------------
# The commands, as the bot registers them in French

class Tree:
    """The bot's commands as Discord receives them: each path (group and subcommand names) with
    its options, in English and in French."""

    def __init__(self, synced: list[dict[str, Any]]) -> None:
        self.en: dict[str, set[str]] = {}  # path -> options
        self.fr: dict[str, set[str]] = {}
        self.to_fr: dict[str, str] = {}  # English path -> French path
        self._walk(synced, "", "")

    def _walk(self, items: list[dict[str, Any]], en_prefix: str, fr_prefix: str) -> None:
        for item in items:
            en = f"{en_prefix} {item['name']}".strip()
            fr = f"{fr_prefix} {item['name_localizations']['fr']}".strip()
            self.to_fr[en] = fr
            options = item.get("options") or []
            self.en[en] = {o["name"] for o in options if o["type"] not in (1, 2)}
            self.fr[fr] = {o["name_localizations"]["fr"] for o in options
                           if o["type"] not in (1, 2)}
            self._walk([o for o in options if o["type"] in (1, 2)], en, fr)


def mentions(text: str) -> list[str]:
    """Every command the text writes in code: `` `/…` `` spans (a table's ``\\|`` unescaped)."""
    return [span.replace("\\|", "|") for span in re.findall(r"`(/[^`\n]+)`", text)]


def resolve(span: str, paths: dict[str, set[str]]) -> tuple[str | None, list[str]]:
    """The longest command path a span starts with, and what is wrong with the rest of it: a
    word after a group that is no command of it, or an option (``name:`` or ``[name]``) the
    command does not have."""
    words = span[1:].split()
    path = ""
    while words and f"{path} {words[0]}".strip() in paths:
        path = f"{path} {words.pop(0)}".strip()
    if not path:
        return None, [f"{span}: no command {span.split()[0]}"]
    problems = []
    is_group = any(other.startswith(path + " ") for other in paths)
    for word in words:
        if is_group:
            if word != "…":
                problems.append(f"{span}: {path} has no command {word!r}")
            continue
        option = re.fullmatch(r"([^\s:<>\[\]|]+):.*", word) or re.fullmatch(r"\[([^\s\]]+)\]",
                                                                          word)
        if option and option[1] not in paths[path]:
            problems.append(f"{span}: {path} has no option {option[1]!r}")
    return path, problems


async def _tree(start_bot: Any, standin: Any) -> Tree:
    await start_bot()
    return Tree(standin.commands[standin.guild.id])


async def test_every_command_of_the_french_guide_is_the_bot_s_french_command(standin,
                                                                            start_bot) -> None:
    tree = await _tree(start_bot, standin)
    spans = mentions(FRENCH)
    assert len(spans) > 100
    problems = [problem for span in spans for problem in resolve(span, tree.fr)[1]]
    assert problems == []


async def test_every_command_of_the_english_guide_is_in_the_french_one(standin,
                                                                      start_bot) -> None:
    tree = await _tree(start_bot, standin)
    # The English guide writes French names in brackets too (`/focus classe`): only what reads
    # as an English command counts.
    named = {path for span in mentions(ENGLISH)
             for path, problems in [resolve(span, tree.en)] if path and not problems}
    french = {resolve(span, tree.fr)[0] for span in mentions(FRENCH)}
    missing = {path: tree.to_fr[path] for path in named if tree.to_fr[path] not in french}
    assert missing == {}
    assert {"classe bilan", "classe élève", "classe devoir", "réglages focus",
            "focus classe"} <= french


# ---------------------------------------------------------------------------------------------
# What the bot says in French

def t(key: str, lang: str, /, **params: Any) -> str:
    """The catalogue's words as the guide quotes them (ordinary spaces: see ``plain``)."""
    return plain(typeset(key, lang, **params))


def plain(text: str) -> str:
    """French with ordinary spaces: the bot and the guide both typeset theirs with no-break
    spaces (``bot.texts.typography``, ``tools.french_docs``), and their words are compared."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def test_the_settings_example_is_what_the_embed_says_in_french() -> None:
    quote = plain(" ".join(line[2:] for line in section(FRENCH, "### `/réglages`").splitlines()
                           if line.startswith("> ")))
    embed = settings_embed(ServerSettings(1, focus_level_pinned=4, daily_channel_id=CHANNEL,
                                          daily_hour=8), "fr")
    title = f"**{plain(str(embed.title))}** "
    assert quote.startswith(title)
    shown = re.findall(r"\*\*(.+?)\*\* — (.+?)(?= \*\*|$)", quote.removeprefix(title))
    expected = [(plain(f.name.split(" (")[0]), plain(f.value.replace(f"<#{CHANNEL}>", "#maths")))
                for f in embed.fields]
    assert shown == expected


def test_the_student_example_is_what_the_command_answers_in_french() -> None:
    server = ServerSettings(1, focus_level_min=2, focus_level_max=6)
    student = changed_settings(StudentSettings(1, 5), min_level="2", max_level="4",
                               extra_time="x1.5", rankings="anonymous")
    view = StudentView(student, server, focus_rules(server, student), server_rules(server), None,
                       changed=True)
    [quote] = quotes(section(FRENCH, "### `/classe élève"))
    assert quote == said(student_embed(view, "Oliver", "fr"),
                         t("class_students.saved", "fr", name="Oliver"))


def test_the_homework_post_is_what_the_bot_posts_in_french() -> None:
    made = Assignment(7, 1, "Tables avant vendredi", 9, None, None, ROLE, None, "multiplication",
                      None, None, 10, [], datetime(2026, 12, 4, 17, tzinfo=UTC),
                      datetime(2026, 12, 1, tzinfo=UTC), None)
    body = section(FRENCH, "### `/classe devoir`")
    [quote] = quotes(body)
    zone = ZoneInfo("Europe/Paris")
    assert quote == said(post_embed(made, zone, "fr"), view=post_view(made, "fr"),
                         mentions={f"<@&{ROLE}>": "@5B"})
    text = " ".join(body.split())
    assert plain(f"« {post_embed(made, zone, 'fr', closed=True).footer.text} »") in text
    assert plain(f"**{post_view(made, 'fr', closed=True).children[0].item.label}**") in text
    assert "`/classe devoir nom:Tables avant vendredi pour-le:04/12/2026 18h00" in text
    # How the due option's list reads that date as it is typed.
    assert plain(f"(« {when_text(made.due_at, zone, 'fr')} »)") in text


def test_the_upload_example_is_what_the_bot_answers_in_french() -> None:
    read = question_sets.read_file("semaine 3.csv",
                                   code_block(FRENCH, "csv", "question;réponse;thème").encode())
    assert read.refused and read.items
    reply = upload_reply(read, question_sets.default_name("semaine 3.csv"), "fr", "token", None)
    [quote] = quotes(section(FRENCH, "### `/classe questions`"))
    assert quote == said(reply["embed"], view=reply["view"])


def test_the_english_example_is_stored_whole() -> None:
    read = question_sets.read_file("week 3.csv",
                                   code_block(FRENCH, "csv", "question,answer,topic").encode())
    assert read.refused == []
    assert len(read.items) == 4
    assert "Le fichier anglais est gardé tout de suite : ses quatre lignes sont bonnes." in \
        " ".join(FRENCH.split())


def test_the_file_back_is_what_show_attaches_for_the_good_lines() -> None:
    read = question_sets.read_file("semaine 3.csv",
                                   code_block(FRENCH, "csv", "question;réponse;thème").encode())
    written = question_sets.as_csv(read.items, "fr")
    assert written.replace("\r\n", "\n") == code_block(FRENCH, "text", "question;réponse;thème")
    again = question_sets.read_file("semaine 3.csv", written.encode("utf-8-sig"))
    assert again.refused == [] and again.items == read.items


def test_the_class_report_s_spreadsheet_is_what_the_bot_writes_in_french() -> None:
    # Inès: 8 answers in negative numbers (7 right), 5 in percentages (4 right), each taking
    # 3.5 s; adding negatives Familiar, subtracting them Proficient, percentages Mastered.
    from datetime import date

    from bot.play.class_report import Answered, build, report_csv
    from db.class_report import StudentTally, tally_of_times
    from db.mastery import SkillLevel

    tallies = [StudentTally(1, "negatives", tally_of_times([3500] * 8, 7)),
               StudentTally(1, "percentages", tally_of_times([3500] * 5, 4))]
    mastery = {(1, skill): SkillLevel(1, skill, 4, level) for skill, level in
               (("negatives-add", 2), ("negatives-subtract", 3), ("percentages", 4))}
    data = Answered("week", date(2026, 11, 24), date(2026, 11, 30), None, tallies, [], mastery)
    written = report_csv(build(data, {1: "Inès"}, "fr"), "fr").decode("utf-8-sig")
    shown = code_block(FRENCH, "csv", t("class.report.csv.student", "fr") + ";")
    rows = written.replace("\r\n", "\n").splitlines()
    assert shown.splitlines() == [row for row in rows if not row.startswith("Classe;")]


def test_the_worked_corrections_are_the_engine_s_in_french() -> None:
    from fractions import Fraction

    from bot.corrections import worked

    text = " ".join(FRENCH.split())
    for skill, question, answer in (("fractions-subtract", "3/4 − 1/4", Fraction(1, 2)),
                                    ("negatives-subtract", "−3 − 5", -8),
                                    ("missing-multiplication", "12 × ? = 96", 8),
                                    ("priority", "2 + 3 × 4", 14)):
        assert plain(f"`{worked(skill, question, answer, 'fr')}`") in text, question


def test_every_known_mistake_is_named_as_the_bot_names_it_in_french() -> None:
    from bot.i18n import catalogues

    text = " ".join(FRENCH.split())
    names = {key: name for key, name in catalogues().texts["fr"].items()
             if key.startswith("misconceptions.")}
    assert len(names) >= 17
    assert [key for key, name in names.items() if name not in text] == []


def test_the_bot_s_french_words_are_the_catalogue_s() -> None:
    text = " ".join(FRENCH.split())
    for key in ("focus.live.answer", "focus.live.next", "focus.live.finish", "live.report_button",
                "live.pause", "live.resume", "live.skip", "live.end", "class.report.previous",
                "class.report.next", "class.assign.button", "placement.post.button",
                "class.end_of_year.confirm", "class.end_of_year.keep",
                "class_questions.delete.yes", "class_questions.delete.no",
                "class_students.choices.server", "class_students.choices.untimed",
                "class_students.choices.shown", "class_students.choices.hidden",
                "class.periods.today", "class.periods.week", "class.periods.month",
                "class.periods.term", "class.periods.all", "mastery.level.attempted",
                "mastery.level.familiar", "mastery.level.proficient", "mastery.level.mastered",
                "meta.help.teachers", "errors.focus.live_too_late",
                "errors.class.questions.download_failed", "errors.class.teachers_only.any",
                "class.report.former_member", "live.found_by_name"):
        assert t(key, "fr") in text, key
    for key in ("student", "topic", "skill", "answers", "right", "accuracy", "median",
                "mastery", "mastery_level"):
        assert t(f"class.report.csv.{key}", "fr") in text, key
    # The deadline is a Discord timestamp, which each reader's Discord writes at their own hour:
    # the guide quotes the sentence up to it.
    extra = t("live.extra", "fr", deadline="10:42:40")
    assert f"« {plain(extra[:extra.index('10:42:40')])}… »" in text
    # Issue 27's homework and weekly digest.
    due = "**vendredi 4 décembre 2026 à 18 h**"  # the bot says a time so (bot.texts.time_text)
    reminder = t("homework.reminder.text", "fr", name="**Tables**", due=due, count=2)
    assert f"« {reminder.replace('****', '**')} @Béa @Cy »" in text
    assert f"« {t('homework.post.reminder', 'fr', count=24)} »" in text
    assert f"« {t('digest.empty', 'fr')} »" in text
    for key in ("homework.reminders.0", "homework.reminders.1", "homework.reminders.24",
                "homework.reminders.48", "homework.list.todo", "digest.button"):
        assert f"**{t(key, 'fr')}**" in text, key
    assert f"**{t('homework.list.started', 'fr', n=3, size=6)}**" in text
    assert f"**{t('homework.list.done', 'fr', score=5, size=6).replace('**', '')}**" in text
    assert t("class.report.csv_file", "fr", day="2026-11-30") in text
    assert t("reports.mistakes_file", "fr", name="2026-11-30") in text
    assert t("class.assign.report.filename", "fr", id=7) in text
    assert t("class.end_of_year.student_file", "fr", id="<id>") in text
