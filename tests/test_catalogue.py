import pytest

from bot.digits.catalogue import DIGITS, UnknownDigit, find, in_tiers
from bot.digits.slate import Piece, Slate, SlateError


def test_twenty_digits_five_per_tier_cost_is_tier_plus_one():
    assert len(DIGITS) == 20
    for tier in (1, 2, 3, 4):
        kinds = [d for d in DIGITS if d.tier == tier]
        assert len(kinds) == (6 if tier == 1 else 5 if tier in (2, 3) else 4)
        assert {d.cost for d in kinds} == {tier + 1}


def test_stats_from_rules_page():
    assert find("Odd").stats == ((3, 3), (4, 5), (5, 7))
    assert find("Splitter").stats == ((6, 6), (8, 7), (10, 8))
    assert find("Zero").atk(3) == 0 and find("Zero").hp(3) == 12


@pytest.mark.parametrize("name,key", [("Moitié", "Half"), ("moitie", "Half"), ("HALF", "Half"),
                                      ("zéro", "Zero"), ("Retenue", "Carry"), ("impair", "Odd")])
def test_names_in_both_languages_any_case_accents_optional(name, key):
    assert find(name).key == key


def test_unknown_digit():
    with pytest.raises(UnknownDigit):
        find("Seven")


def test_tiers_open_at_rounds_1_3_5_7():
    assert [d.opens_at_round for d in DIGITS if d.key in ("Plus", "Prime", "Carry", "Fibo")] == [
        1, 3, 5, 7]
    assert len(in_tiers(1)) == 6 and len(in_tiers(4)) == 20


def test_piece_forms_and_slate_round_trip():
    s = Slate.from_json({"1": "Odd", "5": "Plus N1", "2": {"digit": "Minus", "level": 2}})
    assert s[1] == Piece("Odd", 1) and s[2] == Piece("Minus", 2) and s[5] == Piece("Plus", 1)
    assert Slate.from_json(s.to_json()) == s
    assert len(s) == 3 and not s.is_full()


@pytest.mark.parametrize("bad", [{"9": "Odd"}, {"1": "Odd N4"}, {"x": "Odd"}, {"1": 3}, [],
                                 {" 1": "Odd"}, {"01": "Odd"}, {"+1": "Odd"}])
def test_bad_slates_are_refused(bad):
    with pytest.raises(SlateError):
        Slate.from_json(bad)
