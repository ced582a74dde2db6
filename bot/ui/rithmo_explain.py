"""A capture's arithmetic in words: "12 taken by ambush: 8 + 4 = 12", in the member's language.

The engine (:mod:`bot.rithmo.why`) says why as data; this module is the one place that turns it
into a sentence, so that the turn's message, the board picture's "last turn" line, a hint and a
puzzle's answer say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.texts import has, t

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def superscript(n: int) -> str:
    """``4`` → ``⁴``: an exponent as school writes it."""
    return str(n).translate(_SUPERSCRIPT)


def victim_label(why: Mapping[str, Any], lang: str) -> str:
    """The victim's value, and its pyramid when a component of it is taken."""
    value = why["result"]
    if "pyramid" in why:
        return t("rithmo_why.component", lang, value=value, pyramid=why["pyramid"])
    return str(value)


def _root_name(k: int, lang: str) -> str:
    key = f"rithmo_why.root_name.{k}"
    return t(key, lang) if has(key, lang) else t("rithmo_why.root_name.other", lang, k=k)


def why_text(why: Mapping[str, Any], lang: str) -> str:
    """The sentence for one ``why`` object (see :mod:`bot.rithmo.why` for its fields)."""
    relation = why["relation"]
    values = list(why["values"])
    v = why["result"]
    victim = victim_label(why, lang)
    if relation in ("equal",):
        return t("rithmo_why.equal", lang, victim=victim, a=values[0], v=v)
    if relation in ("sum", "difference", "product", "ratio"):
        return t(f"rithmo_why.{relation}", lang, victim=victim, a=values[0], b=values[1], v=v)
    if relation == "distance":
        key = "rithmo_why.distance_" + ("ratio" if why.get("operation") == "ratio" else "product")
        return t(key, lang, count=values[1], victim=victim, a=values[0], v=v)
    if relation == "power":
        return t("rithmo_why.power", lang, victim=victim, a=values[0], exp=superscript(values[1]),
                 v=v)
    if relation == "root":
        return t("rithmo_why.root", lang, victim=victim, a=values[0], exp=superscript(values[1]),
                 v=v, root=_root_name(values[1], lang))
    if relation in ("arithmetic", "geometric", "harmonic"):
        x, y, z = values
        return t(f"rithmo_why.{relation}", lang, victim=victim, x=x, y=y, z=z, step=why["step"])
    if relation == "surrounded":
        return t("rithmo_why.surrounded", lang, victim=victim)
    raise ValueError(f"unknown relation {relation!r}")


def capture_text(entry: Mapping[str, Any], lang: str) -> str:
    """The sentence for a capture as :func:`bot.rithmo.why.explain_capture` or
    :func:`bot.rithmo.why.explained_options` gives it (an entry with ``"why"``)."""
    return why_text(entry["why"], lang)
