"""Focus questions: every level's answers checked by an evaluator written here, independent of the
engine (a small recursive-descent parser of the ASCII text, exact with Fractions)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import DomainError
from bot.focus import (
    LEVELS,
    MAX_LEVEL,
    TOPICS,
    FocusRound,
    Question,
    generate_for_levels,
    generate_questions,
    level_for_match_round,
)

# --- the independent evaluator ----------------------------------------------------------------

Tree = int | tuple  # an int, or (op, left, right, parenthesised)


def parse(ascii_text: str) -> Tree:
    tokens = re.findall(r"\d+|[-+*/()]|\S", ascii_text)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def expr() -> Tree:
        node = term()
        while peek() in ("+", "-"):
            op = take()
            node = (op, node, term(), False)
        return node

    def term() -> Tree:
        node = factor()
        while peek() in ("*", "/"):
            op = take()
            node = (op, node, factor(), False)
        return node

    def factor() -> Tree:
        token = take()
        if token == "(":
            inner = expr()
            assert take() == ")"
            assert isinstance(inner, tuple)
            return (*inner[:3], True)
        assert token.isdigit(), ascii_text
        return int(token)

    tree = expr()
    assert pos == len(tokens), ascii_text
    return tree


def value(tree: Tree) -> Fraction:
    if isinstance(tree, int):
        return Fraction(tree)
    op, left, right, _ = tree
    a, b = value(left), value(right)
    return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]


def steps(tree: Tree) -> list[tuple]:
    """Every operation node, with its operands' values."""
    if isinstance(tree, int):
        return []
    return [tree, *steps(tree[1]), *steps(tree[2])]


def unbracketed(tree: Tree) -> str:
    if isinstance(tree, int):
        return str(tree)
    return f"{unbracketed(tree[1])} {tree[0]} {unbracketed(tree[2])}"


def canonical(tree: Tree) -> str:
    if isinstance(tree, int):
        return str(tree)
    a, b = canonical(tree[1]), canonical(tree[2])
    if tree[0] in "+*":
        a, b = sorted((a, b))
    return f"({a}{tree[0]}{b})"


def check_question(q: Question) -> Tree:
    """What holds for every question of every level."""
    assert set(q.text) <= set("0123456789 ()+−×÷"), q.text
    assert set(q.ascii) <= set("0123456789 ()+-*/"), q.ascii
    assert q.text.translate(str.maketrans("−×÷", "-*/")) == q.ascii
    tree = parse(q.ascii)
    assert value(tree) == q.answer and isinstance(q.answer, int) and q.answer >= 1, q
    for op, left, right, _ in steps(tree):
        a, b = value(left), value(right)
        result = value((op, left, right, False))
        assert result.denominator == 1 and result >= 1, q  # every step whole, from 1
        if op in "*/":
            assert a >= 2 and b >= 2, q  # never × 1 or ÷ 1
        if op == "/":
            assert result >= 2, q  # never a ÷ a
        if op in "+-":
            assert b >= 1 and a >= 1, q  # never + 0 or − 0
    assert q.topic in LEVELS[q.level].topics
    return tree


def many(level: int, rounds: int = 60) -> list[Question]:
    out: list[Question] = []
    for seed in range(rounds):
        out.extend(generate_questions(level, 6, random.Random(seed)))
    return out


# --- what each level is (the table of docs/rules/focus.md), checked on the parsed text --------

def is_sum(tree: Tree) -> bool:
    return isinstance(tree, tuple) and tree[0] == "+" and all(isinstance(x, int) for x in tree[1:3])


def simple(tree: Tree, op: str) -> tuple[int, int] | None:
    if isinstance(tree, tuple) and tree[0] == op and all(isinstance(x, int) for x in tree[1:3]):
        return tree[1], tree[2]
    return None


def two_step(tree: Tree, f: int, t: int, topic: str) -> bool:
    ops = steps(tree)
    if len(ops) != 2:
        return False
    bracket = any(node[3] for node in ops)
    if topic == "priority" and bracket:
        return False
    # the parentheses always change the result: without them it is another calculation
    if topic == "parentheses" and (not bracket or value(parse(unbracketed(tree))) == value(tree)):
        return False
    split = tree[1] if tree[0] == "/" else None  # (a + b) ÷ c: a multiple of c split at random
    for node in ops:
        op, left, right, _ = node
        a, b = value(left), value(right)
        if op == "*":
            for x, node in ((a, left), (b, right)):
                if x > (f + 2 if isinstance(node, tuple) else f):
                    return False
        if op == "/" and (b > (f + 2 if isinstance(right, tuple) else f) or a / b > f):
            return False
        if op == "+" and node is not split and any(isinstance(node, int) and not 2 <= node <= t
                             for node in (left, right)):
            return False
    return True


def fits_level(q: Question) -> bool:
    tree = parse(q.ascii)
    level, topic = q.level, q.topic
    add, sub = simple(tree, "+"), simple(tree, "-")
    mul, div = simple(tree, "*"), simple(tree, "/")
    if level == 1:
        return topic == "addition" and add is not None and min(add) >= 2 and sum(add) <= 20
    if level == 2:
        if topic == "subtraction":
            return sub is not None and 5 <= sub[0] <= 20 and sub[1] >= 2 and sub[0] - sub[1] >= 1
        return topic == "addition" and add is not None and min(add) >= 2 and sum(add) <= 20
    if level == 3:
        if topic == "addition":
            return add is not None and sum(add) <= 100 and min(add) >= 2 and max(add) >= 11
        if topic == "subtraction":
            return sub is not None and 21 <= sub[0] <= 100 and sub[1] >= 2 and sub[0] > sub[1]
        return (topic == "multiplication" and mul is not None and min(mul) >= 2
                and max(mul) <= 10 and min(mul) <= 5)
    if level == 4:
        if topic == "multiplication":
            return mul is not None and min(mul) >= 2 and max(mul) <= 10
        return (topic == "division" and div is not None and 2 <= div[1] <= 10
                and div[0] % div[1] == 0 and 2 <= div[0] // div[1] <= 10)
    if level == 5:
        if topic == "squares":
            return mul is not None and mul[0] == mul[1] and 2 <= mul[0] <= 15
        if topic == "multiplication":
            return mul is not None and mul[0] != mul[1] and min(mul) >= 2 and max(mul) <= 12
        return (topic == "division" and div is not None and 2 <= div[1] <= 12
                and div[0] % div[1] == 0 and 2 <= div[0] // div[1] <= 12)
    if level in (6, 7):
        allowed = ("priority",) if level == 6 else ("priority", "parentheses")
        return topic in allowed and two_step(tree, 10, 30, topic)
    if level == 8:
        if topic == "addition":
            return add is not None and sum(add) <= 1000 and max(add) >= 101 and min(add) >= 12
        if topic == "subtraction":
            return sub is not None and 101 <= sub[0] <= 1000 and sub[1] >= 12 and sub[0] > sub[1]
        if topic == "multiplication":
            return mul is not None and 12 <= max(mul) <= 99 and 2 <= min(mul) <= 9
        if topic == "division":
            return (div is not None and 100 <= div[0] <= 999 and 2 <= div[1] <= 9
                    and div[0] % div[1] == 0 and div[0] // div[1] >= 12)
        if topic == "squares":
            return mul is not None and mul[0] == mul[1] and 11 <= mul[0] <= 20
        return topic in ("priority", "parentheses") and two_step(tree, 12, 100, topic)
    return False


# --- tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_answer_of_the_level_is_right_by_an_independent_evaluation(level):
    for q in many(level):
        check_question(q)
        assert q.level == level


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_question_fits_the_documented_level(level):
    for q in many(level):
        assert fits_level(q), q


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_topic_of_the_level_comes_up(level):
    assert {q.topic for q in many(level)} == set(LEVELS[level].topics)


def test_levels_are_one_to_eight_and_topics_known():
    assert sorted(LEVELS) == list(range(1, MAX_LEVEL + 1)) and MAX_LEVEL == 8
    for level in LEVELS.values():
        assert set(level.topics) <= set(TOPICS)


def test_level_7_asks_parentheses_about_two_questions_in_three():
    topics = [q.topic for q in many(7, rounds=200)]
    share = topics.count("parentheses") / len(topics)
    assert 0.58 < share < 0.75


def test_level_6_and_7_use_both_left_to_right_pairs():
    texts = [q.ascii for q in many(6, rounds=100)]
    assert any(re.fullmatch(r"\d+ - \d+ \+ \d+", t) for t in texts)
    assert any(re.fullmatch(r"\d+ / \d+ \* \d+", t) for t in texts)


# Every example of the levels table in docs/rules/focus.md.
DOC_EXAMPLES = [
    (1, "7 + 8", 15, "addition"),
    (2, "7 + 8", 15, "addition"), (2, "15 − 9", 6, "subtraction"),
    (3, "47 + 38", 85, "addition"), (3, "82 − 47", 35, "subtraction"),
    (3, "4 × 7", 28, "multiplication"),
    (4, "8 × 7", 56, "multiplication"), (4, "63 ÷ 9", 7, "division"),
    (5, "13 × 13", 169, "squares"), (5, "12 × 7", 84, "multiplication"),
    (5, "132 ÷ 11", 12, "division"),
    (6, "4 + 3 × 5", 19, "priority"), (6, "20 − 12 ÷ 4", 17, "priority"),
    (6, "15 − 6 + 2", 11, "priority"), (6, "12 ÷ 3 × 2", 8, "priority"),
    (7, "(4 + 3) × 5", 35, "parentheses"), (7, "30 − (8 + 5)", 17, "parentheses"),
    (7, "24 ÷ (11 − 5)", 4, "parentheses"),
    (8, "456 + 287", 743, "addition"), (8, "904 − 318", 586, "subtraction"),
    (8, "27 × 9", 243, "multiplication"), (8, "904 ÷ 8", 113, "division"),
    (8, "17 × 17", 289, "squares"), (8, "45 + 12 × 11", 177, "priority"),
    (8, "(29 − 17) × 8", 96, "parentheses"),
]


@pytest.mark.parametrize("level,text,answer,topic", DOC_EXAMPLES)
def test_documented_level_examples(level, text, answer, topic):
    q = Question(text, text.translate(str.maketrans("−×÷", "-*/")), answer, topic, level)
    check_question(q)
    assert fits_level(q)


def test_the_level_check_refuses_what_a_level_does_not_ask():
    def q(level, ascii_text, topic):
        return Question(ascii_text, ascii_text, int(value(parse(ascii_text))), topic, level)
    assert not fits_level(q(1, "15 + 9", "addition"))  # beyond 20
    assert not fits_level(q(4, "11 * 3", "multiplication"))  # beyond the tables to 10
    assert not fits_level(q(5, "7 * 7", "multiplication"))  # a square is a squares question
    assert not fits_level(q(7, "(2 * 3) + 4", "parentheses"))  # brackets that change nothing
    assert not fits_level(q(6, "2 + 3 + 4", "addition"))


def test_same_seed_same_questions_other_seed_other_questions():
    for level in LEVELS:
        a = generate_questions(level, 6, random.Random(42))
        assert a == generate_questions(level, 6, random.Random(42))
        assert a != generate_questions(level, 6, random.Random(43))


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_fifty_different_questions_at_every_level(level):
    questions = generate_questions(level, 50, random.Random(level))
    assert len({canonical(parse(q.ascii)) for q in questions}) == 50


def test_no_commutative_repeat_in_a_set():
    # 81 different sums within 20 exist at level 1; 50 of them never hold both 7 + 8 and 8 + 7
    for seed in range(20):
        questions = generate_questions(1, 50, random.Random(seed))
        keys = [canonical(parse(q.ascii)) for q in questions]
        assert len(set(keys)) == len(keys)


def test_counts_and_levels_out_of_range_are_refused():
    with pytest.raises(DomainError) as error:
        generate_questions(9, 6, random.Random(1))
    assert error.value.code == "focus.unknown_level"
    for bad in (0, 51, -3):
        with pytest.raises(DomainError) as error:
            generate_questions(1, bad, random.Random(1))
        assert error.value.code == "focus.bad_count"
    with pytest.raises(DomainError) as error:
        generate_for_levels([1] * 51, random.Random(1))
    assert error.value.code == "focus.too_many_questions"


def test_mixed_levels_give_one_question_per_level_in_order():
    questions = generate_for_levels([2, 3, 4, 5, 6, 7], random.Random(5))
    assert [q.level for q in questions] == [2, 3, 4, 5, 6, 7]
    for q in questions:
        check_question(q)
        assert fits_level(q)


def test_question_json_round_trip():
    for q in generate_questions(8, 20, random.Random(3)):
        assert Question.from_json(q.to_json()) == q


# --- the match ramp ----------------------------------------------------------------------------

@pytest.mark.parametrize("rounds,level", [((1, 2), 1), ((3, 4), 3), ((5, 6), 4),
                                          ((7, 8, 9, 10), 6), ((11, 12, 15, 16, 40), 7)])
def test_level_for_match_round_follows_the_rulings_table(rounds, level):
    for r in rounds:
        assert level_for_match_round(r) == level


def test_match_ramp_sums_first_then_100_and_small_tables_then_division_then_priority():
    def topics(r: int) -> set[str]:
        qs = many(level_for_match_round(r), rounds=30)
        return {q.topic for q in qs}
    first = many(level_for_match_round(1), rounds=30)
    assert topics(1) == {"addition"} and max(q.answer for q in first) <= 20
    assert {"addition", "subtraction", "multiplication"} == topics(3)
    third = many(level_for_match_round(3), rounds=30)
    assert max(q.answer for q in third if q.topic != "multiplication") <= 100
    assert {"multiplication", "division"} == topics(5)
    assert topics(7) == {"priority"}
    assert "parentheses" in topics(11)
    levels = [level_for_match_round(r) for r in range(1, 16)]
    assert levels == sorted(levels)


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "3"])
def test_level_for_match_round_refuses_what_is_not_a_round(bad):
    with pytest.raises(ValueError):
        level_for_match_round(bad)


# --- properties --------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(level=st.integers(1, MAX_LEVEL), count=st.integers(1, 50), seed=st.integers(0, 2**64))
def test_property_answers_whole_and_right_no_duplicates(level, count, seed):
    questions = generate_questions(level, count, random.Random(seed))
    assert len(questions) == count
    for q in questions:
        check_question(q)
    assert len({canonical(parse(q.ascii)) for q in questions}) == count
    assert len({q.text for q in questions}) == count


@settings(max_examples=60, deadline=None)
@given(level=st.integers(1, MAX_LEVEL), seed=st.integers(0, 2**32))
def test_property_a_round_never_repeats_a_question(level, seed):
    focus = FocusRound.new(level, random.Random(seed))
    texts = [q.text for q in focus.questions]
    assert len(texts) == 6 == len(set(texts))
