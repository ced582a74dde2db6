"""A member erased (``python -m db delete-player``, another process beside the running bot) while
a Focus window of theirs is open: a practice round, a set's practice round, the daily challenge.
Their next answer is refused with a plain sentence in their language, the window is closed, and
nothing of them is stored again: no player row, no answer, no rollup (the erasure test's scan of
every column of every table finds nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from test_db_erasure import run_cli, traces

from tests.french import fr

NAME = "Zéphyrine Quarkwood"
SAID = {"en": "Your data on this server was erased while this window was open: this answer was "
              "not kept, and the window is closed.",
        "fr": fr("Tes données sur ce serveur ont été effacées pendant que cette fenêtre était "
              "ouverte : cette réponse n'est pas gardée, et la fenêtre est fermée.")}
#: The command that opens each kind of window, in English and French.
OPEN = {"practice": ("focus practice", "focus entraînement"),
        "set": ("focus practice", "focus entraînement"),
        "daily": ("focus daily", "focus défi-du-jour"),
        "daily, last answer": ("focus daily", "focus défi-du-jour")}
ANSWER = {"en": "Answer", "fr": "Répondre"}


async def open_window(standin: Any, member: Any, kind: str, lang: str) -> Any:
    command = OPEN[kind][lang == "fr"]
    if kind == "set":
        option = {"set": "Doubles"} if lang == "en" else {"série": "Doubles"}
        return (await standin.slash(member, command, options=option)).reply
    return (await standin.slash(member, command)).reply


async def answer(standin: Any, member: Any, window: Any, lang: str) -> Any:
    opened = await standin.click(member, window, label=ANSWER[lang])
    assert opened.modal is not None
    return await standin.submit_modal(member, opened, {"answer": "7"})


@pytest.mark.parametrize(("kind", "lang"), [
    ("practice", "en"), ("set", "en"), ("daily", "en"), ("daily, last answer", "en"),
    ("practice", "fr"), ("daily", "fr")])
async def test_an_answer_after_the_members_erasure_is_refused_and_stores_nothing(
        standin, start_bot, clock, kind, lang):
    bot = await start_bot()
    roux = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(roux, "class questions upload", file=standin.upload(
        "Doubles.csv", b"2 x 4,8\n3 x 5,15\n6 x 2,12\n7 x 2,14\n"))
    zed = standin.add_member(NAME, locale="en-US" if lang == "en" else "fr")
    window = await open_window(standin, zed, kind, lang)
    # Stored: the member is a player with answers (the daily's last one would finish it).
    for _ in range(5 if kind == "daily, last answer" else 1):
        clock.now += 2.0
        await answer(standin, zed, window, lang)
    assert traces(bot.settings.db_path, zed.id, NAME) != []

    code = await run_cli("delete-player", str(standin.guild.id), str(zed.id),
                         "--db", str(bot.settings.db_path))
    assert code == 0
    assert traces(bot.settings.db_path, zed.id, NAME) == []

    clock.now += 2.0
    refused = await answer(standin, zed, window, lang)
    assert refused.reply.content == SAID[lang]
    assert refused.reply.ephemeral_to == zed.id
    # The window is closed: a click says it expired, and nothing of them came back.
    again = await standin.click(zed, window, label=ANSWER[lang])
    assert again.modal is None and again.reply.ephemeral_to == zed.id
    assert traces(bot.settings.db_path, zed.id, NAME) == []
    assert await bot.db.players.get(standin.guild.id, zed.id) is None

    # A new window afterwards is a newcomer's, stored as any.
    window = await open_window(standin, zed, "daily" if kind.startswith("daily") else kind, lang)
    await answer(standin, zed, window, lang)
    assert await bot.db.players.get(standin.guild.id, zed.id) is not None


async def test_a_live_answer_given_after_the_members_erasure_stores_nothing(standin, start_bot):
    """A live round's window is the round's own: the member's click on Answer put them in its
    state, which the erasure changed; the answer is refused with the same sentence."""
    from test_cog_focus_live import FakeWall, prepare

    bot = await start_bot()
    wall = FakeWall()
    prepare(bot, wall)
    roux = standin.add_member("Mme Roux", teacher=True)
    zed = standin.add_member(NAME)
    question = (await standin.slash(roux, "focus live", count=2, level=4, auto=False)).reply
    wall.now += 2.0
    opened = await standin.click(zed, question, label="Answer")  # joined: in the round's state
    assert opened.modal is not None
    code = await run_cli("delete-player", str(standin.guild.id), str(zed.id),
                         "--db", str(bot.settings.db_path))
    assert code == 0
    refused = await standin.submit_modal(zed, opened, {"answer": "7"})
    assert refused.reply.content == SAID["en"]
    assert traces(bot.settings.db_path, zed.id, NAME) == []
    assert await bot.db.focus.answers_of_round(standin.guild.id, "live:1") == []
