"""docs/teachers.md stays true: what it quotes the bot saying (``/settings show``, a
``/class student`` answer, a homework post, an upload with refused lines) is what the bot's own
presentation says for those settings and that file; its example files read as it says; every
picture it shows is drawn by ``python -m tools.samples``; it names no database column."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import discord

from bot.play import question_sets
from bot.play.students import StudentView, changed_settings, focus_rules, server_rules
from bot.texts import t
from bot.ui.assignments import post_embed, post_view
from bot.ui.question_sets import upload_reply
from bot.ui.settings import settings_embed
from bot.ui.students import student_embed
from db import ServerSettings
from db.assignments import Assignment
from db.students import StudentSettings
from tools import samples

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
CHANNEL = 111222333444555666
ROLE = 222333444555666777


def section(heading: str) -> str:
    """The text under the heading that starts with ``heading``, up to the next heading."""
    start = DOC.index("\n" + heading) + 1
    rest = DOC[start:].split("\n", 1)[1]
    found = re.search(r"^#{1,3} ", rest, re.MULTILINE)
    return rest if found is None else rest[:found.start()]


def quotes(heading: str) -> list[list[str]]:
    """The block quotes of a section, each as its paragraphs (a lone ``>`` separates them; the
    lines of one paragraph are joined by a space)."""
    blocks: list[list[str]] = []
    lines: list[str] | None = None
    for line in [*section(heading).splitlines(), ""]:
        if line.startswith(">"):
            if lines is None:
                lines = []
            lines.append(line[1:].strip())
        elif lines is not None:
            text = "\n".join(lines)
            paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
            blocks.append([p for p in paragraphs if p])
            lines = None
    return blocks


def said(embed: discord.Embed, content: str | None = None, view: Any = None,
         mentions: dict[str, str] | None = None) -> list[str]:
    """What a member reads, one paragraph per line of it: the message's text, the title in bold,
    the description's lines, each field as "**name** — value" (a value's further lines after
    it), the footer in italics, the buttons in brackets; mentions as Discord shows them."""
    lines = [] if content is None else [content]
    lines.append(f"**{embed.title}**")
    lines += (embed.description or "").splitlines()
    for field in embed.fields:
        first, *more = str(field.value).splitlines()
        lines += [f"**{field.name}** — {first}", *more]
    if embed.footer.text:
        lines.append(f"_{embed.footer.text}_")
    if view is not None:
        lines.append(" ".join(f"[{child.item.label}]" for child in view.children))
    text = "\n".join(lines)
    for mention, shown in (mentions or {}).items():
        text = text.replace(mention, shown)
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def test_the_settings_example_is_what_the_embed_says():
    quote = " ".join(line[2:] for line in section("### `/settings`").splitlines()
                     if line.startswith("> "))
    embed = settings_embed(ServerSettings(1, focus_level_pinned=4, daily_channel_id=CHANNEL,
                                          daily_hour=8), "en")
    title = f"**{embed.title}** "
    assert quote.startswith(title)
    shown = dict(re.findall(r"\*\*(.+?)\*\* — (.+?)(?= \*\*|$)", quote.removeprefix(title)))
    expected = {f.name.split(" (")[0]: f.value.replace(f"<#{CHANNEL}>", "#maths")
                for f in embed.fields}
    assert shown == expected


def test_the_student_example_is_what_the_command_answers():
    # min_level:2 max_level:4 extra_time:×1.5 rankings:anonymous, on a server of levels 2–6.
    server = ServerSettings(1, focus_level_min=2, focus_level_max=6)
    student = changed_settings(StudentSettings(1, 5), min_level="2", max_level="4",
                               extra_time="x1.5", rankings="anonymous")
    view = StudentView(student, server, focus_rules(server, student), server_rules(server), None,
                       changed=True)
    [quote] = quotes("### `/class student")
    assert quote == said(student_embed(view, "Oliver", "en"),
                         t("class_students.saved", "en", name="Oliver"))


def test_the_homework_post_is_what_the_bot_posts():
    made = Assignment(7, 1, "Tables before Friday", 9, None, None, ROLE, None, "multiplication",
                      None, None, 10, [], datetime(2026, 12, 4, 17, tzinfo=UTC),
                      datetime(2026, 12, 1, tzinfo=UTC), None)
    [quote] = quotes("### `/class assign`")
    zone = ZoneInfo("Europe/Paris")
    assert quote == said(post_embed(made, zone, "en"), view=post_view(made, "en"),
                         mentions={f"<@&{ROLE}>": "@5B"})
    section_text = " ".join(section("### `/class assign`").split())
    closed = post_embed(made, zone, "en", closed=True)
    assert f'"{closed.footer.text}"' in section_text
    assert f"**{post_view(made, 'en', closed=True).children[0].item.label}**" in section_text


def _example(header: str) -> bytes:
    block = re.search(r"```csv\n(" + re.escape(header) + r"\n.*?)```", DOC, re.DOTALL)
    assert block is not None, header
    return block.group(1).encode("utf-8")


def test_the_upload_example_is_what_the_bot_answers_for_that_file():
    read = question_sets.read_file("week_3.csv", _example("question,answer,topic"))
    assert read.refused and read.items
    name = question_sets.default_name("week_3.csv")
    reply = upload_reply(read, name, "en", "token", None)
    [quote] = quotes("### `/class questions`")
    assert quote == said(reply["embed"], view=reply["view"])


def test_the_french_example_is_stored_whole():
    read = question_sets.read_file("semaine 3.csv", _example("question;réponse;thème"))
    assert read.refused == []
    assert [(item.text, item.answer, item.topic) for item in read.items] == [
        ("7 × 8", 56, "tables"), ("1 000 − 250", 750, "soustraction"),
        ("Le double de 45", 90, None), ("La moitié de 9", "4.5", "moitiés"),
        ("Un demi", "1/2 | 0.5", "moitiés"), ("3 de moins que 0", -3, None)]
    assert "The French file is stored at once: its six lines are good." in " ".join(DOC.split())


def test_the_french_file_back_is_what_show_attaches_and_reads_again():
    read = question_sets.read_file("semaine 3.csv", _example("question;réponse;thème"))
    block = re.search(r"comes\nback as\n\n```text\n(.*?)```", DOC, re.DOTALL)
    assert block is not None
    written = question_sets.as_csv(read.items, "fr")
    assert written.replace("\r\n", "\n") == block.group(1)
    again = question_sets.read_file("semaine 3.csv", written.encode("utf-8-sig"))
    assert again.refused == [] and again.items == read.items


def test_every_picture_shown_is_drawn_by_the_samples(tmp_path):
    shown = set(re.findall(r"\]\(images/([^)]+)\)", DOC))
    written = {path.name for path in samples.write_samples(tmp_path)}
    assert shown <= written, shown - written
    assert {"live-ranking.png", "live-report.png", "class-report.png", "progress-days.png",
            "streak-new.png"} <= shown


def test_no_database_column_is_named():
    for column in ("admin_role_ids", "focus_level_pinned", "match_lives", "rithmo_victories",
                   "daily_channel_id", "move_time_limit_s", "db.servers", "level_pinned",
                   "extra_time_factor", "focus_answers", "round_key", "set_id", "due_at",
                   "focus_rollup", "question_sets", "assignment_attempts"):
        assert column not in DOC
    assert not re.search(r"\b(?:bot|cogs|db|images)/\w+\.py\b", DOC)  # no file of the code
