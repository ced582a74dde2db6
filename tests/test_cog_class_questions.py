"""/class questions end to end through the stand-in with the real bot: uploads with good and bad
lines (kept or cancelled), good files stored at once, JSON, a French Excel CSV, files refused
whole, a student refused, list/show/delete, and a practice round from a set."""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.local.server import StandInError
from db.question_sets import SetItem

SEED = 7

MIXED_EN = (b"question,answer,topic\n"
            b"3 x 4,12,tables\n"
            b"7 x 8,,tables\n"
            b"half of 5,2.5,halves\n"
            b"\"10, then 20 more\",30\n"
            b"3 X 4,12\n"
            b"ten less than 3,\xe2\x88\x927\n")


async def teacher_bot(start_bot: Any) -> Any:
    bot = await start_bot()
    bot.get_cog("Focus").seed = lambda: SEED
    return bot


async def upload(standin: Any, member: Any, filename: str, data: bytes, **options: Any) -> Any:
    return await standin.slash(member, "class questions upload",
                               file=standin.upload(filename, data), **options)


async def test_an_upload_with_good_and_bad_lines_waits_and_keep_stores_the_good_ones(
        standin, start_bot):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    record = await upload(standin, head, "Tables.csv", MIXED_EN)
    reply = record.reply
    assert reply.ephemeral_to == head.id
    text = reply.text()
    assert "6 questions read, 3 refused:" in text
    assert "Line 3: no answer (“7 x 8”)." in text
    assert ("Line 4: the answer “2.5” is not a whole number: Ardoise reads whole numbers only "
            "(“half of 5”).") in text
    assert "Line 6: the same question as line 2 (“3 X 4”)." in text
    assert await bot.db.question_sets.get(standin.guild.id, "Tables") is None
    kept = await standin.click(head, reply, label="Keep the 3 good questions")
    assert "3 questions stored" in kept.reply.text()
    found = await bot.db.question_sets.get(standin.guild.id, "tables")
    assert found is not None and found.author_id == head.id
    assert await bot.db.question_sets.items(found.set_id) == [
        SetItem("3 x 4", 12, "tables"), SetItem("10, then 20 more", 30, None),
        SetItem("ten less than 3", -7, None)]
