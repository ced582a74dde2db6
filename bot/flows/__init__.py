"""The conductors: the Discord side of each interaction, around the use cases.

A cog declares commands and options and calls one method of its flow; the flow conducts the
rest — the interaction's language, deferring before slow work, calling the use cases of
``bot/play`` (which say what happened, as data), rendering it with ``bot/ui`` (embeds, views,
pictures, texts), posting it through ``bot/replies``, following up, starting a timer. A button or
a menu that outlives its command (``bot/ui``'s views, ``bot.views.GameButton``) calls back into the
same flow through a protocol its module declares and the flow registers in the services
(``Services.kept``): the presentation never imports a flow, so no import circle.

One module per game and one for the classroom::

    bot/flows/rithmo.py     /rithmo: challenges, turns, draws, resignations, hints, puzzles
    bot/flows/digits.py     /digits: challenges, shop turns, Ready, battles, the end of a Focus
    bot/flows/focus.py      /focus: practice, daily, live and assignments, one round-owner protocol
    bot/flows/classroom.py  /class: the teacher's tools
    bot/flows/settings.py   /settings, and the daily erasure by age
    bot/flows/server.py     /help, /privacy, /progress: the pages every member reads

Who builds them: each cog, at construction, from the bot and the services it is given
(``Flow(bot, services)``); the flow keeps both, typed. tests/test_flows.py holds the cogs to it.
"""

from __future__ import annotations

from bot.services import ServicedBot, Services


class Flow:
    """A conductor: the bot (to post in a channel, to wait until it is ready) and the services."""

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        self.bot = bot
        self.services = services
