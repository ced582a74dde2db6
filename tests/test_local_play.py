"""Local play as a whole: ``python -m bot --local --script docs/demo.ardoise`` end to end, the end
of the input, ``--local`` over a token, and progress kept from one session to the next."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
from pathlib import Path

from bot.local.terminal import add_arguments, images_folder, play
from bot.settings import Config
from tests.french import fr

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "docs" / "demo.ardoise"


def _run(tmp_path: Path, *args: str, stdin: str = "", **env: str
         ) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k in ("PATH", "HOME", "LANG", "SYSTEMROOT", "PYTHONPATH")}
    # In tmp_path: no .env of the developer's is read.
    # The checkout this test is in, first (the venv may have another checkout installed).
    path = os.pathsep.join(p for p in (str(ROOT), base.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, input=stdin,
                          env={**base, "PYTHONPATH": path,
                               "ARDOISE_DB": str(tmp_path / "play.sqlite3"), **env},
                          capture_output=True, text=True, timeout=120)


def test_the_demo_script_plays_focus_a_shop_turn_with_a_battle_and_rithmomachia(tmp_path):
    result = _run(tmp_path, "--local", "--script", str(DEMO))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    out = result.stdout
    assert out.splitlines()[0].startswith("Ardoise: local play (no DISCORD_TOKEN is set)")
    assert "✗" not in out and "Traceback" not in out + result.stderr
    assert "Practice: 5/6" in out  # the Focus round, one answer wrong on purpose
    assert "You bought" in out and "the battle is posted" in out
    assert "🖼 battle.gif → " in out
    assert "You played `c4-d5`." in out and "You played `a3-a5`." in out
    assert "(refused, as expected)" in out and "resigns game" in out
    saved = [p.name for p in images_folder(tmp_path / "play.sqlite3").iterdir()]
    assert any(name.endswith("battle.gif") for name in saved)
    assert any(name.endswith("rithmomachia.png") for name in saved)


def test_the_end_of_the_input_ends_the_session_with_status_0_even_after_a_bad_line(tmp_path):
    result = _run(tmp_path, stdin="/digits card Odd\nclik 1\n/digits crad Odd\n"
                                  "/digits card Nope\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # At the prompt, a refusal is the bot's sentence, nothing more.
    assert "No digit is called “Nope”" in out and "✗ the bot refused" not in out
    assert out.splitlines()[0].startswith("Ardoise: local play (no DISCORD_TOKEN is set)")
    assert "> /digits card Odd\n[only you (Ana) can see this]" in out
    assert "✗ unknown command 'clik'; did you mean click?" in out
    assert "✗ /digits has no subcommand 'crad'; did you mean /digits card?" in out


def test_local_wins_over_a_token_and_a_failing_script_line_is_status_1(tmp_path):
    script = "/digits card Odd\n/digits card Nope\n/help\n"
    result = _run(tmp_path, "--local", "--script", "-", stdin=script,
                  DISCORD_TOKEN="MTIz.never-print-me")
    assert result.returncode == 1
    assert "--local given, DISCORD_TOKEN ignored" in result.stdout
    assert "<stdin>:2: this line failed; stopping here." in result.stdout
    assert "> /help" not in result.stdout
    assert "never-print-me" not in result.stdout + result.stderr


async def _session(db: Path, lines: str) -> str:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--script", "-"])
    out = io.StringIO()
    status = await play(Config(db_path=db), args, out=out, stdin=io.StringIO(lines))
    assert status == 0, out.getvalue()[-2000:]
    return out.getvalue()


async def test_progress_made_in_one_session_is_there_the_next(tmp_path):
    db = tmp_path / "ardoise.sqlite3"
    await _session(db, "as mme_roux fr teacher\n/settings language fr\n"
                       "as sam\n/rithmo solo\n/rithmo move c4-d5\n")
    later = await _session(db, "as sam\n/rithmo board\n")
    # The same server (its language), the same member and channel (Sam's game, turn 3).
    assert fr("partie n° 1 : @Sam (Blancs) contre Ardoise") in later
    assert "(tour 3)" in later
