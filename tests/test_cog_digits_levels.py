"""The 20 Digits' solo levels through the real bot (issue 15): ``/digits solo level:…`` starts a
match at that level and says so, "adapt" reads the member's stored solo results, and the ghost
pool follows the level."""

from __future__ import annotations

from typing import Any

from test_cog_digits import act, match_id_of, match_state, take_focus

from bot.digits.levels import solo_match
from bot.digits.match import Match
from bot.digits.slate import Slate
from bot.local.server import Member, Message
from bot.play.digits import GHOST_FORMAT, new_state
from tests.french import fr


async def finished_solo(bot: Any, guild_id: int, member: Member, level: str | None,
                        result: float) -> int:
    """A solo match of ``member`` at ``level`` stored as finished with ``result`` (1 a win,
    0 a loss): what "adapt" reads. ``level`` None: a match saved before levels (no shadow)."""
    player = str(member.id)
    match = Match.new([player], seed=1) if level is None else solo_match(player, level, seed=1)
    row = await bot.db.digits.create_match(guild_id, [member.id],
                                           new_state(match, {player: member.name}, "en"),
                                           status="active")
    await bot.db.digits.finish_match(row.match_id, row.state, row.version,
                                     {member.id: result})
    return row.match_id


async def set_aside(bot: Any, guild_id: int, member: Member) -> None:
    """Leave the member's open solo match without a result (``/digits solo`` would ask about
    it first), as if it had been abandoned: "adapt" counts finished matches only."""
    for open_match in await bot.db.digits.open_matches(guild_id, member.id, kind="ghost"):
        await bot.db.digits.save_match(open_match.match_id, open_match.state,
                                       open_match.version, status="abandoned")


async def test_a_gentle_solo_starts_gentle_and_says_so(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    started = await standin.slash(ana, "digits solo", level="gentle")
    board = started.reply
    assert "Level: **gentle** (the shadow gets fewer Focus answers right" in board.text()
    assert "Level: gentle: the shadow gets fewer Focus answers right" in board.text()
    engine = (await match_state(bot, board))["engine"]
    assert engine["level"] == "gentle" and engine["format"] == 2
    # It plays at that level: after a round against the shadow, the message still says it.
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    await act(standin, ana, shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    assert "**The shadow (bot)**" in battle.text()
    assert "gentle: the shadow" in battle.text()
    assert (await match_state(bot, battle))["engine"]["level"] == "gentle"


async def test_the_default_level_is_gentle_and_strong_is_strong(standin, start_bot):
    # Issue "games a child wins": a member's first solo match, with no level asked, is gentle.
    bot = await start_bot()
    ana, bob = standin.add_member("Ana"), standin.add_member("Bob")
    gentle = (await standin.slash(ana, "digits solo")).reply
    assert "Level: **gentle** (the shadow gets fewer Focus answers right" in gentle.text()
    assert (await match_state(bot, gentle))["engine"]["level"] == "gentle"
    fair = (await standin.slash(standin.add_member("Cy"), "digits solo", level="fair")).reply
    assert "Level: **fair** (the shadow shops as a steady player does" in fair.text()
    strong = (await standin.slash(bob, "digits solo", level="strong")).reply
    assert "Level: **strong**" in strong.text()
    assert (await match_state(bot, strong))["engine"]["level"] == "strong"


async def test_french_level_names(standin, start_bot):
    bot = await start_bot()
    léa = standin.add_member("Léa", locale="fr")
    board = (await standin.slash(léa, "chiffres solo", niveau="strong")).reply
    assert fr("Niveau : **fort** (l'ombre essaie ses placements") in board.text()
    assert fr("Niveau") + ": " + fr("fort : l'ombre essaie") in board.text()  # a field
    assert (await match_state(bot, board))["engine"]["level"] == "strong"


async def test_adapt_starts_gentle_then_follows_two_losses_or_two_wins(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana, bob, cy = (standin.add_member(n) for n in ("Ana", "Bob", "Cy"))
    # No result yet: gentle (issue "games a child wins": a first match is won).
    first = (await standin.slash(cy, "digits solo", level="adapt")).reply
    assert "Adapt: no solo match at a level yet, so **gentle** to begin with." in first.text()
    assert (await match_state(bot, first))["engine"]["level"] == "gentle"

    # Two losses in a row at fair (after a win, and an older match before levels): gentle.
    await finished_solo(bot, guild, ana, None, 0.0)
    await finished_solo(bot, guild, ana, "fair", 1.0)
    await finished_solo(bot, guild, ana, "fair", 0.0)
    await finished_solo(bot, guild, ana, "fair", 0.0)
    board = (await standin.slash(ana, "digits solo", level="adapt")).reply
    assert "Adapt: you lost your last two at fair, so **gentle** this time." in board.text()
    assert (await match_state(bot, board))["engine"]["level"] == "gentle"

    # Two wins in a row at fair: strong.
    await finished_solo(bot, guild, bob, "fair", 1.0)
    await finished_solo(bot, guild, bob, "fair", 1.0)
    board = (await standin.slash(bob, "digits solo", level="adapt")).reply
    assert "Adapt: you won your last two at fair, so **strong** this time." in board.text()
    assert (await match_state(bot, board))["engine"]["level"] == "strong"

    # One loss at the new level changes nothing yet; a second one steps back.
    await set_aside(bot, guild, bob)
    await finished_solo(bot, guild, bob, "strong", 0.0)
    board = (await standin.slash(bob, "digits solo", level="adapt")).reply
    assert "Adapt: **strong** again, as last time" in board.text()
    await set_aside(bot, guild, bob)
    await finished_solo(bot, guild, bob, "strong", 0.0)
    board = (await standin.slash(bob, "digits solo", level="adapt")).reply
    assert "Adapt: you lost your last two at strong, so **fair** this time." in board.text()


async def test_adapt_counts_only_this_server_and_this_member(standin, start_bot):
    bot = await start_bot()
    ana, bob = standin.add_member("Ana"), standin.add_member("Bob")
    # Two wins on another server, two losses of another member here: gentle for Ana.
    await finished_solo(bot, standin.guild.id + 1, ana, "fair", 1.0)
    await finished_solo(bot, standin.guild.id + 1, ana, "fair", 1.0)
    await finished_solo(bot, standin.guild.id, bob, "fair", 0.0)
    await finished_solo(bot, standin.guild.id, bob, "fair", 0.0)
    board = (await standin.slash(ana, "digits solo", level="adapt")).reply
    assert "so **gentle** to begin with" in board.text()


async def store_ghost(bot: Any, guild_id: int, member: Member, slate: dict[str, str]) -> None:
    """``member``'s slate of round 1, in the server's ghost pool."""
    match = solo_match(str(member.id), "fair", seed=2)
    row = await bot.db.digits.create_match(
        guild_id, [member.id], new_state(match, {str(member.id): member.name}, "en"),
        status="active")
    await bot.db.digits.record_ghost(
        row.match_id, member.id, 1,
        {"format": GHOST_FORMAT, "slate": Slate.from_json(slate).to_json(), "focus": 3,
         "name": member.name})


async def first_battle(standin: Any, bot: Any, member: Member, level: str) -> Message:
    board = (await standin.slash(member, "digits solo", level=level)).reply
    shop = await take_focus(standin, bot, member, board)
    await act(standin, member, shop, "digits:ready")
    return await standin.wait_for_message(
        lambda m: bool(m.attachments) and match_id_of(board) == match_id_of(m), after=board)


async def test_the_ghost_pool_follows_the_level(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    rich, poor = standin.add_member("Rich"), standin.add_member("Poor")
    # Round 1's ghosts: eight digits (16 gold, more than any shadow earns in round 1) and one
    # Zero (2 gold, less than any shadow spends).
    await store_ghost(bot, guild, rich, {str(c): "Odd" for c in range(1, 9)})
    await store_ghost(bot, guild, poor, {"1": "Zero"})
    ana, bob, cy = (standin.add_member(n) for n in ("Ana", "Bob", "Cy"))
    gentle = await first_battle(standin, bot, ana, "gentle")
    assert "**Ghost of Poor**" in gentle.text() and "Rich" not in gentle.text()
    strong = await first_battle(standin, bot, bob, "strong")
    assert "**Ghost of Rich**" in strong.text() and "Poor" not in strong.text()
    # Fair meets either; over the pool, never the shadow while there are ghosts.
    fair = await first_battle(standin, bot, cy, "fair")
    assert "Ghost of Rich" in fair.text() or "Ghost of Poor" in fair.text()
    assert "The shadow (bot)" not in fair.text()
