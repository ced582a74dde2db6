"""What a digit does at its own level, in numbers: the text of a digit's card.

The catalogue's ability texts (``DigitKind.ability``) give the rule for every level with N ("gains
2N ATK"); ``/digits card`` shows them. A card on a slate or in the shop says instead what *this*
digit does ("gains 4 ATK" for a Plus N2), for a student who should not have to work N out.
:func:`numbers` gives the values the battle engine uses at a level (``tests/test_digits_effects``
checks them against battles); :func:`effect` writes them into the text, in English or French.
"""

from __future__ import annotations

from bot.digits.catalogue import BY_KEY, MAX_LEVEL


def numbers(key: str, level: int) -> dict[str, int]:
    """The level's numbers in the text of digit ``key`` (none for a digit whose effect does not
    depend on its level)."""
    if not 1 <= level <= MAX_LEVEL:
        raise ValueError(f"level must be 1 to {MAX_LEVEL}, not {level}")
    n = level
    return {
        "Plus": {"gain": 2 * n},
        "Minus": {"loss": n + 1},
        "Double": {"exchanges": n},
        "Zero": {"cut": n},
        "Even": {"bonus": n + 1},
        "Odd": {"bonus": n + 1},
        "Prime": {"bonus": 2 * n + 1},
        "Square": {"shield": (n + 1) ** 2},
        "Twin": {"gain": n},
        "Sigma": {"divisor": 5 - n},
        "Average": {"bonus": n - 1},
        "Power": {"cap": (n + 2) ** 2},
        "Fibo": {"atk": BY_KEY["Fibo"].atk(n)},
    }.get(BY_KEY[key].key, {})


# One text per digit and language; a tuple (text for 1, text for more) where a number counts
# something; Average's bonus of 0 (at N1) is not written.
_TEXTS: dict[str, dict[str, str | tuple[str, str]]] = {
    "en": {
        "Plus": "Opening: the front digit of its column gains {gain} ATK.",
        "Minus": "Opening: the opposing front digit of its column loses {loss} ATK.",
        "Double": ("The front digit of its column hits × 2 in the first exchange.",
                   "The front digit of its column hits × 2 for the first {exchanges} "
                   "exchanges."),
        "Zero": "Every hit it takes is cut by {cut}, never below 1.",
        "Even": "Its hit gains {bonus} when its HP is even.",
        "Odd": "Its hit gains {bonus} when its HP is odd.",
        "Prime": "Its hit gains {bonus} when its HP is a prime number.",
        "Half": "Its hit is at least half its target's HP (rounded down).",
        "Square": "Opening: a shield of {shield} that does not regenerate.",
        "Twin": "Opening: +{gain} ATK and +{gain} HP for each other ally with the same ATK.",
        "Abacus": "Opening: +1 ATK per right answer in its owner's Focus (0 to 6).",
        "Splitter": "Hits its target and the digit behind it, half its hit each (rounded down).",
        "Modulo": "Ignores any hit it takes that is a multiple of 3.",
        "Sigma": "Opening: its ATK becomes the sum of the allied front row's ATK ÷ {divisor} "
                 "(rounded down).",
        "Average": ("Opening: the allied front row takes its average ATK (rounded up).",
                    "Opening: the allied front row takes its average ATK (rounded up) + "
                    "{bonus}."),
        "Carry": "When it falls, the digit behind it (else the nearest ally in front) gains its "
                 "ATK.",
        "Power": "Opening: the front digit of its column squares its ATK, up to {cap} (never "
                 "lowering it).",
        "Pi": "On exchanges 3, 6, 9 and 12, hits every digit of the foremost enemy row.",
        "Delta": "Its hit gains half the HP it has lost (rounded down).",
        "Fibo": "Hits {hits}…: its ATK in exchanges 1 and 2, then the sum of its two hits "
                "before.",
    },
    "fr": {
        "Plus": "Ouverture : l'avant de sa colonne gagne {gain} ATT.",
        "Minus": "Ouverture : l'avant adverse de sa colonne perd {loss} ATT.",
        "Double": ("L'avant de sa colonne frappe × 2 au premier échange.",
                   "L'avant de sa colonne frappe × 2 pendant les {exchanges} premiers échanges."),
        "Zero": "Chaque coup reçu est réduit de {cut}, sans descendre sous 1.",
        "Even": "Son coup gagne {bonus} quand ses PV sont pairs.",
        "Odd": "Son coup gagne {bonus} quand ses PV sont impairs.",
        "Prime": "Son coup gagne {bonus} quand ses PV sont un nombre premier.",
        "Half": "Son coup vaut au moins la moitié des PV de sa cible (à l'entier inférieur).",
        "Square": "Ouverture : un bouclier de {shield}, qui ne se reconstitue pas.",
        "Twin": "Ouverture : +{gain} ATT et +{gain} PV par autre allié de même ATT.",
        "Abacus": "Ouverture : +1 ATT par bonne réponse au Focus de son joueur (0 à 6).",
        "Splitter": "Frappe sa cible et le chiffre derrière elle, la moitié de son coup chacun "
                    "(à l'entier inférieur).",
        "Modulo": "Ignore tout coup reçu qui est un multiple de 3.",
        "Sigma": "Ouverture : son ATT devient la somme des ATT de la rangée avant alliée ÷ "
                 "{divisor} (à l'entier inférieur).",
        "Average": ("Ouverture : la rangée avant alliée prend sa moyenne d'ATT (à l'entier "
                    "supérieur).",
                    "Ouverture : la rangée avant alliée prend sa moyenne d'ATT (à l'entier "
                    "supérieur) + {bonus}."),
        "Carry": "À sa chute, le chiffre derrière lui (sinon l'avant allié le plus proche) gagne "
                 "son ATT.",
        "Power": "Ouverture : l'avant de sa colonne met son ATT au carré, jusqu'à {cap} (sans "
                 "jamais la baisser).",
        "Pi": "Aux échanges 3, 6, 9 et 12, frappe toute la rangée adverse la plus avancée.",
        "Delta": "Son coup gagne la moitié des PV qu'il a perdus (à l'entier inférieur).",
        "Fibo": "Frappe {hits}… : son ATT aux échanges 1 et 2, puis la somme de ses deux "
                "coups d'avant.",
    },
}

#: How many of Fibo's hits its text lists.
FIBO_SHOWN = 5
#: The number that says "one" or "more" in the texts given as a pair.
_COUNTED = {"Double": "exchanges", "Average": "bonus"}


def effect(key: str, level: int, lang: str = "en") -> str:
    """What digit ``key`` does at ``level``, in numbers, in ``lang`` (English unless "fr")."""
    kind = BY_KEY[key]
    values = numbers(kind.key, level)
    text = _TEXTS["fr" if lang == "fr" else "en"][kind.key]
    if isinstance(text, tuple):
        counted = values[_COUNTED[kind.key]]
        # Double: one exchange or more; Average: no bonus (0) or a bonus.
        first = counted == 1 if kind.key == "Double" else counted == 0
        text = text[0] if first else text[1]
    if kind.key == "Fibo":
        hits = [values["atk"], values["atk"]]
        while len(hits) < FIBO_SHOWN:
            hits.append(hits[-1] + hits[-2])
        return text.format(hits=", ".join(map(str, hits)), **values)
    return text.format(**values)
