"""French as a French teacher writes it: elision and articles before the values a text is given
(names are runtime values), and a scan of the French catalogue for the faults it once had: a
word not elided before a vowel, an English word left, a missing space before « ; : ! ? »."""

from __future__ import annotations

import re

import pytest

from bot.texts import Catalogues, catalogues, de_name, elides, french_join, t


@pytest.mark.parametrize("name,said", [
    ("Ana", "d'Ana"), ("Hugo", "d'Hugo"), ("Zoé", "de Zoé"), ("Élodie", "d'Élodie"),
    ("Œdipe", "d'Œdipe"), ("Yves", "d'Yves"), ("Yann", "de Yann"), ("Inès", "d'Inès"),
    ("ana", "d'ana"), ("**Ana**", "d'**Ana**"), ("\\_Ana", "d'\\_Ana"), ("<@123>", "de <@123>"),
    ("42", "de 42"), ("", "de "), ("Le Roi", "du Roi"), ("Les Bleus", "des Bleus"),
    ("La Fouine", "de la Fouine"), ("L'ombre (robot)", "de l'ombre (robot)"),
    ("un ancien joueur", "d'un ancien joueur"), ("Lea", "de Lea"),
])
def test_de_name_elides_before_a_vowel_sound_and_contracts_articles(name, said):
    assert de_name(name) == said


def test_elision_reads_the_first_letter_past_markdown_and_accents():
    assert elides("Émile") and elides("**Ilan**") and elides("hélène")
    assert not elides("Yasmine") and not elides("Hr") and not elides("Zoé")
    assert not elides("") and not elides("**")


def test_an_article_takes_a_small_letter_inside_a_sentence_but_not_at_its_start():
    assert french_join("Ana contre ", "Les fantômes") == ("Ana contre ", "les fantômes")
    assert french_join("", "Les fantômes") == ("", "Les fantômes")
    assert french_join("Fini. 🏆 ", "L'ombre") == ("Fini. 🏆 ", "L'ombre")
    assert french_join("c'est à ", "Le Roi") == ("c'est au ", "Roi")
    assert french_join("C'est à ", "**Les fantômes**") == ("C'est aux ", "**fantômes**")
    assert french_join("tu attends ", "Ana") == ("tu attends ", "Ana")  # no article, no "de"
    assert french_join("plus que ", "Ève") == ("plus qu'", "Ève")
    assert french_join("pas de classement « ", "Le top") == ("pas de classement « ", "Le top")


def test_the_bot_says_each_name_right_in_the_texts_of_a_match():
    assert t("digits.ghost.of", "fr", name="Ana") == "Fantôme d'Ana"
    assert t("digits.ghost.of", "fr", name="Zoé") == "Fantôme de Zoé"
    assert t("digits.shop.slate_title", "en", name="Ana") == "Ana's slate"  # English as it was
    assert t("digits.match.title", "fr", left="**Ana**", right="**Les fantômes**") == (
        "Les 20 chiffres — **Ana** contre **les fantômes**")
    assert t("digits.shop.slate_title", "fr", name="L'ombre (robot)") == (
        "L'ardoise de l'ombre (robot)")
    assert t("digits.end.won", "fr", name="**L'ombre (robot)**") == (
        "🏆 **L'ombre (robot)** gagne la partie\u202f!")  # typeset: tests/test_typography.py
    assert t("errors.draft.not_your_turn", "fr", picker="Hugo") == (
        "Ce n'est pas ton tour de choisir\u00a0: c'est à Hugo.")
    # Numbers and English are left as they are.
    assert t("settings.show.fewer.pieces", "fr", count=8, value="8") == "avec moins de 8 pièces"


def test_french_formatting_keeps_what_python_formatting_does():
    cats = Catalogues({"fr": {"a": "{{x}} de {n} et {v:>3}", "b": "{name!r} de {name}"},
                       "en": {}}, {})
    assert cats.format("a", "fr", {"n": "Ana", "v": 7}) == "{x} d'Ana et   7"
    assert cats.format("b", "fr", {"name": "Ève"}) == "'Ève' d'Ève"
    assert cats.format("a", "fr", {"v": 1}) == "{x} de {n} et   1"  # a missing value stays seen


# --- The catalogue scan ------------------------------------------------------------------------

#: Words French elides before a vowel sound (the catalogue's fixed words; values are elided by
#: the bot itself).
ELIDING = r"de|que|le|la|ne|se|je|me|te|jusque|lorsque|puisque"
NOT_ELIDED = re.compile(rf"(?<![\w'’-])({ELIDING}) (?=[aeiouyàâäéèêëîïôöûùüœæ]\w)",
                        re.IGNORECASE)
NOT_CONTRACTED = re.compile(r"(?<![\w'’])(de|à) (le|les) (?![a-zàâéèêîôû]+-)", re.IGNORECASE)
#: The game's English words, each with the French the catalogue uses for it.
ENGLISH = {"draft": "rangée commune", "ghost": "fantôme", "ghosts": "fantômes",
           "slate": "ardoise", "shop": "boutique", "shadow": "ombre", "tier": "palier",
           "reroll": "nouvelles offres", "gold": "or", "ready": "prêt", "lives": "vies",
           "round": "manche", "battle": "combat", "odds": "chances", "auto-battler": "",
           "stats": "ATT et PV", "card": "carte", "challenge": "défi", "merge": "fusion"}
ENGLISH_WORDS = re.compile(r"\b(" + "|".join(map(re.escape, ENGLISH)) + r")\b", re.IGNORECASE)
#: A missing space before ; : ! ? or inside « » (the catalogue's convention is an ordinary one).
NO_SPACE = re.compile(r"(?<=[^\s{}(\[/])[;:!?](?=\s|$)|«(?=\S)|(?<=\S)»")
#: Where an English word is no fault: a code sample, a key of JSON the teacher types.
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
CODE = re.compile(r"`[^`]*`|\{\{.*?\}\}|\[\{\{.*?\}\}")


def french_texts() -> dict[str, str]:
    return dict(catalogues().texts["fr"])


def readable(text: str) -> str:
    """The words a member reads: placeholders and code samples left out."""
    return PLACEHOLDER.sub("X", CODE.sub(" ", text))


def test_no_fixed_word_is_left_unelided_before_a_vowel():
    # Pronouns after a verb ("annule-le et", "quitte-la avec") are not elided, nor "de" before
    # a letter's name ("de a à h").
    found = {key: m.group(0) for key, text in french_texts().items()
             for m in NOT_ELIDED.finditer(readable(text))}
    assert found == {}


def test_no_fixed_de_le_or_a_les_is_left_uncontracted():
    # "permet de les choisir": "les" a pronoun before a verb, no article.
    found = {key: m.group(0) for key, text in french_texts().items()
             for m in NOT_CONTRACTED.finditer(readable(text))
             if not re.match(r"\w+(er|ir|re)\b", readable(text)[m.end():])}
    assert found == {}


def test_no_english_word_of_the_game_is_left_in_the_french():
    found = {key: m.group(0) for key, text in french_texts().items()
             for m in ENGLISH_WORDS.finditer(readable(text))}
    assert found == {}


def test_the_scans_see_what_they_look_for():
    assert NOT_ELIDED.search("Fantôme de Ana") and NOT_ELIDED.search("que il")
    assert not NOT_ELIDED.search("d'Ana") and not NOT_ELIDED.search("de Zoé")
    assert NOT_CONTRACTED.search("l'ardoise de le robot")
    assert readable("draft : {draft} `draft`").strip() == "draft : X"
    assert ENGLISH_WORDS.search("draft : non") and ENGLISH_WORDS.search("contre les ghosts")
    assert not ENGLISH_WORDS.search("une rangée commune, contre les fantômes")
    assert NO_SPACE.search("Prêt!") and NO_SPACE.search("«Ana »")
    assert not NO_SPACE.search("Prêt ! « Ana » : 3 ; série:X")


def test_french_puts_a_space_before_two_part_punctuation_as_the_catalogue_does():
    # The catalogue's convention: an ordinary space before ; : ! ? and inside « ».
    found = {}
    for key, text in french_texts().items():
        if key.startswith("errors.class.questions") or "{{" in text:
            continue  # JSON and CSV samples a teacher copies
        if "://" in text:
            continue
        for m in NO_SPACE.finditer(readable(text)):
            found[key] = readable(text)[max(0, m.start() - 15):m.end() + 5]
    assert found == {}
