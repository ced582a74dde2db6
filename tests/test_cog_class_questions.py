"""/class questions end to end through the stand-in with the real bot: uploads with good and bad
lines (kept or cancelled), good files stored at once, JSON, a French Excel CSV, files refused
whole, a student refused, list/show/delete, and a practice round from a set."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from bot.domain import DomainError
from bot.ui.assignments import ASSIGNMENT_FLOWS
from bot.ui.question_sets import (
    PENDING_SECONDS,
    QUESTION_FLOWS,
    PendingUploads,
    QuestionsButton,
)
from bot.ui.retention import END_OF_YEAR_FLOWS
from db.question_sets import SetItem

SEED = 7

MIXED_EN = (b"question,answer,topic\n"
            b"3 x 4,12,tables\n"
            b"7 x 8,,tables\n"
            b"half of 5,1/0,halves\n"
            b"\"10, then 20 more\",30\n"
            b"3 X 4,12\n"
            b"ten less than 3,\xe2\x88\x927\n")


async def teacher_bot(start_bot: Any) -> Any:
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
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
    assert ("Line 4: the answer “1/0” is not a number: a fraction's denominator is never 0 "
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


async def test_a_french_upload_with_bad_lines_is_listed_in_french_and_cancel_stores_nothing(
        standin, start_bot):
    bot = await teacher_bot(start_bot)
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    data = ("question;réponse;thème\n"
            "Combien font 6 × 7 ?;42;tables\n"
            "La moitié de 9 ?;4,5;moitiés\n"
            ";3\n"
            "Un tiers de 9 ?;3 | \n").encode()
    record = await standin.slash(prof, "classe questions envoyer",
                                 fichier=standin.upload("moitiés.csv", data), nom="Moitiés")
    text = record.reply.text()
    assert "4 questions lues, 2 refusées :" in text
    assert "Ligne 3" not in text  # 4,5 is a number
    assert "Ligne 4 : pas de question." in text
    assert ("Ligne 5 : « 3 \\| » a une réponse vide : écris une réponse de chaque côté de chaque | "
            "(« Un tiers de 9 ? »).") in text
    assert "Rien n'est encore enregistré" in text
    reply = record.reply
    cancelled = await standin.click(prof, reply, label="Annuler")
    assert cancelled.reply.content == "Annulé : rien n'a été enregistré."
    assert cancelled.reply.components == []
    assert await bot.db.question_sets.of_server(standin.guild.id) == []


async def test_a_file_of_good_lines_is_stored_at_once_and_its_name_cannot_be_taken_again(
        standin, start_bot):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    record = await upload(standin, head, "Tables of 7.csv", b"7 x 1,7\n7 x 2,14\n7 x 3,21\n")
    assert "Set “Tables of 7” stored" in record.reply.text()
    assert "3 questions stored" in record.reply.text()
    assert record.reply.components == []
    found = await bot.db.question_sets.get(standin.guild.id, "tables of 7")
    assert found is not None and found.size == 3
    again = await upload(standin, head, "tables OF 7.csv", b"7 x 4,28\n")
    assert again.reply.content.startswith("There is already a set named “Tables of 7”")
    assert (await bot.db.question_sets.get(standin.guild.id, "Tables of 7")).size == 3


async def test_a_json_file_and_a_windows_1252_semicolon_csv_are_read(standin, start_bot):
    bot = await teacher_bot(start_bot)
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    json_data = ('[{"question": "2 + 2", "answer": 4, "topic": "addition"},'
                 ' {"text": "10 − 3", "answer": "7"}, {"question": "1 000 + 1", "answer": 1001.0}]'
                 ).encode()
    stored = await standin.slash(prof, "classe questions envoyer",
                                 fichier=standin.upload("calcul.json", json_data))
    assert "3 questions enregistrées" in stored.reply.text()
    found = await bot.db.question_sets.get(standin.guild.id, "calcul")
    assert await bot.db.question_sets.items(found.set_id) == [
        SetItem("2 + 2", 4, "addition"), SetItem("10 − 3", 7), SetItem("1 000 + 1", 1001)]
    excel = ("Question;Réponse;Thème\r\n"
             "Combien d'élèves en tout, à 3 classes de 25 ?;75;problèmes\r\n"
             "Le double de 1 250 ?;2 500;doubles\r\n").encode("cp1252")
    record = await standin.slash(prof, "classe questions envoyer",
                                 fichier=standin.upload("problèmes.csv", excel))
    assert "2 questions enregistrées" in record.reply.text()
    found = await bot.db.question_sets.get(standin.guild.id, "problèmes")
    assert await bot.db.question_sets.items(found.set_id) == [
        SetItem("Combien d'élèves en tout, à 3 classes de 25 ?", 75, "problèmes"),
        SetItem("Le double de 1 250 ?", 2500, "doubles")]


async def test_files_refused_whole_store_nothing(standin, start_bot):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    big = b"1 + 1,2\n" * 20_000
    refused = await upload(standin, head, "big.csv", big)
    assert refused.reply.content == ("This file has 160 kB: a question file has at most "
                                     "100 kB.")
    refused = await upload(standin, head, "sheet.xlsx", b"PK\x03\x04")
    assert refused.reply.content.startswith("“sheet.xlsx” is not a question file")
    refused = await upload(standin, head, "broken.json", b'[{"question": "1", ')
    assert refused.reply.content.startswith("This JSON is not valid (line 1)")
    refused = await upload(standin, head, "deep.json", b"[" * 50_000)
    assert refused.reply.content.startswith("This JSON nests deeper than 32 levels of brackets")
    nothing = await upload(standin, head, "blank.csv", b"question,answer\n7 x 8,\n")
    assert "1 question read, 1 refused:" in nothing.reply.text()
    assert "No question can be used: nothing was stored." in nothing.reply.text()
    assert nothing.reply.components == []
    assert await bot.db.question_sets.of_server(standin.guild.id) == []


@pytest.mark.parametrize(("locale", "status", "said"), [
    ("en-US", 503, "I could not read the file from Discord: send it again."),
    ("fr", 404, "Je n'ai pas pu lire le fichier depuis Discord : envoie-le de nouveau.")])
async def test_a_file_discord_fails_to_give_is_said_plainly_and_stores_nothing(
        standin, start_bot, locale, status, said):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True, locale=locale)
    sheet = standin.upload("Tables.csv", b"3 x 4,12,tables\n")
    standin.fail_download(sheet, status)
    command = "class questions upload" if locale == "en-US" else "classe questions envoyer"
    refused = await standin.slash(head, command, file=sheet) if locale == "en-US" else \
        await standin.slash(head, command, fichier=sheet)
    assert refused.reply.content == said
    assert refused.reply.ephemeral_to == head.id
    assert await bot.db.question_sets.of_server(standin.guild.id) == []
    # Sent again, it is read.
    again = await upload(standin, head, "Tables.csv", b"3 x 4,12,tables\n")
    assert [s.name for s in await bot.db.question_sets.of_server(standin.guild.id)] == ["Tables"]
    assert again.reply.ephemeral_to == head.id


async def test_a_long_list_of_refusals_is_cut_and_attached_in_full(standin, start_bot):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    data = b"1 + 1,2\n" + b"".join(f"question {n},\n".encode() for n in range(40))
    record = await upload(standin, head, "many.csv", data)
    reply = record.reply
    assert "41 questions read, 40 refused:" in reply.text()
    assert "…and 25 more lines: the whole list is in the attached file." in reply.text()
    assert [a.filename for a in reply.attachments] == ["refused-lines.txt"]
    listed = reply.attachments[0].data.decode("utf-8-sig").splitlines()
    assert len(listed) == 40 and listed[-1] == "Line 41: no answer (“question 39”)."
    kept = await standin.click(head, reply, label="Keep the good question")
    assert "1 question stored" in kept.reply.text()
    assert kept.reply.attachments == []
    assert (await bot.db.question_sets.get(standin.guild.id, "many")).size == 1


async def test_a_keep_click_after_a_restart_stores_nothing_and_says_so(
        standin, start_bot, restart_bot):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    record = await upload(standin, head, "Tables.csv", MIXED_EN)
    bot = await restart_bot(bot)
    late = await standin.click(head, record.reply, label="Keep the 3 good questions")
    assert late.reply.content == (
        "This upload waited too long (or I restarted): nothing was stored. Send the file again "
        "with /class questions upload.")
    assert await bot.db.question_sets.of_server(standin.guild.id) == []


async def test_a_student_may_not_upload_list_or_delete(standin, start_bot):
    bot = await teacher_bot(start_bot)
    sam = standin.add_member("Sam")
    refused = await upload(standin, sam, "mine.csv", b"1 + 1,2\n")
    assert refused.reply.content.startswith("Only teachers can add a question set")
    assert refused.ephemeral
    assert (await standin.slash(sam, "class questions list")).reply.content.startswith(
        "Only teachers")
    assert await bot.db.question_sets.of_server(standin.guild.id) == []


async def test_list_show_and_delete(standin, start_bot):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    empty = await standin.slash(head, "class questions list")
    assert "No question set yet" in empty.reply.text()
    await upload(standin, head, "Tables.csv", b"3 x 4,12,tables\n*bold* @everyone,1,odd\n")
    await bot.db.question_sets.create(standin.guild.id, "Old set", None,
                                      [SetItem("1 + 1", 2)])
    listed = await standin.slash(head, "class questions list")
    text = listed.reply.text()
    assert "**Old set** · 1 question · no topic · by a former teacher" in text
    assert "**Tables** · 2 questions · tables, odd · by Mme Roux" in text

    offered = await standin.autocomplete(head, "class questions show", "name", name="tab")
    assert offered == [{"name": "Tables", "value": "Tables"}]
    shown = await standin.slash(head, "class questions show", name="tables")
    text = shown.reply.text()
    assert "Tables · 2 questions" in text
    assert "1. 3 x 4 → **12** · tables" in text
    assert "2. \\*bold\\* @\u200beveryone → **1** · odd" in text
    rows = list(csv.reader(io.StringIO(shown.reply.attachments[0].data.decode("utf-8-sig"))))
    assert shown.reply.attachments[0].filename == "Tables.csv"
    assert rows == [["question", "answer", "topic"], ["3 x 4", "12", "tables"],
                    ["*bold* @everyone", "1", "odd"]]

    asked = await standin.slash(head, "class questions delete", name="Tables")
    assert asked.reply.content == ("Delete the set “Tables” (2 questions)? The assignments that "
                                   "use it keep the questions they drew.")
    spared = await standin.click(head, asked.reply, label="Keep it")
    assert spared.reply.content == "Nothing was deleted."
    asked = await standin.slash(head, "class questions delete", name="Tables")
    done = await standin.click(head, asked.reply, label="Delete it")
    assert done.reply.content.startswith("The set “Tables” is deleted.")
    assert await bot.db.question_sets.get(standin.guild.id, "Tables") is None
    unknown = await standin.slash(head, "class questions show", name="Tables")
    assert unknown.reply.content.startswith("There is no question set named “Tables”")


async def test_practice_from_a_set_answered_right_and_wrong_keeps_the_level(
        standin, start_bot, clock):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    await upload(standin, head, "Tables.csv",
                 b"3 x 4,12,tables\n5 * 5 * 1,25,squares\nWhat is 100 - 1?,99\n")
    ana = standin.add_member("Ana")
    offered = await standin.autocomplete(ana, "focus practice", "set", set="TAB")
    assert offered == [{"name": "Tables", "value": "Tables"}]
    record = await standin.slash(ana, "focus practice", set="tables")
    window = record.reply
    assert "Practice · Tables" in window.text()
    answers = {"3 x 4": 12, "5 * 5 * 1": 25, "What is 100 - 1?": 99}
    # As the window shows them: " = ?" unless the question asks itself, markdown escaped.
    shown = {"3 x 4": "## 3 x 4 = ?", "5 * 5 * 1": "## 5 \\* 5 \\* 1 = ?",
             "What is 100 - 1?": "## What is 100 - 1?\n"}
    asked = []
    for i in range(6):
        assert "Level" not in window.text()  # a set has no level
        question = next(q for q in answers if shown[q] in window.text() + "\n")
        asked.append(question)
        clock.now += 2
        typed = answers[question] if i % 2 == 0 else answers[question] + 1
        opened = await standin.click(ana, window, label="Answer")
        await standin.submit_modal(ana, opened, {"answer": f" {typed:,} ".replace(",", " ")})
    assert sorted(asked[:3]) == sorted(answers) and sorted(asked[3:]) == sorted(answers)
    text = window.text()
    assert "3/6" in text
    assert "your Focus level does not change" in text
    assert "5 \\* 5 \\* 1 = **25**" in text
    stored = list(reversed(await bot.db.focus.recent(standin.guild.id, ana.id)))
    assert [a.question for a in stored] == asked
    assert [a.correct for a in stored] == [True, False] * 3
    topics = {"3 x 4": "tables", "5 * 5 * 1": "squares", "What is 100 - 1?": "Tables"}
    assert [a.topic for a in stored] == [topics[q] for q in asked]
    assert {(a.source, a.level) for a in stored} == {("practice", 1)}
    assert all(a.round_key.startswith("practice-set:") for a in stored)
    player = await bot.db.players.get(standin.guild.id, ana.id)
    assert player is None or player.focus_level == 1

    await standin.click(ana, window, label="Another round")
    assert "Practice · Tables" in window.text() and "question 1/6" in window.text()
    assert "3/6" not in window.text()


async def test_practice_refuses_an_unknown_set_and_a_set_with_a_level(standin, start_bot):
    await teacher_bot(start_bot)
    ana = standin.add_member("Ana")
    unknown = await standin.slash(ana, "focus practice", set="nope")
    assert unknown.reply.content.startswith("There is no question set named “nope”")
    both = await standin.slash(ana, "focus practice", set="nope", level=3)
    assert both.reply.content == ("A set of questions has no level: choose a level or a set, "
                                  "not both.")


async def test_long_sets_and_long_refusals_fit_discord_without_being_cut(standin, start_bot,
                                                                        caplog):
    bot = await teacher_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    long_text = "How many apples are left when " + "a very long story goes on " * 6
    items = [SetItem(f"{n}. {long_text}"[:200], n, "a long topic name, still short")
             for n in range(300)]
    await bot.db.question_sets.create(standin.guild.id, "Long", head.id, items)
    for n in range(60):
        await bot.db.question_sets.create(standin.guild.id, f"Set number {n:02} " + "x" * 30,
                                          head.id, [SetItem("1 + 1", 2, "t" * 40)])
    shown = await standin.slash(head, "class questions show", name="Long")
    description = shown.reply.embeds[0]["description"]
    assert len(description) <= 4096 and "more questions, in the attached file." in description
    rows = list(csv.reader(io.StringIO(shown.reply.attachments[0].data.decode("utf-8-sig"))))
    assert len(rows) == 301 and rows[300] == [items[299].text, "299", items[299].topic]
    listed = await standin.slash(head, "class questions list")
    description = listed.reply.embeds[0]["description"]
    assert len(description) <= 4096 and description.endswith("more sets.")
    bad = b"".join(f"{n} {'y' * 300},1\n".encode() for n in range(40))
    refused = await upload(standin, head, "bad.csv", bad)
    description = refused.reply.embeds[0]["description"]
    assert len(description) <= 4096 and "40 refused" in description
    assert len(refused.reply.attachments[0].data.decode("utf-8-sig").splitlines()) == 40
    assert not [r for r in caplog.records if "cut a" in r.getMessage()]


def test_a_waiting_upload_expires_and_the_buttons_refuse_what_the_bot_never_writes() -> None:
    now = [100.0]
    waiting = PendingUploads(clock=lambda: now[0])
    token = waiting.put(1, 2, "Tables", [SetItem("1 + 1", 2)])
    assert waiting.get(token) is not None and waiting.get(token).name == "Tables"
    now[0] += PENDING_SECONDS + 1
    assert waiting.get(token) is None
    later = waiting.put(1, 2, "Other", [])
    waiting.drop(later)
    assert waiting.get(later) is None
    for forged in (QuestionsButton("abc", 0, "explode"), QuestionsButton("abc", 0, "")):
        with pytest.raises(DomainError) as refused:
            forged.check_ids()
        assert refused.value.code == "component.invalid"
    with pytest.raises(DomainError):
        QuestionsButton("abc", 0, "delete").arg_id()
    assert QuestionsButton("42", 0, "delete").arg_id() == 42


async def test_list_show_delete_and_practice_in_french(standin, start_bot, clock):
    bot = await teacher_bot(start_bot)
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    await standin.slash(prof, "classe questions envoyer", fichier=standin.upload(
        "Moitiés.csv", "question;réponse;thème\nLa moitié de 8 ?;4;moitiés\n".encode()))
    listed = await standin.slash(prof, "classe questions liste")
    assert "**Moitiés** · 1 question · moitiés · par M. Petit" in listed.reply.text()
    shown = await standin.slash(prof, "classe questions voir", nom="moitiés")
    assert "1. La moitié de 8 ? → **4** · moitiés" in shown.reply.text()
    léa = standin.add_member("Léa", locale="fr")
    window = (await standin.slash(léa, "focus entraînement", série="Moitiés")).reply
    assert "Entraînement · Moitiés" in window.text() and "## La moitié de 8 ?" in window.text()
    for _ in range(6):
        opened = await standin.click(léa, window, label="Répondre")
        await standin.submit_modal(léa, opened, {"answer": "4"})
    assert "Les questions de ton professeur : ton niveau de Focus ne change pas." in window.text()
    asked = await standin.slash(prof, "classe questions supprimer", nom="Moitiés")
    assert asked.reply.content == ("Supprimer la série « Moitiés » (1 question) ? Les devoirs qui "
                                   "l'utilisent gardent les questions qu'ils ont tirées.")
    done = await standin.click(prof, asked.reply, label="La supprimer")
    assert done.reply.content.startswith("La série « Moitiés » est supprimée.")
    assert await bot.db.question_sets.of_server(standin.guild.id) == []


async def test_the_classrooms_buttons_call_back_into_its_conductor(standin, start_bot):
    # A question set's buttons and the end of the year's "Confirm" reach the flow through the
    # services (bot/ui imports no flow), as "Do the assignment" does.
    bot = await start_bot()
    flow = bot.get_cog("Classroom").flow
    kept = bot.services.kept
    assert kept.get(QUESTION_FLOWS) is flow
    assert kept.get(END_OF_YEAR_FLOWS) is flow
    assert kept.get(ASSIGNMENT_FLOWS) is flow
