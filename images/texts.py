"""Every word the images write, in English and French.

French follows the rules page's own words (ATT, PV, rang, manche, or, ardoise, rangée avant,
soutien, portée). French counts 0 and 1 in the singular.
"""

from __future__ import annotations

from images.style import lang_of

_TEXTS: dict[str, dict[str, str]] = {
    # The 20 Digits
    "atk": {"en": "ATK", "fr": "ATT"},
    "hp": {"en": "HP", "fr": "PV"},
    "shield": {"en": "shield", "fr": "bouclier"},
    "tier": {"en": "Tier {n}", "fr": "Rang {n}"},
    "support": {"en": "support", "fr": "soutien"},
    "reach": {"en": "reach", "fr": "portée"},
    "front": {"en": "Front row", "fr": "Rangée avant"},
    "back": {"en": "Back row", "fr": "Rangée arrière"},
    "front_short": {"en": "front", "fr": "avant"},
    "back_short": {"en": "back", "fr": "arrière"},
    "facing": {"en": "faces the opponent", "fr": "face à l'adversaire"},
    "empty": {"en": "empty", "fr": "vide"},
    "slate": {"en": "Slate", "fr": "Ardoise"},
    "opening": {"en": "Opening", "fr": "Ouverture"},
    "exchange_of": {"en": "Exchange {n} of {total}", "fr": "Échange {n} sur {total}"},
    "wins": {"en": "{name} wins", "fr": "{name} gagne"},
    "draw": {"en": "Draw", "fr": "Match nul"},
    "after": {"en": "after {count}", "fr": "après {count}"},
    "fell": {"en": "fell", "fr": "tombé"},
    "final": {"en": "Final state", "fr": "État final"},
    "hits_caption": {"en": "hits", "fr": "coups"},
    "falls_caption": {"en": "falls", "fr": "chutes"},
    "moves_caption": {"en": "move-ups", "fr": "montées"},
    "no_hits": {"en": "no hit lands", "fr": "aucun coup"},
    "hit": {"en": "hit", "fr": "coup"},
    "hp_lost": {"en": "HP lost", "fr": "PV perdus"},
    "moves_up": {"en": "moves up", "fr": "monte"},
    "colon": {"en": ": ", "fr": " : "},
    # Shop
    "shop": {"en": "Shop", "fr": "Boutique"},
    "round": {"en": "Round {n}", "fr": "Manche {n}"},
    "frozen": {"en": "frozen", "fr": "gelé"},
    "bought": {"en": "bought", "fr": "acheté"},
    "your_slate": {"en": "Your slate", "fr": "Ton ardoise"},
    # Rithmomachia
    "to_move": {"en": "{side} to move", "fr": "Trait aux {side}"},
    "white_side": {"en": "White (Even)", "fr": "Blancs (pairs)"},
    "black_side": {"en": "Black (Odd)", "fr": "Noirs (impairs)"},
    "took": {"en": "{side} took", "fr": "Les {side} ont pris"},
    "nothing_taken": {"en": "nothing yet", "fr": "rien pour l'instant"},
    "pyramid": {"en": "Pyramid", "fr": "Pyramide"},
    "from_black": {"en": "seen from Black", "fr": "vu des Noirs"},
    "last_turn": {"en": "Last turn:", "fr": "Dernier coup :"},
    "taken_on": {"en": "taken on {squares}", "fr": "pris en {squares}"},
    "value": {"en": "value", "fr": "valeur"},
    # Progress
    "accuracy": {"en": "Accuracy by topic", "fr": "Réussite par thème"},
    "no_data": {"en": "No answers yet", "fr": "Pas encore de réponses"},
    "streak": {"en": "Streak", "fr": "Série"},
    "best": {"en": "Best: {count}", "fr": "Record : {count}"},
    "played_total": {"en": "{count} played", "fr": "{count} joués"},
    "today": {"en": "today", "fr": "aujourd'hui"},
    "played": {"en": "played", "fr": "joué"},
    "missed": {"en": "missed", "fr": "manqué"},
    "daily": {"en": "Daily challenge", "fr": "Défi du jour"},
    "name": {"en": "Name", "fr": "Nom"},
    "score": {"en": "Score", "fr": "Score"},
    "time": {"en": "Time", "fr": "Temps"},
    "nobody": {"en": "Nobody has played yet", "fr": "Personne n'a encore joué"},
}

# Singular and plural, chosen by the count.
_COUNTED: dict[str, dict[str, tuple[str, str]]] = {
    "exchanges": {"en": ("exchange", "exchanges"), "fr": ("échange", "échanges")},
    "gold": {"en": ("gold", "gold"), "fr": ("or", "or")},
    "lives": {"en": ("life", "lives"), "fr": ("vie", "vies")},
    "days": {"en": ("day", "days"), "fr": ("jour", "jours")},
    "pieces": {"en": ("piece", "pieces"), "fr": ("pièce", "pièces")},
    "digits": {"en": ("digit", "digits"), "fr": ("chiffre", "chiffres")},
}

TOPICS: dict[str, dict[str, str]] = {
    "addition": {"en": "addition", "fr": "addition"},
    "subtraction": {"en": "subtraction", "fr": "soustraction"},
    "multiplication": {"en": "multiplication", "fr": "multiplication"},
    "division": {"en": "division", "fr": "division"},
    "priority": {"en": "order of operations", "fr": "priorités opératoires"},
    "squares": {"en": "squares", "fr": "carrés"},
    "parentheses": {"en": "parentheses", "fr": "parenthèses"},
    "mixed": {"en": "mixed", "fr": "mélange"},
}

WEEKDAYS = {"en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
            "fr": ("lun", "mar", "mer", "jeu", "ven", "sam", "dim")}
MONTHS = {"en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                 "Dec"),
          "fr": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.",
                 "oct.", "nov.", "déc.")}


def t(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` ("en" or "fr"), with ``params`` filled in."""
    return _TEXTS[key][lang_of(lang)].format(**params)


def count(lang: str, n: int, key: str) -> str:
    """"1 life", "3 lives", "0 vie", "2 vies"."""
    one, many = _COUNTED[key][lang_of(lang)]
    singular = n == 1 or (lang_of(lang) == "fr" and n == 0)
    return f"{n} {one if singular else many}"


def topic(lang: str, key: str) -> str:
    names = TOPICS.get(key)
    if names is None:
        return key.replace("_", " ")
    return names[lang_of(lang)]
