"""The catalogue of the 20 digits: the one source of truth for names, tiers, costs, roles, stats
and ability texts, read by the battle engine, the shop, the images and the bot.

Stats and texts come from the rules page (``shared/rules/the-20-digits.*.txt``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    FIGHTER = "fighter"
    SUPPORT = "support"
    REACH = "reach"


@dataclass(frozen=True, slots=True)
class DigitKind:
    """One of the 20 digits, as the rules page describes it."""

    key: str  # English name, capitalised as on the rules page; the identifier everywhere
    name_fr: str
    tier: int
    role: Role
    stats: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]  # (ATK, HP) at N1, N2, N3
    ability_en: str
    ability_fr: str

    @property
    def name_en(self) -> str:
        return self.key

    @property
    def cost(self) -> int:
        return self.tier + 1

    @property
    def opens_at_round(self) -> int:
        return 2 * self.tier - 1

    def atk(self, level: int) -> int:
        return self.stats[level - 1][0]

    def hp(self, level: int) -> int:
        return self.stats[level - 1][1]

    def name(self, lang: str = "en") -> str:
        return self.name_fr if lang == "fr" else self.key

    def ability(self, lang: str = "en") -> str:
        return self.ability_fr if lang == "fr" else self.ability_en


MAX_LEVEL = 3

_F, _S, _R = Role.FIGHTER, Role.SUPPORT, Role.REACH

DIGITS: tuple[DigitKind, ...] = (
    # Tier 1
    DigitKind("Plus", "Plus", 1, _S, ((1, 3), (2, 4), (3, 5)),
              "Opening: the front digit of its column gains 2N ATK (2, 4, 6).",
              "Ouverture : l'avant de sa colonne gagne 2N ATT (2, 4, 6)."),
    DigitKind("Minus", "Moins", 1, _F, ((2, 3), (3, 4), (4, 5)),
              "Opening: the opposing front digit of its column loses N + 1 ATK (2, 3, 4).",
              "Ouverture : l'avant adverse de sa colonne perd N + 1 ATT (2, 3, 4)."),
    DigitKind("Double", "Double", 1, _S, ((1, 3), (2, 4), (3, 5)),
              "The front digit of its column hits × 2 for the first N exchanges.",
              "L'avant de sa colonne frappe × 2 pendant les N premiers échanges."),
    DigitKind("Zero", "Zéro", 1, _F, ((0, 6), (0, 9), (0, 12)),
              "Every hit it takes is cut by N (1, 2, 3), never below 1.",
              "Chaque coup reçu est réduit de N (1, 2, 3), sans descendre sous 1."),
    DigitKind("Even", "Pair", 1, _F, ((2, 4), (3, 6), (4, 8)),
              "Its hit gains N + 1 (2, 3, 4) when its HP is even.",
              "Son coup gagne N + 1 (2, 3, 4) quand ses PV sont pairs."),
    DigitKind("Odd", "Impair", 1, _F, ((3, 3), (4, 5), (5, 7)),
              "Its hit gains N + 1 (2, 3, 4) when its HP is odd.",
              "Son coup gagne N + 1 (2, 3, 4) quand ses PV sont impairs."),
    # Tier 2
    DigitKind("Prime", "Premier", 2, _F, ((3, 5), (4, 7), (5, 9)),
              "Its hit gains 2N + 1 (3, 5, 7) when its HP is a prime number.",
              "Son coup gagne 2N + 1 (3, 5, 7) quand ses PV sont un nombre premier."),
    DigitKind("Half", "Moitié", 2, _F, ((2, 6), (3, 8), (4, 10)),
              "Its hit is the greater of its hit and ⌊target's HP / 2⌋.",
              "Son coup vaut le plus grand de son coup et ⌊PV de sa cible / 2⌋."),
    DigitKind("Square", "Carré", 2, _F, ((2, 5), (3, 6), (4, 7)),
              "Opening: a shield of (N + 1)² (4, 9, 16) that does not regenerate.",
              "Ouverture : bouclier de (N + 1)² (4, 9, 16), qui ne se reconstitue pas."),
    DigitKind("Twin", "Jumeau", 2, _F, ((2, 4), (3, 5), (4, 6)),
              "Opening: +N ATK and +N HP for each other ally with the same ATK.",
              "Ouverture : +N ATT et +N PV par autre allié de même ATT."),
    DigitKind("Abacus", "Boulier", 2, _F, ((1, 5), (2, 7), (3, 9)),
              "Opening: +1 ATK per right answer in its owner's Focus (0 to 6).",
              "Ouverture : +1 ATT par bonne réponse au Focus de son joueur (0 à 6)."),
    # Tier 3
    DigitKind("Splitter", "Diviseur", 3, _F, ((6, 6), (8, 7), (10, 8)),
              "Hits its target and the digit behind it for ⌊hit / 2⌋ each.",
              "Frappe sa cible et le chiffre derrière elle pour ⌊coup / 2⌋ chacun."),
    DigitKind("Modulo", "Modulo", 3, _F, ((3, 8), (4, 11), (5, 14)),
              "Ignores any hit whose value is a multiple of 3.",
              "Ignore tout coup reçu dont la valeur est un multiple de 3."),
    DigitKind("Sigma", "Sigma", 3, _R, ((1, 6), (1, 8), (1, 10)),
              "Opening: ATK = ⌊sum of the allied front row's ATK ÷ (5 − N)⌋.",
              "Ouverture : ATT = ⌊somme des ATT de la rangée avant alliée ÷ (5 − N)⌋."),
    DigitKind("Average", "Moyenne", 3, _F, ((2, 6), (3, 8), (4, 10)),
              "Opening: the allied front row takes ⌈its average ATK⌉ + (N − 1).",
              "Ouverture : la rangée avant alliée prend ⌈sa moyenne d'ATT⌉ + (N − 1)."),
    DigitKind("Carry", "Retenue", 3, _F, ((4, 6), (5, 8), (6, 10)),
              "When it falls, the digit behind it (else the nearest ally in front) gains its ATK.",
              "À sa chute, le chiffre derrière (sinon l'avant allié proche) gagne son ATT."),
    # Tier 4
    DigitKind("Power", "Puissance", 4, _S, ((2, 6), (3, 8), (4, 10)),
              "Opening: the front digit of its column squares its ATK, capped at (N + 2)².",
              "Ouverture : l'avant de sa colonne met son ATT au carré, plafonnée à (N + 2)²."),
    DigitKind("Pi", "Pi", 4, _R, ((3, 9), (4, 12), (5, 15)),
              "On exchanges 3, 6, 9 and 12, hits every digit of the foremost enemy row.",
              "Aux échanges 3, 6, 9 et 12, frappe toute la rangée adverse la plus avancée."),
    DigitKind("Delta", "Delta", 4, _F, ((3, 10), (4, 13), (5, 16)),
              "Its hit gains ⌊HP lost / 2⌋.",
              "Son coup gagne ⌊PV perdus / 2⌋."),
    DigitKind("Fibo", "Fibo", 4, _F, ((3, 8), (4, 10), (5, 12)),
              "Base hit: its ATK on exchanges 1 and 2, then the sum of the two before.",
              "Coup de base : son ATT aux échanges 1 et 2, puis la somme des deux précédents."),
)

BY_KEY: dict[str, DigitKind] = {d.key: d for d in DIGITS}


def _fold(text: str) -> str:
    """Lower case without accents, so that "Moitié", "moitie" and "MOITIE" read the same."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


_BY_FOLDED: dict[str, DigitKind] = {}
for _d in DIGITS:
    _BY_FOLDED[_fold(_d.key)] = _d
    _BY_FOLDED[_fold(_d.name_fr)] = _d


class UnknownDigit(ValueError):
    """A digit name that is neither an English nor a French name of the catalogue."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown digit: {name!r}")
        self.name = name


def find(name: str) -> DigitKind:
    """The digit named ``name`` in English or French, any case, accents optional."""
    try:
        return _BY_FOLDED[_fold(name)]
    except KeyError:
        raise UnknownDigit(name) from None


def in_tiers(max_tier: int) -> list[DigitKind]:
    """The digits of tiers 1 … max_tier, in catalogue order."""
    return [d for d in DIGITS if d.tier <= max_tier]
