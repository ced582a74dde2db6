"""docs/teachers.md stays true: its example of /settings show is what the embed says for those
settings, every teachers' command it describes is one /help shows teachers (or one being built),
and every picture it shows is drawn by ``python -m tools.samples`` (or awaits the lead's)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ui.settings import settings_embed
from db import ServerSettings
from tools import samples

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
#: Pictures of the /class parts, drawn after those parts are merged (see the report of the
#: branch that wrote the page).
AWAITED = {"class-report.png", "live-report.png"}
CHANNEL = 111222333444555666


def test_the_settings_example_is_what_the_embed_says():
    quote = " ".join(line[2:] for line in DOC.split("### `/settings`", 1)[1].splitlines()
                     if line.startswith("> "))
    embed = settings_embed(ServerSettings(1, focus_level_pinned=4, daily_channel_id=CHANNEL,
                                          daily_hour=8), "en")
    title = f"**{embed.title}** "
    assert quote.startswith(title)
    shown = dict(re.findall(r"\*\*(.+?)\*\* — (.+?)(?= \*\*|$)", quote.removeprefix(title)))
    expected = {f.name.split(" (")[0]: f.value.replace(f"<#{CHANNEL}>", "#maths")
                for f in embed.fields}
    assert shown == expected


def test_every_picture_shown_is_drawn_by_the_samples_or_awaited(tmp_path):
    shown = set(re.findall(r"\]\(images/([^)]+)\)", DOC))
    written = {path.name for path in samples.write_samples(tmp_path)}
    assert shown - written == AWAITED
    assert {"live-ranking.png", "progress-days.png", "streak-new.png"} <= shown


def test_no_database_column_is_named():
    for column in ("admin_role_ids", "focus_level_pinned", "match_lives", "rithmo_victories",
                   "daily_channel_id", "move_time_limit_s", "db.servers"):
        assert column not in DOC
