"""Issue 16: plurals right in both languages in every Rithmomachia text ("1 move", "2 moves";
"1 déplacement", "2 déplacements"): a number before a counted noun is a plural text (``.one``/
``.other``, ``.many`` in French) said with ``count=``."""

from __future__ import annotations

import re

import pytest

from bot.i18n import catalogues, t
from tests.french import fr

#: A placeholder right before a counted noun, in either language.
_COUNTED = re.compile(
    r"\{(?!(?:move|piece|square|shapes|player|side|winner|loser|opponent|white|black|challenger)\})"
    r"[a-z_]+\} (?:de )?(?:turns?|moves?|pieces?|minutes?|squares?|games?|challenges?|"
    r"suggestions?|tours?|déplacements?|pièces?|cases?|parties?|partie|défis?)\b")
_PLURAL_FORM = re.compile(r"\.(?:zero|one|two|few|many|other)$")


def _rithmo_texts(lang: str) -> dict[str, str]:
    return {k: v for k, v in catalogues().texts[lang].items()
            if "rithmo" in k and not k.startswith("commands.")}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_counted_number_in_a_rithmo_text_is_a_plural(lang: str) -> None:
    texts = _rithmo_texts(lang)
    assert len(texts) > 150
    singular = {k: v for k, v in texts.items()
                if _COUNTED.search(v) and not _PLURAL_FORM.search(k)}
    assert singular == {}


@pytest.mark.parametrize(("key", "params", "one", "two"), [
    ("rithmo.menu.moves", {}, "1 move", "2 moves"),
    ("rithmo.settings.move_limit", {}, "Move limit: 1 turn in all", "Move limit: 2 turns in all"),
    ("rithmo.end.move_limit_draw", {"game": 4},
     "🤝 Game #4 reached its move limit (1 turn): a draw.",
     "🤝 Game #4 reached its move limit (2 turns): a draw."),
    ("errors.limits.rithmo_computer", {"games": "…"},
     "You already play 1 game against Ardoise (…): finish it,",
     "You already play 2 games against Ardoise (…): finish one,"),
])
def test_one_and_two_in_english(key: str, params: dict[str, object], one: str, two: str) -> None:
    assert t(key, "en", count=1, **params).startswith(one)
    assert t(key, "en", count=2, **params).startswith(two)


@pytest.mark.parametrize(("key", "params", "one", "two"), [
    ("rithmo.menu.moves", {}, "1 déplacement", "2 déplacements"),
    ("rithmo.menu.drop_squares", {}, "1 case libre", "2 cases libres"),
    ("rithmo.settings.move_limit", {}, fr(
            "Limite : 1 tour en tout"), fr("Limite : 2 tours en tout")),
    ("rithmo.end.move_limit_draw", {"game": 4},
     fr("🤝 La partie n° 4 a atteint sa limite (1 tour) : la partie est nulle."),
     fr("🤝 La partie n° 4 a atteint sa limite (2 tours) : la partie est nulle.")),
    ("errors.limits.rithmo_challenges", {"games": "…"},
     "Tu as déjà 1 défi qui attend", "Tu as déjà 2 défis qui attendent"),
])
def test_one_and_two_in_french(key: str, params: dict[str, object], one: str, two: str) -> None:
    assert t(key, "fr", count=1, **params).startswith(one)
    assert t(key, "fr", count=2, **params).startswith(two)
    # French says "1,5" as one and 0 as one too (CLDR): 0 is singular.
    assert t(key, "fr", count=0, **params).startswith(one.replace("1", "0", 1))
