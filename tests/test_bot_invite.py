"""``python -m bot invite``: the URL from a token or an id, exactly the bot's permissions, one line
and status 2 for what cannot be read, the token never printed, and docs/setup.md's table."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import invite
from bot.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
APP_ID = 1180000000000000042


def token_of(application_id: int) -> str:
    """A token shaped like Discord's: base64 of the id, a timestamp part, a secret part."""
    first = base64.b64encode(str(application_id).encode()).decode().rstrip("=")
    return f"{first}.GxYzAb.never-print-this-secret-part"


def test_the_permissions_are_exactly_the_table_and_nothing_more():
    value = discord.Permissions(invite.PERMISSIONS_VALUE)
    # Iterating, discord.py names bit 10 read_messages, its older name for view_channel.
    granted = {"view_channel" if name == "read_messages" else name
               for name, allowed in value if allowed}
    assert granted == {"view_channel", "send_messages", "send_messages_in_threads",
                       "embed_links", "attach_files"}
    assert value.value == sum(1 << bit for bit in (10, 11, 14, 15, 38))
    assert not value.administrator and not value.manage_messages and not value.mention_everyone
    # What /settings daily checks before it saves a channel is part of it.
    assert {"view_channel", "send_messages", "embed_links", "attach_files"} <= granted


def test_the_url_from_an_id():
    assert invite.invite_url(APP_ID) == (
        f"https://discord.com/oauth2/authorize?client_id={APP_ID}"
        f"&permissions={invite.PERMISSIONS_VALUE}&scope=bot+applications.commands")


@pytest.mark.parametrize("application_id", [APP_ID, 80351110224678912, 123456789012345])
def test_the_id_is_read_from_the_token(application_id):
    assert invite.application_id_from_token(token_of(application_id)) == application_id


@pytest.mark.parametrize("bad", ["", "not a token", "!!!.x.y", base64.b64encode(b"abc").decode(),
                                 base64.b64encode(b"12").decode() + ".x.y"])
def test_a_token_without_an_id_is_refused_without_quoting_it(bad):
    with pytest.raises(invite.InviteError) as refused:
        invite.application_id_from_token(bad)
    assert not bad or bad not in str(refused.value)


@pytest.mark.parametrize("bad", ["12ab", "12", "-1180000000000000042",
                                 "１２３４５６７８９０１２３４５６"])
def test_a_bad_id_is_refused(bad):
    with pytest.raises(invite.InviteError):
        invite.parse_application_id(bad)


def test_the_command_with_an_id_prints_the_url(capsys):
    assert main(["invite", "--application-id", str(APP_ID)]) == 0
    out = capsys.readouterr().out
    assert out == invite.invite_url(APP_ID) + "\n"


def _run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k in ("PATH", "HOME", "LANG", "SYSTEMROOT", "PYTHONPATH")}
    return subprocess.run([sys.executable, "-m", "bot", "invite", *args], cwd=tmp_path,
                          env={**base, "PYTHONPATH": str(ROOT), **env}, capture_output=True,
                          text=True, timeout=60)


def test_the_command_reads_the_token_and_never_prints_it(tmp_path):
    token = token_of(APP_ID)
    result = _run(tmp_path, DISCORD_TOKEN=token)
    assert result.returncode == 0, result.stderr
    assert result.stdout == invite.invite_url(APP_ID) + "\n"
    assert token not in result.stdout + result.stderr
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={token}\n", encoding="utf-8")
    from_file = _run(tmp_path)
    assert from_file.stdout == result.stdout


@pytest.mark.parametrize(("args", "env", "says"), [
    ((), {"DISCORD_TOKEN": "garbage.secret-part"}, "does not look like a bot token"),
    ((), {}, "no DISCORD_TOKEN is set"),
    (("--application-id", "my-app"), {}, "an application id is 15 to 21 digits"),
])
def test_what_cannot_be_read_is_one_line_and_status_2(tmp_path, args, env, says):
    result = _run(tmp_path, *args, **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], result.stderr
    assert result.stdout == ""
    assert "secret-part" not in result.stderr


def test_setup_doc_lists_the_same_permissions():
    text = (ROOT / "docs" / "setup.md").read_text(encoding="utf-8")
    section = text.split("## Permissions", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (?!permission |---)(.+?) \| (.+?) \|$", section, re.M)
    assert rows == [(shown, why) for _, shown, why in invite.PERMISSIONS]
    assert "python -m bot invite" in text


def test_setup_doc_names_the_intents_the_bot_asks_for():
    from bot.app import create_bot
    from bot.settings import Config

    intents = create_bot(Config(token=None), cog_names=[]).intents
    assert {name for name, on in intents if on} == {"guilds"}
    assert not (intents.members or intents.presences or intents.message_content)
    text = (ROOT / "docs" / "setup.md").read_text(encoding="utf-8")
    assert "one gateway intent, **Guilds**" in text
