"""/privacy through the real bot against the stand-in: private, in the member's language (or the
server's), this server's retention in words, the operator's link when set, within Discord's
limits for every retention; and ``ARDOISE_PRIVACY_URL`` read and checked."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.play.privacy import FOREVER, Retention, server_retention
from bot.settings import Config, ConfigError
from bot.texts import t
from bot.ui.privacy import privacy_embed, retention_text
from db import Database
from tests.french import fr

URL = "https://school.example/ardoise/privacy"
RETENTIONS = (FOREVER, Retention(days=1), Retention(days=30), Retention(days=3650),
              Retention(until=date(2027, 7, 4)))


def fields(record) -> dict[str, str]:
    return {f["name"]: f["value"] for f in record.reply.embeds[0]["fields"]}


def assert_fits(embed: dict) -> None:
    """Discord's limits for one embed (``bot.replies.fit`` would cut, and log, past them)."""
    assert len(embed["title"]) <= 256 and len(embed["description"]) <= 4096
    assert len(embed["fields"]) <= 25
    assert all(len(f["name"]) <= 256 and len(f["value"]) <= 1024 for f in embed["fields"])
    total = len(embed["title"]) + len(embed["description"]) + sum(
        len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert total <= 6000


async def test_a_student_reads_it_privately_in_english(standin, start_bot, caplog):
    caplog.set_level("WARNING", logger="bot.replies")
    await start_bot()
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "privacy")
    assert record.ephemeral
    embed = record.reply.embeds[0]
    assert embed["title"] == "Ardoise and your data"
    shown = fields(record)
    assert list(shown) == ["What I keep", "What I never keep", "Who sees it",
                           "How long this server keeps it", "Your data, or to be forgotten",
                           "The whole page"]
    # A new server's default (365 days), then what a teacher chose, as stored.
    assert shown["How long this server keeps it"] == (
        "Every day, your answers and finished games older than 365 days are erased.")
    teacher = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(teacher, "settings privacy", retention="forever")
    assert fields(await standin.slash(sam, "privacy"))["How long this server keeps it"] == (
        "Nothing is erased by age on this server: your answers and finished games are kept "
        "until they are erased (at your request, or by a teacher at the end of the school year).")
    assert "Your messages (Discord does not send them to me), your e-mail address" in shown[
        "What I never keep"]
    assert shown["The whole page"].endswith("Ardoise's page docs/privacy.md. Ask the server's "
                                            "admins or Ardoise's operator for it.")
    assert_fits(embed)
    assert "cut a reply" not in caplog.text


async def test_a_french_member_reads_it_in_french_under_its_french_name(standin, start_bot):
    await start_bot()
    léa = standin.add_member("Léa", locale="fr")
    record = await standin.slash(léa, "confidentialité")
    assert record.ephemeral
    embed = record.reply.embeds[0]
    assert embed["title"] == "Ardoise et tes données"
    shown = fields(record)
    assert list(shown) == ["Ce que je garde", "Ce que je ne garde jamais", "Qui les voit",
                           "Combien de temps ce serveur les garde",
                           "Tes données, ou te faire oublier", "La page complète"]
    assert shown["Combien de temps ce serveur les garde"].startswith(
        "Chaque jour, tes réponses et tes parties finies de plus de 365")
    assert shown["Qui les voit"].startswith(fr("Toi : /progrès."))
    assert "docs/privacy.fr.md" in shown["La page complète"]
    assert_fits(embed)


async def test_the_servers_language_wins_over_the_members(standin, start_bot):
    await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(head, "settings language", language="fr")
    sam = standin.add_member("Sam")  # an English Discord
    record = await standin.slash(sam, "privacy")
    assert record.reply.embeds[0]["title"] == "Ardoise et tes données"


async def test_the_operators_page_is_linked_when_set(standin, start_bot):
    await start_bot(privacy_url=URL)
    sam = standin.add_member("Sam")
    shown = fields(await standin.slash(sam, "privacy"))
    assert shown["The whole page"] == f"Every table, who sees it and how long it is kept: {URL}"
    léa = standin.add_member("Léa", locale="fr")
    shown = fields(await standin.slash(léa, "confidentialité"))
    assert shown["La page complète"].endswith(fr(f" : {URL}"))


async def test_the_help_lists_it_for_everyone(standin, start_bot):
    await start_bot()
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "help")
    text = "\n".join(f["value"] for f in record.reply.embeds[0]["fields"])
    assert "`/privacy` — What Ardoise keeps about you, who sees it, for how long" in text
    léa = standin.add_member("Léa", locale="fr")
    record = await standin.slash(léa, "aide")
    text = "\n".join(f["value"] for f in record.reply.embeds[0]["fields"])
    assert "`/confidentialité` — Ce qu'Ardoise garde sur toi, qui le voit, combien de temps" in text


async def test_privacy_says_the_servers_retention_as_stored(db_location):
    async with await Database.open(db_location) as db:
        assert await server_retention(db, 1234) == Retention(days=365)  # a new server's
        await db.servers.update(1234, retention_days=30)
        assert await server_retention(db, 1234) == Retention(days=30)
        await db.servers.update(1234, retention_days=None, retention_until=date(2027, 7, 4))
        assert await server_retention(db, 1234) == Retention(until=date(2027, 7, 4))
        await db.servers.update(1234, retention_days=None, retention_until=None)
        assert await server_retention(db, 1234) == FOREVER
    assert FOREVER.forever and not Retention(days=30).forever


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_retention_is_said_in_words_and_fits(lang: str):
    said = {r: retention_text(r, lang) for r in RETENTIONS}
    assert said[FOREVER] == t("privacy.retention.forever", lang)
    assert len(set(said.values())) == len(RETENTIONS)
    expected = {"en": ("older than 1 day are", "older than 30 days are", "older than 3,650 days",
                       "end of the school year, 4 July 2027, then"),
                "fr": ("de plus de 1 jour sont", "de plus de 30 jours sont",
                       "de plus de 3 650 jours", "fin de l'année scolaire, le 4 juillet 2027,")}
    for retention, words in zip(RETENTIONS[1:], expected[lang], strict=True):
        assert words in said[retention].replace("\u202f", " ").replace("\xa0", " ")
    for retention in RETENTIONS:
        embed = privacy_embed(retention, lang, URL).to_dict()
        assert_fits(embed)


@pytest.mark.parametrize("bad", [{"days": 0}, {"days": 30, "until": date(2027, 7, 4)}])
def test_a_retention_that_cannot_be_is_refused(bad):
    with pytest.raises(ValueError):
        Retention(**bad)


def test_the_privacy_page_address_is_read_from_the_environment(tmp_path: Path):
    settings = Config.from_env({"ARDOISE_PRIVACY_URL": f"  {URL} "}, None)
    assert settings.privacy_url == URL
    assert f"privacy_url='{URL}'" in repr(settings)
    assert Config.from_env({}, tmp_path / "missing.env").privacy_url is None


@pytest.mark.parametrize("bad", ["school.example/privacy", "javascript:alert(1)",
                                 "https://example.org/a b", "https://example.org/(x)",
                                 "https://", "ftp://example.org/privacy"])
def test_a_privacy_page_address_that_is_no_web_address_is_refused(bad: str):
    with pytest.raises(ConfigError, match="ARDOISE_PRIVACY_URL"):
        Config.from_env({"ARDOISE_PRIVACY_URL": bad}, None)
