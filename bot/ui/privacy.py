"""``/privacy``'s presentation: the short version of docs/privacy.md, in the member's language.

What is kept, what never is, who sees it, this server's retention in plain words, how to get
one's data or be forgotten, and where the whole page is: the operator's own copy, linked when
they published it (``ARDOISE_PRIVACY_URL``), else said to be theirs to give.
"""

from __future__ import annotations

import discord

from bot.i18n import date_text, number, t
from bot.play.privacy import Retention

COLOUR = 0x2A9D8F
#: The embed's fields, in order: catalogue keys ``privacy.<field>.name`` / ``.value``.
FIELDS = ("kept", "never", "who")


def retention_text(retention: Retention, lang: str) -> str:
    """How long this server keeps its members' answers and finished games, in a sentence."""
    if retention.days is not None:
        return t("privacy.retention.days", lang, count=retention.days,
                 days=number(retention.days, lang))
    if retention.until is not None:
        return t("privacy.retention.until", lang, day=date_text(retention.until, lang))
    return t("privacy.retention.forever", lang)


def privacy_embed(retention: Retention, lang: str, url: str | None) -> discord.Embed:
    embed = discord.Embed(title=t("privacy.title", lang), description=t("privacy.intro", lang),
                          colour=COLOUR)
    for name in FIELDS:
        embed.add_field(name=t(f"privacy.{name}.name", lang),
                        value=t(f"privacy.{name}.value", lang), inline=False)
    embed.add_field(name=t("privacy.retention.name", lang),
                    value=retention_text(retention, lang), inline=False)
    embed.add_field(name=t("privacy.rights.name", lang), value=t("privacy.rights.value", lang),
                    inline=False)
    page = (t("privacy.page.linked", lang, url=url) if url is not None
            else t("privacy.page.ask", lang))
    embed.add_field(name=t("privacy.page.name", lang), value=page, inline=False)
    return embed
