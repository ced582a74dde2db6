"""Reading a teacher's question file (bot.play.question_sets, pure) and the sets' use cases:
separators, headers, encodings, quoting, each refusal with its line, whole files refused,
JSON, the CSV written back, names, storing and deleting, practice from a set."""

from __future__ import annotations

import random

import pytest

from bot.domain import DomainError
from bot.focus import generate_questions
from bot.play import focus as focus_play
from bot.play import question_sets as qs
from bot.play.question_sets import Refused, read_file
from db import Database, FocusAnswer
from db.question_sets import SetItem

G, TEACHER = 10, 20


def codes(read: qs.ReadFile) -> list[tuple[int, str]]:
    return [(r.line, r.code) for r in read.refused]


def refusal(call, *args) -> DomainError:
    with pytest.raises(DomainError) as caught:
        call(*args)
    return caught.value


# --- Separators, headers, encodings --------------------------------------------------------


@pytest.mark.parametrize("data", [
    b"3 x 4,12,tables\n7 x 8,56,tables\n",
    b"3 x 4;12;tables\n7 x 8;56;tables\n",
    b"3 x 4\t12\ttables\n7 x 8\t56\ttables\n",
    b"question,answer,topic\n3 x 4,12,tables\n7 x 8,56,tables\n",
    b"Question;R\xc3\xa9ponse;Th\xc3\xa8me\n3 x 4;12;tables\n7 x 8;56;tables\n",
    b"\xef\xbb\xbfQUESTION;REPONSE;THEME\r\n3 x 4;12;tables\r\n7 x 8;56;tables\r\n",
    b"topic,answer,question\ntables,12,3 x 4\ntables,56,7 x 8\n",
    "question;réponse;thème\n3 x 4;12;tables\n7 x 8;56;tables\n".encode("utf-16"),
])
def test_the_same_questions_whatever_the_separator_header_or_encoding(data: bytes) -> None:
    read = read_file("t.csv", data)
    assert read.refused == []
    assert read.items == [SetItem("3 x 4", 12, "tables"), SetItem("7 x 8", 56, "tables")]


def test_a_french_excel_file_in_windows_1252_with_commas_in_its_questions() -> None:
    data = ("Question;Réponse;Thème\r\n"
            "Léa a 3 billes, puis 4 : combien en tout ?;7;problèmes\r\n"
            "Le double de 1 250, en € ?;2 500;doubles\r\n"
            "Un œuf coûte 1 €, trois œufs ?;3;\r\n").encode("cp1252")
    read = read_file("excel.csv", data)
    assert read.items == [
        SetItem("Léa a 3 billes, puis 4 : combien en tout ?", 7, "problèmes"),
        SetItem("Le double de 1 250, en € ?", 2500, "doubles"),
        SetItem("Un œuf coûte 1 €, trois œufs ?", 3, None)]


def test_bytes_no_encoding_knows_are_read_and_never_crash() -> None:
    rng = random.Random(1)
    for _ in range(300):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        try:
            read = read_file("noise.csv", data)
        except DomainError as error:
            assert error.code.startswith("class.questions.")
        else:
            assert read.lines >= 1
    assert qs.decode(b"\x81\x8d caf\xe9") == "\ufffd\ufffd café"


def test_quoted_fields_keep_their_commas_quotes_and_newlines_and_lines_are_counted() -> None:
    data = (b'"Add 10, then 20",30\n'
            b'"She said ""seven"" plus one",8\n'
            b'"A question\non two lines",2\n'
            b"\n"
            b"no answer here,\n")
    read = read_file("q.csv", data)
    assert read.items == [SetItem("Add 10, then 20", 30), SetItem('She said "seven" plus one', 8),
                          SetItem("A question\non two lines", 2)]
    assert codes(read) == [(6, "no_answer")]


def test_the_separator_is_the_one_on_most_lines_and_a_tie_prefers_the_semicolon() -> None:
    assert qs.sniff(["a, b, c;1", "d;2"]) == ";"
    assert qs.sniff(["a,1", "b,2", "c;d,3"]) == ","
    assert qs.sniff(['"a;b",1', "c,2"]) == ","
    assert qs.sniff(["a\t1,5"]) == "\t"
    assert qs.sniff(["nothing"]) == ","


# --- Each line's refusal ------------------------------------------------------------------


def test_each_bad_line_is_refused_with_its_line_and_reason() -> None:
    long_question = "x" * (qs.MAX_QUESTION_CHARS + 1)
    data = "\n".join([
        "question;answer;topic",
        "3 x 4;12;tables",             # 2 good
        ";5",                           # 3 no question
        "7 x 8;",                       # 4 no answer
        "half of 5;1/0",                # 5 no number: a denominator of 0
        "a third of 9;3 | ",            # 6 an empty accepted answer
        "seven;seven",                  # 7 not a number
        "2 + 2;2+2",                    # 8 not a number (never evaluated)
        f"{long_question};1",           # 9 too long
        "big;1234567890123",            # 10 too many digits
        "1 + 1;2;" + "t" * 41,          # 11 topic too long
        "  3 X 4 ;12",                  # 12 a duplicate of line 2
        "a;1;b;c",                      # 13 too many columns
        "ten less than 3;−7",           # 14 good
        "a thousand;1 000",             # 15 good
        "plus three;+3",                # 16 good
        "twelve;12,00;",                # 17 good (a zero decimal part, an empty column)
    ]).encode()
    read = read_file("mixed.csv", data)
    assert codes(read) == [(3, "empty_question"), (4, "no_answer"), (5, "zero_denominator"),
                           (6, "empty_answer"), (7, "not_a_number"), (8, "not_a_number"),
                           (9, "question_too_long"), (10, "too_long_answer"),
                           (11, "topic_too_long"), (12, "duplicate"), (13, "too_many_columns")]
    assert [(i.text, i.answer) for i in read.items] == [
        ("3 x 4", 12), ("ten less than 3", -7), ("a thousand", 1000), ("plus three", 3),
        ("twelve", 12)]
    assert read.lines == 16
    by_line = {r.line: r for r in read.refused}
    assert by_line[5].params == {"question": "half of 5", "answer": "1/0"}
    assert by_line[6].params == {"question": "a third of 9", "answer": "3 |"}
    assert by_line[9].params["length"] == qs.MAX_QUESTION_CHARS + 1
    assert by_line[12].params == {"question": "3 X 4", "first": 2}
    assert by_line[13].params == {"count": 4, "max": 3}


def test_a_column_the_header_names_otherwise_is_refused_when_it_holds_text() -> None:
    data = "\n".join([
        "question;notes;answer;topic;",  # a spreadsheet's spare column at the end
        "3 x 4;;12;tables;",             # 2 good: the notes are empty
        "7 x 8;easy;56;tables",          # 3 refused: a note would be lost without a word
        "9 x 9;;81;tables;;extra",       # 4 refused: beyond the header's columns
    ]).encode()
    read = read_file("notes.csv", data)
    assert read.items == [SetItem("3 x 4", 12, "tables")]
    assert [(r.line, r.code, r.params) for r in read.refused] == [
        (3, "unnamed_column", {"column": 2, "name": "notes"}),
        (4, "too_many_columns", {"count": 6, "max": 4})]
    # Without a header: three columns, a fourth refused unless it is empty.
    read = read_file("plain.csv", b"3 x 4,12,tables,\n7 x 8,56,,note\n")
    assert read.items == [SetItem("3 x 4", 12, "tables")]
    assert [(r.line, r.code) for r in read.refused] == [(2, "too_many_columns")]


def test_questions_are_stored_trimmed_as_given() -> None:
    read = read_file("q.csv", b"  *bold* <@1>  ,  42  ,  odd  \n")
    assert read.items == [SetItem("*bold* <@1>", 42, "odd")]


# --- Whole files refused ------------------------------------------------------------------


def test_whole_files_refused() -> None:
    assert refusal(read_file, "q.xlsx", b"PK").code == "class.questions.not_a_table"
    assert refusal(read_file, "questions", b"1,1").code == "class.questions.not_a_table"
    assert read_file("Q.CSV", b"1,1").items == [SetItem("1", 1)]
    assert refusal(read_file, "q.csv", b"").code == "class.questions.empty"
    assert refusal(read_file, "q.csv", b" \r\n\t\n").code == "class.questions.empty"
    assert refusal(read_file, "q.csv", b",,,\n,,\n").code == "class.questions.empty"
    big = refusal(read_file, "q.csv", b"x" * (qs.MAX_FILE_BYTES + 1))
    assert (big.code, big.params) == ("class.questions.too_big", {"size": 100, "max": 100})
    many = b"".join(f"q{n},{n}\n".encode() for n in range(qs.MAX_QUESTIONS + 1))
    assert refusal(read_file, "q.csv", many).params == {"count": 501, "max": 500}
    assert len(read_file("q.csv", many[: many.index(b"q500")]).items) == 500
    assert refusal(read_file, "q.csv", b"a\x00b,1").code == "class.questions.not_a_table"


# --- JSON ---------------------------------------------------------------------------------


def test_json_lists_of_questions() -> None:
    data = ('[{"question": "2 + 2", "answer": 4, "topic": "addition"},'
            ' {"text": "10 − 3", "answer": "7"},'
            ' {"Question": "big", "Réponse": 1e3},'
            ' {"question": "half", "answer": 2.5},'
            ' {"question": "yes", "answer": true},'
            ' {"question": "none", "answer": null},'
            ' {"question": "list", "answer": [1]},'
            ' "not an object",'
            ' {"answer": 3}]').encode()
    read = read_file("q.json", data)
    assert read.kind == "json"
    assert read.items == [SetItem("2 + 2", 4, "addition"), SetItem("10 − 3", 7),
                          SetItem("big", 1000), SetItem("half", "2.5")]
    assert codes(read) == [(5, "not_a_number"), (6, "no_answer"),
                           (7, "not_a_number"), (8, "not_an_object"), (9, "empty_question")]
    wrapped = read_file("q.json", b'{"questions": [{"question": "1", "answer": 1}]}')
    assert wrapped.items == [SetItem("1", 1)]


def test_json_files_refused() -> None:
    broken = refusal(read_file, "q.json", b'[\n{"question": "1",\n')
    assert (broken.code, broken.params["line"]) == ("class.questions.bad_json", 3)
    # Nested 50,000 deep (closed or not): said as such, not as a comma to check.
    for deep in (b"[" * 50_000, b"[" * 45_000 + b"]" * 45_000, b'{"q": ' * 16_000):
        too_deep = refusal(read_file, "q.json", deep)
        assert (too_deep.code, too_deep.params) == ("class.questions.json_too_deep", {"max": 32})
    # Brackets inside a question are text, not nesting.
    assert read_file("q.json", b'[{"question": "' + b"[" * 100 + b'", "answer": 1}]').items == [
        SetItem("[" * 100, 1)]
    assert refusal(read_file, "q.json", b'{"a": 1}').code == "class.questions.json_not_a_list"
    assert refusal(read_file, "q.json", b"[]").code == "class.questions.empty"


# --- Names and the CSV written back -------------------------------------------------------


def test_names() -> None:
    assert qs.default_name("Tables de 7.csv") == "Tables de 7"
    assert qs.default_name("Tables_de__7.csv") == "Tables de 7"
    assert qs.default_name(".csv") == ".csv"
    assert qs.set_name("  Tables   de 7 ") == "Tables de 7"
    assert refusal(qs.set_name, "   ").code == "class.questions.no_name"
    assert refusal(qs.set_name, "x" * 51).code == "class.questions.name_too_long"


def test_the_csv_written_back_reads_as_the_same_set() -> None:
    items = [SetItem('Add 10, then "20"', 30, "sums; mixed"), SetItem("−7 + 0", -7),
             SetItem("Line\nbreak", 1_000_000, "é")]
    text = qs.as_csv(items)
    assert text.splitlines()[0] == "question,answer,topic"
    assert read_file("back.csv", text.encode()).items == items


def test_a_refusal_keeps_its_details() -> None:
    assert Refused(3, "no_answer").params == {}


# --- Storing, deleting, practising ----------------------------------------------------------


async def test_a_set_is_stored_once_by_name_and_deleted_by_id(db: Database) -> None:
    items = [SetItem("1 + 1", 2, "sums"), SetItem("2 + 2", 4)]
    stored = await qs.store_set(db, G, "Sums", TEACHER, items)
    assert (stored.name, stored.size, stored.author_id) == ("Sums", 2, TEACHER)
    with pytest.raises(DomainError) as taken:
        await qs.store_set(db, G, " sums ", TEACHER, items)
    assert taken.value.code == "class.questions.name_taken"
    assert taken.value.params == {"name": "Sums"}
    with pytest.raises(DomainError):
        await qs.store_set(db, G, "Empty", TEACHER, [])
    assert await qs.set_names(db, G, "UM") == ["Sums"]
    assert await qs.set_names(db, G, "x") == []
    [summary] = await qs.server_sets(db, G)
    assert summary.topics == ["sums"]
    with pytest.raises(DomainError) as elsewhere:
        await qs.delete_set(db, G + 1, stored.set_id)
    assert elsewhere.value.code == "class.questions.already_deleted"
    assert (await qs.delete_set(db, G, stored.set_id)).name == "Sums"
    with pytest.raises(DomainError):
        await qs.delete_set(db, G, stored.set_id)
    assert await db.question_sets.of_server(G) == []


async def test_practice_from_a_set_draws_six_every_question_before_any_again(db: Database
                                                                             ) -> None:
    items = [SetItem(f"{n} + 1", n + 1, "sums" if n % 2 else None) for n in range(4)]
    await qs.store_set(db, G, "Four", TEACHER, items)
    practice = await qs.start_set_practice(db, G, "four", seed=3)
    texts = [q.text for q in practice.questions]
    assert len(texts) == 6 and sorted(texts[:4]) == sorted(i.text for i in items)
    assert {q.level for q in practice.questions} == {qs.SET_LEVEL}
    assert {q.topic for q in practice.questions} == {"sums", "Four"}
    again = await qs.start_set_practice(db, G, "Four", seed=3)
    assert [q.text for q in again.questions] == texts
    with pytest.raises(DomainError) as unknown:
        await qs.start_set_practice(db, G, "Five", seed=3)
    assert unknown.value.code == "class.questions.unknown"


async def test_answers_to_a_set_are_left_out_of_the_adaptive_level(db: Database) -> None:
    def stored(n: int, text: str, expected: int, given: int, topic: str, key: str
               ) -> FocusAnswer:
        return FocusAnswer(guild_id=G, user_id=TEACHER, topic=topic, level=1, question=text,
                           expected=expected, given=given, time_ms=2000, source="practice",
                           round_key=key, question_no=n)

    await qs.store_set(db, G, "Hard", TEACHER, [SetItem(f"{n} x 13", 13 * n) for n in range(6)])
    practice = await qs.start_set_practice(db, G, "Hard", seed=1)
    key = qs.set_round_key(practice.set.set_id, "t1")
    for n, question in enumerate(practice.questions):  # all wrong
        await db.focus.record(stored(n, question.text, question.answer, question.answer + 1,
                                     question.topic, key))
    for n, question in enumerate(generate_questions(1, 6, random.Random(2))):  # 5 in 6 right
        given = question.answer + (n == 0)
        await db.focus.record(stored(n, question.text, question.answer, given, question.topic,
                                     "practice:t2"))
    assert qs.from_a_set(key) and not qs.from_a_set("practice:t2") and not qs.from_a_set(None)
    # The same set as homework or in a live round: under their own keys, with the set's topic.
    for n, question in enumerate(practice.questions[:3]):
        await db.focus.record(stored(n, question.text, question.answer, question.answer + 1,
                                     question.topic, "assignment:7"))
    assert not qs.counts_for_level("assignment:7", "Hard")
    assert qs.counts_for_level("assignment:7", "addition")
    advice = await focus_play.finish_practice(db, G, TEACHER, level=1, own=1)
    # With the set's six wrong answers the window would be 5 in 12 (down); without, 5 in 6: up.
    assert advice is not None and (advice.reason, advice.level) == ("up", 2)
    assert advice.weak_topics == ()
