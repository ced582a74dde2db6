"""The master level through the real bot: offered as level 4 in both languages, it opens a game
with a turn searched in the bot's worker processes (not on the event loop), which stop with the
bot."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.rithmo import Game
from bot.settings import Config, ConfigError


async def test_a_french_member_plays_the_master_and_ardoise_opens_from_its_workers(
        standin, start_bot):
    bot = await start_bot()
    lea = standin.add_member("Léa", locale="fr")
    started = await standin.slash(lea, "rithmo solo", level=4, colour="black")
    assert "niveau 4 (maître)" in started.reply.content, started.reply.content
    assert started.reply.attachments
    game = await bot.db.rithmo.require_game(1)
    assert (game.white_id, game.black_id, len(game.turns)) == (None, lea.id, 1)
    Game().push(game.turns[0].notation)  # a legal opening turn
    service = bot.get_cog("Rithmo").flow.service
    assert service.pool.started  # searched in the pool, not in a thread of the bot
    await bot.close()
    assert not service.pool.started  # the workers went with the bot


async def test_level_four_is_master_in_english(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    started = await standin.slash(ana, "rithmo solo", level=4)  # Ana opens: nothing searched
    assert "level 4 (master)" in started.reply.content, started.reply.content


def test_the_strong_levels_thinking_time_is_a_setting() -> None:
    assert Config.from_env({}, env_file=None).strong_seconds == 0.5
    assert Config.from_env({"ARDOISE_STRONG_SECONDS": "0.3"}, env_file=None).strong_seconds == 0.3
    for bad in ("soon", "0", "60"):
        with pytest.raises(ConfigError):
            Config.from_env({"ARDOISE_STRONG_SECONDS": bad}, env_file=None)


async def test_the_bots_search_pool_thinks_the_time_set(standin, start_bot, bot_runner):
    bot = await start_bot()
    await bot_runner.stop(bot)
    bot = await start_bot(settings=replace(bot.settings, strong_seconds=0.3))
    assert bot.get_cog("Rithmo").flow.service.pool.seconds == {"strong": 0.3}
