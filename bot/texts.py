"""French and English texts, without Discord: the one catalogue, plurals, numbers and dates.

The catalogue is ``cogs/locales/<lang>/<name>.json``, one file per cog (plus bot-wide ones such
as ``bot.json``). A file is a JSON object, nested or with dotted keys; both flatten to dotted keys
(``{"card": {"title": "…"}}`` is ``card.title``). All files of a language share one namespace: a
key defined twice is an error at load time, so each cog keeps its own prefix (``digits_info.…``).
Texts use ``{name}`` placeholders filled by ``t(key, lang, name=…)``; a key with plural forms
(``key.one``, ``key.other``, … as CLDR names them) is said with ``t(key, lang, count=n)``.
Numbers, percentages and dates come from Babel.

French joins its words to the values it is given (``french_join``): a name is a runtime value, so
"de {name}" is said "d'Ana" but "de Zoé", "que {name}" "qu'Ève"; a value that begins with an
article ("Le Roi", "Les fantômes", "L'ombre (robot)") takes a small letter inside a sentence and
contracts after "de" and "à" ("l'ardoise du Roi", "contre les fantômes", "c'est à l'ombre"). The
catalogue writes "de {name}" as French is written; the bot says it right for each name.

English and French have exactly the same keys and the same placeholders (a test checks it),
except the ``commands.`` keys, which only French has: English command names and descriptions are
the ones in the code.

This module imports nothing of Discord, so the use cases (``bot/play``) may say texts too;
``bot.i18n`` adds what needs Discord (an interaction's language, command translations) and says
domain errors.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import logging
import re
import string
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from babel import Locale
from babel.dates import format_date, get_day_names, get_month_names
from babel.numbers import format_decimal, format_percent, get_decimal_symbol

log = logging.getLogger(__name__)

LANGS = ("en", "fr")
DEFAULT_LANG = "en"
COMMANDS_PREFIX = "commands."
CHOICES_PREFIX = "choices."


class CatalogueError(ValueError):
    """A catalogue file that cannot be used (bad JSON, a non-text value, a key defined twice)."""


def _flatten(data: Mapping[str, Any], prefix: str, source: str) -> Iterable[tuple[str, str]]:
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{full}.", source)
        elif isinstance(value, str):
            yield full, value
        else:
            raise CatalogueError(f"{source}: {full!r} must be a text or an object, not {value!r}")


def default_root() -> Path:
    """The folder holding one sub-folder per language (``cogs/locales``). Found without
    importing the ``cogs`` package (which loads discord.py): the engines' command lines and the
    use cases say texts too."""
    spec = importlib.util.find_spec("cogs")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))) / "locales"
    return Path(str(resources.files("cogs") / "locales"))


#: The values a said text is kept for (``Catalogues.format``), and how many texts at most.
_PLAIN = (str, int, float)
_SAID_MAX = 20_000


class Catalogues:
    """Every language's texts, loaded from a folder of ``<lang>/<name>.json`` files."""

    def __init__(self, texts: Mapping[str, Mapping[str, str]], sources: Mapping[str, str]) -> None:
        self.texts: dict[str, dict[str, str]] = {lang: dict(texts.get(lang, {})) for lang in LANGS}
        self.sources = dict(sources)  # "lang:key" -> file, to point at the file in test failures
        #: Texts said already with the same plain values (issue 24: a Focus window says the same
        #: labels, footers and level names again and again; French costs a typography and a
        #: Babel number each time). Bounded: emptied when full.
        self._said: dict[tuple[Any, ...], str] = {}

    @classmethod
    def load(cls, root: Path | None = None) -> Catalogues:
        root = default_root() if root is None else root
        texts: dict[str, dict[str, str]] = {}
        sources: dict[str, str] = {}
        for lang in LANGS:
            merged: dict[str, str] = {}
            folder = root / lang
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
                name = f"{lang}/{path.name}"
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                except json.JSONDecodeError as error:
                    raise CatalogueError(f"{name}: not valid JSON ({error})") from None
                if not isinstance(data, Mapping):
                    raise CatalogueError(f"{name}: the file must hold a JSON object")
                for key, text in _flatten(data, "", name):
                    if key in merged:
                        raise CatalogueError(
                            f"{name}: {key!r} is already defined in {sources[f'{lang}:{key}']}"
                        )
                    merged[key] = text
                    sources[f"{lang}:{key}"] = name
            texts[lang] = merged
        return cls(texts, sources)

    def has(self, key: str, lang: str) -> bool:
        return key in self.texts.get(lang, {})

    def get(self, key: str, lang: str) -> str | None:
        return self.texts.get(lang, {}).get(key)

    def format(self, key: str, lang: str, params: Mapping[str, Any]) -> str:
        lang = lang if lang in LANGS else DEFAULT_LANG
        plain = all(type(v) in _PLAIN for v in params.values())
        if not plain:
            return self._format(key, lang, params)
        # The values' types are part of the key: 1 and 1.0 are written "1" and "1.0".
        memo = (key, lang, *((k, type(v), v) for k, v in sorted(params.items())))
        found = self._said.get(memo)
        if found is None:
            if len(self._said) >= _SAID_MAX:
                self._said.clear()
            found = self._said[memo] = self._format(key, lang, params)
        return found

    def _format(self, key: str, lang: str, params: Mapping[str, Any]) -> str:
        text = self.get(key, lang)
        if text is None:
            text = self.get(key, DEFAULT_LANG)
            if text is None:
                log.warning("missing text %r", key)
                return key
            log.warning("missing %s text %r; using English", lang, key)
        if lang == "fr":
            return _format_french(typography(text, lang), _Params(params, key))
        return text.format_map(_Params(params, key))


class _Params(dict[str, Any]):
    """Placeholder values; a missing one stays visible as ``{name}`` instead of raising."""

    def __init__(self, params: Mapping[str, Any], key: str) -> None:
        super().__init__(params)
        self.key = key

    def __missing__(self, name: str) -> str:
        log.warning("text %r: no value for {%s}", self.key, name)
        return "{" + name + "}"


# --- French: elision and articles before a value ----------------------------------------------

_VOWELS = frozenset("aeiouœæ")
_MARKUP = re.compile(r"[*_~|`\\]*")  # markdown around a name (``**Ana**``, ``\\_ana``)
_ARTICLE = re.compile(r"(l'|l’|les |le |la )(?=\w)", re.IGNORECASE)
_ELIDING = re.compile(r"(?<![\w'’])(de|que) $", re.IGNORECASE)
_CONTRACTING = re.compile(r"(?<![\w'’])(de|à) $", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?…\n]")
#: Contractions of "de"/"à" with "le"/"les" (French writes "du Roi", "aux fantômes").
_CONTRACTED = {("de", "le "): "du ", ("de", "les "): "des ", ("à", "le "): "au ",
               ("à", "les "): "aux "}


def _letter(text: str, index: int) -> str:
    """The letter at ``index`` without its accent, in small letters ("" past the end)."""
    if index >= len(text):
        return ""
    decomposed = unicodedata.normalize("NFKD", text[index])
    return decomposed[:1].lower()


def elides(word: str) -> bool:
    """Whether French elides "de"/"que" before ``word``: a vowel ("Ana", "Élise", "Œdipe"), an
    "h" before a vowel (mute: "Hugo"), a "y" before a consonant ("Yves", not "Yann")."""
    rest = word[_MARKUP.match(word).end():]  # type: ignore[union-attr]
    first, second = _letter(rest, 0), _letter(rest, 1)
    if first in _VOWELS:
        return True
    if first == "h":
        return second in _VOWELS or second == "y"
    if first == "y":
        return second != "" and second.isalpha() and second not in _VOWELS
    return False


def french_join(before: str, value: str) -> tuple[str, str]:
    """``before`` and ``value`` as French writes them one after the other: "de " + "Ana" is
    "d'" + "Ana"; an article starting ``value`` takes a small letter inside a sentence and
    contracts with "de"/"à" ("de " + "Le Roi" is "du " + "Roi")."""
    if before.rstrip().endswith(("«", '"', "“")):
        return before, value  # a quotation is said as it was typed
    markup = _MARKUP.match(value).end()  # type: ignore[union-attr]
    rest = value[markup:]
    article = _ARTICLE.match(rest)
    if article is not None:
        said = article.group(1).lower().replace("’", "'")
        tail = before[_last_sentence_end(before):]
        starts = not any(c.isalnum() for c in tail)
        joined = _CONTRACTING.search(before)
        contracted = (_CONTRACTED.get((joined.group(1).lower(), said))
                      if joined is not None else None)
        if contracted is not None:
            assert joined is not None
            if joined.group(1)[0].isupper():
                contracted = contracted.capitalize()
            before = before[:joined.start()] + contracted
            return before, value[:markup] + rest[article.end():]
        if not starts:
            return before, value[:markup] + said + rest[article.end():]
        return before, value
    eliding = _ELIDING.search(before)
    if eliding is not None and elides(value):
        return before[:eliding.end() - 2] + "'", value
    return before, value


def _last_sentence_end(text: str) -> int:
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return ends[-1] if ends else 0


def de_name(name: str) -> str:
    """"de" and ``name`` as French says them: "d'Ana", "d'Hugo", "de Zoé", "du Roi"."""
    before, value = french_join("de ", name)
    return before + value


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    return tuple(string.Formatter().parse(text))


def _format_french(text: str, params: _Params) -> str:
    """``text.format_map(params)``, each value joined to the words before it by
    ``french_join`` (numbers are left as they are)."""
    parts = _parsed(text)
    if any(name is not None and not name.isidentifier() for _, name, _, _ in parts):
        return text.format_map(params)  # an indexed field: as Python formats it
    out = ""
    for literal, name, spec, conversion in parts:
        out += literal
        if name is None:
            continue
        raw = params[name]
        if conversion:
            raw = _CONVERSIONS[conversion](raw)
        if isinstance(raw, int | float) and not isinstance(raw, bool):
            value = _french_number(name, raw, spec or "")
        else:
            value = format(raw, spec or "")
        if isinstance(raw, str):
            out, value = french_join(out, value)
        out += value
    return out


#: Numbers that name rather than count: a year ("2026"), a game's or a puzzle's number
#: ("la partie n° 1042") are written without groups of digits.
_UNGROUPED = frozenset({"year", "id", "game", "match", "number", "puzzle", "seed"})


def _french_number(name: str, raw: float, spec: str) -> str:
    """A number given to a French text: Babel's groups (``1 250``) and decimal comma (``0,5``);
    with a format spec (``{v:.1f}``, ``{v:>3}``) Python's layout, with a decimal comma."""
    places = re.fullmatch(r"\.(\d)f", spec)
    if places is not None:
        return decimal(raw, "fr", int(places.group(1)))
    if spec or name in _UNGROUPED or name.endswith("_id"):
        return question_text(format(raw, spec), "fr")  # the decimal sign, as questions say it
    return number(raw, "fr")


# --- French typography ---------------------------------------------------------------------------

NNBSP = "\u202f"  # narrow no-break space: before ; ! ? and inside « », between groups of digits
NBSP = "\u00a0"   # no-break space: before :, after "n°"
_SPACES = " \u00a0\u202f"
#: What typography never touches: code (``/commande option:`` examples), URLs, Discord's syntax
#: (mentions, channels, ``<t:…>`` times, ``</cmd:id>`` commands, custom emoji), emoji codes
#: (``:white_check_mark:``) and a template's ``{placeholders}`` (``{value:>3}``).
_PROTECTED = re.compile(
    r"```.*?```|`[^`\n]*`|https?://[^\s<>)]+|<(?:[@#/]|a?:|t:)[^<>\s]*>|<!--.*?-->"
    r"|(?<![\w:]):[a-z0-9_+-]+:(?![\w:])|\{\{|\}\}|\{[^{}]*\}", re.DOTALL)
_HOLE = "\ue000"  # one private-use character stands for each protected piece while rules run
#: What comes before « ; ! ? : » when French puts a space between: anything but a space, an
#: opening bracket or quote ("(?)"), or a table's bar.
_END = r"[^\s(\[{«<|]"
_HIGH = re.compile(rf"(?<={_END})[{_SPACES}]*([;!?]+)(?![\w])")
_COLON = re.compile(rf"(?<={_END})[{_SPACES}]*:(?=[*_~]*(?:\s|$))")
_OPEN = re.compile(rf"«[{_SPACES}]*")
_CLOSE = re.compile(rf"[{_SPACES}]*»")
_GROUPS = re.compile(rf"(?<![\d.,])\d{{1,3}}(?:[ {NBSP}{NNBSP}]\d{{3}})+(?![\d])")
_PERCENT = re.compile(rf"(?<=\d)[{_SPACES}]?%")
_HOURS = re.compile(rf"(?<=[\d{_HOLE}]) h(?=[\s.,;:!?)*_~]|$)")
#: A text that starts with its space and punctuation (" : ", a separator joined in code).
_LEADING = re.compile(rf"^[{_SPACES}]+(?=([;!?:])(?:\s|$))")
_MINUTES = re.compile(rf"(?<=\d{NBSP}h) (?=\d{{2}}(?!\d))")  # « 18 h 30 »
_NUMERO = re.compile(rf"\bn°[{_SPACES}]*(?=[\dA-Z{_HOLE}])")


@functools.lru_cache(maxsize=8192)
def typography(text: str, lang: str) -> str:
    """``text`` as French typesets it (the catalogue writes plain spaces, or none): a narrow
    no-break space before « ; ! ? » and inside « », a no-break space before « : » and « % »
    (as CLDR writes a percentage), after « n° » and in « 18 h 30 », narrow no-break spaces
    between groups of digits. Code, URLs, Discord's syntax and placeholders are left as they
    are; other languages are unchanged. Applying it twice changes nothing."""
    if lang_of(lang) != "fr":
        return text
    kept: list[str] = []

    def hold(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return _HOLE

    work = _PROTECTED.sub(hold, text)
    work = _OPEN.sub("«" + NNBSP, work)
    work = _CLOSE.sub(NNBSP + "»", work)
    work = _LEADING.sub(lambda m: NBSP if m.group(1) == ":" else NNBSP, work)
    work = _HIGH.sub(lambda m: NNBSP + m.group(1), work)
    work = _COLON.sub(NBSP + ":", work)
    work = _GROUPS.sub(lambda m: re.sub(f"[ {NBSP}]", NNBSP, m.group(0)), work)
    work = _PERCENT.sub(NBSP + "%", work)  # as CLDR writes a percentage
    work = _HOURS.sub(NBSP + "h", work)
    work = _MINUTES.sub(NBSP, work)
    work = _NUMERO.sub("n°" + NBSP, work)
    pieces = iter(kept)
    return re.sub(_HOLE, lambda _: next(pieces), work)


def digit_groups(text: str, lang: str) -> str:
    """A member's text (a teacher's question) with its groups of digits kept together as French
    keeps them (``1 250`` with a narrow no-break space), and nothing else changed."""
    if lang_of(lang) != "fr":
        return text
    return _GROUPS.sub(lambda m: re.sub(f"[ {NBSP}]", NNBSP, m.group(0)), text)


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` of a text (``{{`` and ``}}`` are literal braces)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


_catalogues: Catalogues | None = None


def catalogues() -> Catalogues:
    """The product's catalogues, loaded on first use."""
    global _catalogues
    if _catalogues is None:
        _catalogues = Catalogues.load()
    return _catalogues


def reload() -> Catalogues:
    global _catalogues
    _catalogues = Catalogues.load()
    return _catalogues


_Text = TypeVar("_Text", bound=Callable[..., str])


def kept_per_load(function: _Text, /, maxsize: int = 4096) -> _Text:
    """``function`` (pure: a text of its hashable arguments and the catalogues), its results
    kept while the same catalogues stay loaded (``reload`` starts afresh). For the lines a Focus
    window says again and again: a question in the member's way, a correction's worked steps,
    which the round's summary says once more (issue 24's profile)."""
    kept: dict[tuple[Any, ...], str] = {}
    loaded: list[Catalogues | None] = [None]

    @functools.wraps(function)
    def text(*args: Any, **kwargs: Any) -> str:
        current = catalogues()
        if loaded[0] is not current:
            kept.clear()
            loaded[0] = current
        key = (*args, *sorted(kwargs.items())) if kwargs else args
        found = kept.get(key)
        if found is None:
            if len(kept) >= maxsize:
                kept.clear()
            found = kept[key] = function(*args, **kwargs)
        return found

    return text  # type: ignore[return-value]


#: The conversions of a placeholder (``{name!r}``), as ``str.format`` has them.
_CONVERSIONS: dict[str, Callable[[object], str]] = {"r": repr, "s": str, "a": ascii}


def t(key: str, lang: str, /, *, count: float | None = None, **params: Any) -> str:
    """The text ``key`` in ``lang``, placeholders filled; English, then the key, if absent.

    With ``count``, a key that has plural forms (``key.one``, ``key.other``, …) is said in the
    form CLDR gives for that count, and ``{count}`` is the count."""
    if count is not None:
        params["count"] = count
        if not has(key, lang_of(lang)) and not has(key):
            key = f"{key}.{plural_form(count, lang)}"
    return catalogues().format(key, lang, params)


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    return catalogues().has(key, lang)


# --- Plurals, numbers and dates (Babel, CLDR) ------------------------------------------------

PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def lang_of(lang: str | None) -> str:
    """``en`` or ``fr`` for any language tag (``fr-CA`` is French; unknown ones are English)."""
    if lang and lang.lower().startswith("fr"):
        return "fr"
    return lang if lang in LANGS else DEFAULT_LANG


_locales: dict[str, Locale] = {}


def locale(lang: str) -> Locale:
    lang = lang_of(lang)
    if lang not in _locales:
        _locales[lang] = Locale.parse(lang)
    return _locales[lang]


def plural_groups(cats: Catalogues | None = None) -> set[str]:
    """The keys said by count: those with a ``.one`` and a ``.other`` form, in any language."""
    cats = catalogues() if cats is None else cats
    return {key[: -len(".other")] for texts in cats.texts.values() for key in texts
            if key.endswith(".other") and key[: -len(".other")] + ".one" in texts}


def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories ``lang`` uses (always with ``other``)."""
    return frozenset(locale(lang).plural_form.tags) | {"other"}


def plural_form(count: int | float, lang: str) -> str:
    """The CLDR plural category of ``count`` in ``lang``: ``one``, ``many`` or ``other``."""
    return locale(lang).plural_form(abs(count))


def number(value: int | float, lang: str, max_places: int = 3) -> str:
    """A number with the language's grouping and decimal sign, at most ``max_places`` decimals
    and no trailing zeros: ``12,345``, ``12 345`` (a narrow no-break space), ``1.5``, ``1,5``."""
    return _number(value, lang, max_places)


@functools.lru_cache(maxsize=8192)
def _number(value: int | float, lang: str, max_places: int) -> str:
    # Babel's formatting costs some 50 µs, and every number of a French text comes here (a
    # practice answer's window says six or more): the same small numbers, again and again
    # (issue 24's profile: 5 % of the event loop in a round of 200 members). 1 and 1.0 share a
    # key and are written alike ("1").
    pattern = "#,##0" + ("." + "#" * max_places if max_places > 0 else "")
    return format_decimal(value, format=pattern, locale=locale(lang))


def decimal(value: float, lang: str, places: int = 1, whole_digits: int = 1) -> str:
    """``3.2``, ``3,2``: ``places`` decimals, rounded as Python rounds (``round``); at least
    ``whole_digits`` before the separator (``03,0``)."""
    return _decimal(round(value, places), lang, places, whole_digits)


@functools.lru_cache(maxsize=4096)
def _decimal(rounded: float, lang: str, places: int, whole_digits: int) -> str:
    # Babel's formatting costs some 50 µs; a round's summary says six times and a live report
    # hundreds, mostly the same few tenths of a second.
    whole = "#,##" + "0" * whole_digits if whole_digits < 4 else "0" * whole_digits
    pattern = whole + ("." + "0" * places if places > 0 else "")
    return format_decimal(rounded, format=pattern, locale=locale(lang))


@functools.cache
def decimal_symbol(lang: str) -> str:
    """The language's decimal separator ("." / ","), for figures written many at a time."""
    return get_decimal_symbol(locale(lang))


def percent(ratio: float, lang: str) -> str:
    """``96%`` in English, ``96 %`` in French (a no-break space, as CLDR writes it)."""
    return format_percent(ratio, locale=locale(lang))


def month_name(month: int, lang: str,
               width: Literal["abbreviated", "narrow", "wide"] = "wide") -> str:
    """``November``/``novembre`` (``width="abbreviated"``: ``Nov``/``nov.``)."""
    return get_month_names(width, locale=locale(lang))[month]


def weekday_name(weekday: int, lang: str,
                 width: Literal["abbreviated", "narrow", "short", "wide"] = "abbreviated"
                 ) -> str:
    """``Mon``/``lun.`` for Monday (``weekday`` 0) as ``datetime.date.weekday()`` counts."""
    return get_day_names(width, locale=locale(lang))[weekday]


#: The kinds of dates the bot writes, each always in one CLDR pattern (docs/rules/README.md has
#: the table): a day ("1er décembre 2026"), a day in a sentence about a deadline ("mardi 8
#: décembre 2026"), a day among many (a week, a history line: "1er déc. 2026"), a range's first
#: day and a chart's axis ("25 nov.").
DAY = "d MMMM y"
WEEKDAY = "EEEE d MMMM y"
WEEKDAY_NO_YEAR = "EEEE d MMMM"  # a day of the week just past or to come (the weekly digest)
SHORT_DAY = "d MMM y"
SHORT_DAY_NO_YEAR = "d MMM"
_DAY_FIELD = re.compile(r"(?<![d'])d(?![d'])")


def date_text(day: Any, lang: str, pattern: str = DAY) -> str:
    """A date in CLDR's pattern language: ``1 December 2026``, ``1er décembre 2026`` (French
    writes the first of a month as an ordinal, « 1er », and every other day as a number)."""
    if lang_of(lang) == "fr" and getattr(day, "day", None) == 1:
        pattern = _DAY_FIELD.sub("d'er'", pattern)
    return format_date(day, pattern, locale=locale(lang))


def time_text(moment: Any, lang: str) -> str:
    """A time of day: ``18:30`` in English, ``18 h 30`` in French (and ``18 h`` on the hour),
    as French writes times in a sentence; the spaces are no-break ones."""
    if lang_of(lang) == "fr":
        hour = f"{moment.hour}{NBSP}h"
        return hour if moment.minute == 0 else f"{hour}{NBSP}{moment.minute:02d}"
    return f"{moment.hour:02d}:{moment.minute:02d}"


def moment_text(moment: Any, lang: str) -> str:
    """A day and a time, ``Tuesday 8 December 2026 at 18:00`` / ``mardi 8 décembre 2026 à 18 h``
    (``moment`` already in the zone it is read in)."""
    return t("dates.moment", lang, date=date_text(moment, lang, WEEKDAY),
             time=time_text(moment, lang))


class ImageWords:
    """Everything a picture writes, in one language, from the catalogue (``images.…`` keys).

    The cogs build one and hand it to ``images.render_…``; it is the ``images.Words`` the
    pictures ask, so ``images/`` needs neither the catalogue nor Babel."""

    def __init__(self, lang: str) -> None:
        self.lang = lang_of(lang)

    # Equal by language, so a copy (a picture drawn in another process) is the same words.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, ImageWords) and other.lang == self.lang

    def __hash__(self) -> int:
        return hash(("ImageWords", self.lang))

    def __repr__(self) -> str:
        return f"ImageWords({self.lang!r})"

    def __call__(self, key: str, /, **params: Any) -> str:
        return t(f"images.{key}", self.lang, **params)

    def count(self, key: str, n: int) -> str:
        return t(f"images.counts.{key}", self.lang, count=n)

    def percent(self, ratio: float) -> str:
        return percent(ratio, self.lang)

    def decimal(self, value: float, places: int = 1, whole_digits: int = 1) -> str:
        return decimal(value, self.lang, places, whole_digits)

    def month(self, month: int) -> str:
        return month_name(month, self.lang, "abbreviated")

    def weekday(self, weekday: int) -> str:
        return weekday_name(weekday, self.lang, "abbreviated")

    def date(self, day: Any, pattern: str) -> str:
        return date_text(day, self.lang, pattern)

    def topic(self, key: str) -> str:
        return _named(key, self.lang, ("topics", "skills"))

    def skill(self, key: str) -> str:
        return skill_name(key, self.lang)


def skill_name(key: str, lang: str) -> str:
    """The name a member reads for a Focus topic or skill id (``fractions-of``: "a fraction of a
    number", « fraction d'un nombre »): never the id itself. A skill's own name first, then a
    topic's; an id in neither catalogue (a topic a later version dropped) reads as its words."""
    return _named(key, lang, ("skills", "topics"))


def _named(key: str, lang: str, lists: tuple[str, ...]) -> str:
    # A topic and a skill may share an id and not a name ("powers": the topic holds the roots).
    for name in (f"focus.{kind}.{key}" for kind in lists):
        if has(name, lang):
            return t(name, lang)
    return key.replace("_", " ").replace("-", " ")


def skill_level_name(key: str, level: int, lang: str) -> str:
    """The name of one level of a Focus skill (``fractions-of`` 1: "A unit fraction of a
    number", « Une fraction unitaire d'un nombre »), from the catalogue, where every level of
    every skill of ``bot.focus.skills.SKILLS`` is named in both languages; the skill's own name
    for a level it does not name."""
    name = f"focus.skill_levels.{key}.{level}"
    return t(name, lang) if has(name, lang) else skill_name(key, lang)


_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
#: "2/3 of 18", "50 % of 178": the one word of the engine's texts (``bot.focus.skills``).
_OF = re.compile(r"(?<=[\d%]) of (?=[\d(−-])")
_OF_WORD = {"fr": " de "}


def question_text(text: str, lang: str) -> str:
    """A Focus question or answer as the engine writes it (``22.4 − 5.3``, ``2/3 of 18``), as
    a member of ``lang`` reads it (``22,4 − 5,3``, ``2/3 de 18`` in French): every picture,
    window, correction and CSV of a question goes through here, so that the stored text stays
    one form for every language."""
    point = decimal_symbol(lang)
    if point != ".":
        text = _DECIMAL_POINT.sub(point, text)
    word = _OF_WORD.get(lang_of(lang))
    return text if word is None else _OF.sub(word, text)


_image_words: dict[str, ImageWords] = {}


def image_words(lang: str) -> ImageWords:
    """The ``ImageWords`` of a language (one each: they hold nothing but the language)."""
    lang = lang_of(lang)
    if lang not in _image_words:
        _image_words[lang] = ImageWords(lang)
    return _image_words[lang]
