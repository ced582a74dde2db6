"""Alt text: every file the bot posts carries a description in the member's language
(``bot/ui/alt_text.py``); a battle's says who played, who won and the score."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.ui import alt_text
from tests.french import fr as french
from tests.test_cog_digits import act, match_state, take_focus

ROOT = Path(__file__).resolve().parent.parent


def _file_calls() -> list[tuple[str, ast.Call]]:
    """Every ``discord.File(...)`` call in the bot's code (bot/ and cogs/)."""
    calls = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "File" and isinstance(node.func.value, ast.Name)
                        and node.func.value.id == "discord"):
                    calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return calls


def test_every_file_the_bot_posts_has_a_description() -> None:
    calls = _file_calls()
    assert len(calls) >= 14  # the scan finds them: the shop, the slate, the replay, the board…
    missing = [where for where, call in calls
               if not any(k.arg == "description" for k in call.keywords)]
    assert missing == []


def test_the_scan_sees_a_file_without_description() -> None:
    tree = ast.parse("import discord\nf = discord.File(b, filename='x.png')\n")
    [call] = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert not any(k.arg == "description" for k in call.keywords)


def test_descriptions_stay_within_discords_limit() -> None:
    long = alt_text.ranking("T" * 2000, [{"rank": 1, "name": "Ana", "score": 3}], "en")
    assert len(long) == alt_text.MAX_DESCRIPTION and long.endswith("…")


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_solo_battles_replay_says_who_played_who_won_and_the_score(
        standin, start_bot, locale):
    bot = await start_bot()
    ana = standin.add_member("Ana", locale=locale)
    fr = locale == "fr"
    board = (await standin.slash(ana, "chiffres solo" if fr else "digits solo")).reply
    shop = await take_focus(standin, bot, ana, board,
                            label="Faire mon Focus" if fr else "Take my Focus")
    said = {a.filename: a.description for a in shop.attachments}
    if fr:
        assert said["shop.png"].startswith(
            french("Ana — boutique de la manche 1 : 11 or, 10 vies. Offres : "))
        assert said["slate.png"] == french("Ana — ardoise de la manche 1, il reste 11 or : vide.")
    else:
        assert said["shop.png"].startswith("Shop of Ana, round 1: 11 gold, 10 lives. Offers: ")
        assert said["slate.png"] == "Slate of Ana, round 1, 11 gold left: empty."
    for slot in (1, 2):
        await act(standin, ana, shop, f"digits:buy:{slot}")
    await act(standin, ana, shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    [gif] = battle.attachments
    assert gif.filename == "battle.gif" and gif.data.startswith(b"GIF8")
    engine = (await match_state(bot, battle))["engine"]
    [fought] = engine["rounds"]
    result = fought["battle"]
    n = result["exchanges"]
    left_n, right_n = (len(result["survivors"][s]) for s in ("left", "right"))
    lives = fought["lives"]
    ana_lives, shadow_lives = lives[fought["left"]], lives[fought["right"]]
    assert fought["left"] == str(ana.id)
    if fr:
        shadow, inside = "L'ombre (robot)", "l'ombre (robot)"  # a capital only to begin with
        exchanges = f"{n} échange" if n < 2 else f"{n} échanges"
        won = {"left": f"Ana gagne après {exchanges}.",
               "right": f"{shadow} gagne après {exchanges}.",
               "draw": f"Égalité après {exchanges}."}[result["winner"]]
        digits = [f"{k} chiffre" if k < 2 else f"{k} chiffres" for k in (left_n, right_n)]
        expected = (french(f"Rediffusion du combat de la manche 1 : Ana (en bas) contre "
                           f"{inside} "
                    f"(en haut). {won} Chiffres encore debout : Ana {digits[0]}, {inside} "
                    f"{digits[1]}. Vies : Ana {ana_lives}, {inside} {shadow_lives}."))
    else:
        shadow = "The shadow (bot)"
        exchanges = f"{n} exchange" if n == 1 else f"{n} exchanges"
        won = {"left": f"Ana wins after {exchanges}.",
               "right": f"{shadow} wins after {exchanges}.",
               "draw": f"A draw after {exchanges}."}[result["winner"]]
        digits = [f"{k} digit" if k == 1 else f"{k} digits" for k in (left_n, right_n)]
        expected = (f"Replay of the battle of round 1: Ana (below) against {shadow} (above). "
                    f"{won} Digits standing: Ana {digits[0]}, {shadow} {digits[1]}. "
                    f"Lives: Ana {ana_lives}, {shadow} {shadow_lives}.")
    assert gif.description == expected
    assert n > 0  # a real battle: both sides fielded digits
