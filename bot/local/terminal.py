"""Local play: the real bot and its cogs, the stand-in for Discord, and the terminal as the client.

``python -m bot`` without a ``DISCORD_TOKEN`` (or ``python -m bot --local``) starts the bot against
``bot.local.StandIn`` on this machine and reads lines like these (``help`` lists them all)::

    /digits card Odd                 a slash command: required options by position…
    /focus practice level:3          …or by name; "quotes" around text with spaces
    click 2                          click the button numbered 2 (or: click Accept)
    pick 3 1                         pick option 1 in the menu numbered 3
    answer 15                        fill the open form (answer right / answer wrong for Focus)
    as sam fr                        act as the member Sam (created on first use, French)

The bot sees exactly what it would see from Discord: every line becomes an interaction through the
stand-in (one code path). Data goes to the bot's usual database (``Config.db_path``), and the
stand-in's ``stable_ids`` give the server and the members the same ids every session, so progress
is there next time. ``--script FILE`` plays a file of such lines, echoing each line and what the
bot showed, and stops with status 1 at the first line that fails; a line starting with ``!``
expects the bot to refuse it. See docs/local-play.md.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import difflib
import logging
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from bot.focus.questions import work_out
from bot.local.render import (
    Numbered,
    button_label,
    message_lines,
    modal_fields,
    modal_lines,
    numbers_from,
    plain,
)
from bot.local.server import (
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
    Attachment,
    Channel,
    InteractionRecord,
    Member,
    Message,
    NoAnswer,
    StandIn,
    StandInError,
)

log = logging.getLogger(__name__)

DEFAULT_MEMBER = "Ana"
QUIET = 0.05  # seconds without a request (and no thread at work) after which the bot is done
TIMER_ROUNDS = 20  # quiet turns of the loop after which the bot's remaining tasks are timers
SETTLE_TIMEOUT = 15.0
MAX_WAIT = 60.0

VERBS = ("help", "click", "pick", "select", "answer", "as", "who", "look", "channel", "wait",
         "expect", "open", "images", "quit", "exit")

HELP = """\
Local play: you are a member of the server "{guild}" and this terminal is your Discord.

  /command [options]     run a slash command: /help, /digits card Odd, /focus practice level:3,
                         /rithmo move c3-c5, /digits challenge @sam. Required options by position,
                         any option as name:value, "quotes" around text with spaces. French names
                         work too (/chiffres carte Impair). An option value ? lists the bot's
                         suggestions (/rithmo move ?).
  click N | click LABEL  click the button numbered N in what was shown last (or by its label)
  pick N CHOICE…         pick in the menu numbered N: choices by their number in the menu, or by
                         label (several for a multiple choice); for a member menu, their names
  answer TEXT            fill the open form (one field); answer name:value … for several fields
  answer right | wrong   type the right (or a wrong) answer to the Focus question in the form:
                         the terminal works it out from the question shown, like a student would
  as NAME [fr|en] [teacher]
                         act as another member (created on first use; fr = French Discord,
                         teacher = may change /settings). With two members you play both sides
                         of a challenge; /digits solo and /rithmo solo play against the bot.
  who                    the members of this server, and who you are
  look [N]               show the last N messages you can see again, numbered (default 5)
  channel NAME           type in another channel (created on first use)
  wait [SECONDS]         let the bot work for a while (default 1 s) and show what it posted
  expect TEXT            (scripts) fail unless the last answer contains TEXT
  open                   open the last images with the system's viewer
  images on|off          open new images automatically, or not
  help                   this list;  quit (or Ctrl-D) ends the session
  A line starting with ! expects the bot to refuse it (scripts fail otherwise); # is a comment.

Images are saved in {images}. Progress is saved in {db}.
"""


def fold(text: str) -> str:
    # Accents and case do not matter to a member typing a name ("Règles", "regles").
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def member_name(text: str) -> str:
    """``sam`` and ``@sam`` are the member "Sam" (stable ids come from the exact name)."""
    name = text.strip().lstrip("@").strip()
    return name[:1].upper() + name[1:]


class UserError(Exception):
    """A line the terminal cannot do (unknown command, bad option…): the message says why."""


# --------------------------------------------------------------------------------------------
# Knowing when the bot is done: no request for a moment, and no thread at work


class CountingExecutor(concurrent.futures.ThreadPoolExecutor):
    """The loop's default executor, counting the work in progress (``asyncio.to_thread`` renders
    the images there: the bot is not done while a picture is being drawn)."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="ardoise-local")
        self._busy = 0
        self._busy_lock = threading.Lock()

    @property
    def busy(self) -> int:
        return self._busy

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
               ) -> concurrent.futures.Future[Any]:
        with self._busy_lock:
            self._busy += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: concurrent.futures.Future[Any]) -> None:
        with self._busy_lock:
            self._busy -= 1


class _Watch(logging.Handler):
    """Hears the bot's one error path (``bot.tree.report_error``): refusals and bugs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.refusals: list[str] = []
        self.bugs: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "bot.tree" and str(record.msg).startswith("refused"):
            self.refusals.append(record.getMessage())
        elif record.levelno >= logging.ERROR and not record.name.startswith("bot.local"):
            self.bugs.append(f"{record.name}: {record.getMessage()}")

    def clear(self) -> None:
        self.refusals.clear()
        self.bugs.clear()


# --------------------------------------------------------------------------------------------
# The terminal


@dataclass
class Outcome:
    """What one line did: ``ok`` is false when a script must stop there (``reason`` says why)."""

    ok: bool = True
    reason: str = ""
    refused: bool = False
    quit: bool = False
    output: str = ""


@dataclass
class _Shown:
    """Messages already drawn (an edit is then drawn as "updated")."""

    ids: set[int] = field(default_factory=set)
    hinted: set[int] = field(default_factory=set)


Opener = Callable[[Path], None]


def system_opener() -> Opener | None:
    """A way to show a picture with the system's viewer, or None when there is none."""
    if sys.platform == "darwin" and shutil.which("open"):
        command = ["open"]
    elif sys.platform.startswith("win"):
        starter = getattr(os, "startfile", None)
        return (lambda path: starter(str(path))) if starter else None
    elif shutil.which("xdg-open") and (os.environ.get("DISPLAY")
                                       or os.environ.get("WAYLAND_DISPLAY")):
        command = ["xdg-open"]
    else:
        return None

    def open_path(path: Path) -> None:
        subprocess.Popen([*command, str(path)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    return open_path


class Terminal:
    """The terminal client: parses lines, acts through the stand-in, draws what comes back.

    ``run_line(line)`` does one line and returns its ``Outcome``; ``run_script`` and ``repl`` loop
    over lines. Everything is written to ``out``.
    """

    def __init__(
        self,
        standin: StandIn,
        *,
        out: TextIO,
        images: Path,
        db_path: Path | None = None,
        member: str = DEFAULT_MEMBER,
        locale: str = "en-US",
        opener: Opener | None = None,
        open_images: bool = False,
        interactive: bool = False,
        executor: CountingExecutor | None = None,
    ) -> None:
        self.standin = standin
        self.out = out
        self.images = images
        self.db_path = db_path
        self.opener = opener
        self.open_images = open_images and opener is not None
        self.interactive = interactive
        self.executor = executor
        self.guild = standin.guild
        self.channel: Channel = standin.channel
        self.member = self._member(member, locale=locale)
        self.numbered: list[Numbered] = []
        self.modal: InteractionRecord | None = None
        self.last_output = ""
        self.last_images: list[Path] = []
        self._events: list[tuple[str, Any]] = []
        self._shown = _Shown()
        self._saved: dict[int, Path] = {}
        self._saved_count = 0
        self._watch = _Watch()
        self._tree_level: int | None = None
        self.lock = asyncio.Lock()
        self.arrived = asyncio.Event()
        self.strict = True  # a script: an unexpected refusal is a failed line, and says so

    # Life cycle ---------------------------------------------------------------------------

    def attach(self) -> None:
        """Start listening to the stand-in and to the bot's error path."""
        self.standin.listeners.append(self._listen)
        tree = logging.getLogger("bot.tree")
        self._tree_level = tree.level
        tree.setLevel(logging.DEBUG)  # refusals are logged at DEBUG: the watch must hear them
        logging.getLogger().addHandler(self._watch)

    def detach(self) -> None:
        with contextlib.suppress(ValueError):
            self.standin.listeners.remove(self._listen)
        logging.getLogger().removeHandler(self._watch)
        if self._tree_level is not None:
            logging.getLogger("bot.tree").setLevel(self._tree_level)

    def _listen(self, event: str, item: Any) -> None:
        if event in ("message_create", "message_update", "message_delete", "modal"):
            self._events.append((event, item))
            self.arrived.set()

    def write(self, text: str) -> None:
        if text:
            self.out.write(text if text.endswith("\n") else text + "\n")
            self.out.flush()

    # Members and channels ---------------------------------------------------------------------

    def _member(self, name: str, *, locale: str | None = None, teacher: bool = False) -> Member:
        name = member_name(name)
        if not name or not re.fullmatch(r"[\w.\-]{1,32}", name):
            raise UserError(f"{name!r} is not a member name (letters, digits, - _ .)")
        try:
            found = self.standin.member(name, self.guild)
        except StandInError:
            found = self.standin.add_member(name, locale=locale or "en-US", teacher=teacher,
                                            guild=self.guild)
            return found
        if locale is not None:
            found.user.locale = locale
        if teacher and not any(role.name == "Teacher" for role in found.roles):
            found.roles.append(self.standin.role("Teacher", self.guild))
        return found

    def _channel(self, name: str) -> Channel:
        name = name.strip().lstrip("#").strip().lower()
        if not re.fullmatch(r"[-_\w]{1,100}", name):
            raise UserError(f"{name!r} is not a channel name")
        for channel in self.guild.channels:
            if fold(channel.name) == fold(name):
                return channel
        return self.standin.add_channel(name, guild=self.guild)

    # One line -----------------------------------------------------------------------------------

    async def run_line(self, line: str) -> Outcome:
        """Do ``line`` and draw what the bot showed; the outcome says whether it went as meant."""
        text = line.strip()
        if not text or text.startswith("#"):
            return Outcome()
        expect_refusal = text.startswith("!")
        if expect_refusal:
            text = text[1:].strip()
        async with self.lock:
            return await self._run(text, expect_refusal)

    async def _run(self, text: str, expect_refusal: bool) -> Outcome:
        errors_before = len(self.standin.errors)
        baseline = asyncio.all_tasks()
        self._watch.clear()
        self._drain()  # what arrived between lines is drawn before this line's answer
        outcome = Outcome()
        notes: list[str] = []
        try:
            result = await self._dispatch(text)
            if result is not None:
                notes.append(result)
            if text.split(maxsplit=1)[0].lower() in ("quit", "exit"):
                outcome.quit = True
        except UserError as error:
            outcome.ok, outcome.reason = False, str(error)
        except NoAnswer as error:
            outcome.ok, outcome.reason = False, f"the bot did not answer: {error}"
        except StandInError as error:
            outcome.ok, outcome.reason = False, str(error)
        if not outcome.quit:
            await self.settle(baseline)
        drawn = self._drain()
        output = "\n".join([*notes, drawn] if drawn else notes)
        problems = self.standin.errors[errors_before:]
        outcome.refused = bool(self._watch.refusals)
        if outcome.ok:
            if self._watch.bugs:
                outcome.ok = False
                outcome.reason = "the bot failed: " + "; ".join(self._watch.bugs)
            elif problems:
                outcome.ok = False
                outcome.reason = "Discord would refuse what the bot did: " + "; ".join(problems)
            elif expect_refusal and not outcome.refused:
                outcome.ok = False
                outcome.reason = "the bot was expected to refuse this, and it did not"
            elif outcome.refused and not expect_refusal:
                outcome.ok = False
                outcome.reason = "the bot refused this (start the line with ! if that is expected)"
        self.write(output)
        if not outcome.ok and (self.strict or not outcome.refused):
            # At the prompt a refusal is part of playing: the bot's own sentence says it all.
            self.write(f"✗ {outcome.reason}")
        elif expect_refusal:
            self.write("(refused, as expected)")
        outcome.output = output
        if not text.lower().startswith("expect"):
            self.last_output = output
        return outcome

    async def settle(self, baseline: set[asyncio.Task[Any]] | None = None,
                     timeout: float = SETTLE_TIMEOUT) -> None:
        """Wait until the bot is done with what the line started: no request for a moment, no
        image being drawn in a thread, and every task started since ``baseline`` finished
        (tasks that only sleep, like a view's timeout or a live round's timer, are let be once
        the loop has turned ``TIMER_ROUNDS`` times with nothing else happening)."""
        deadline = time.monotonic() + timeout
        calm = 0
        while time.monotonic() < deadline:
            try:
                await self.standin.idle(quiet=QUIET, timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return
            if self.executor is not None and self.executor.busy:
                calm = 0
                continue
            pending = [] if baseline is None else _working(baseline)
            if not pending:
                return
            calm += 1
            if calm >= TIMER_ROUNDS:
                return

    # Parsing ------------------------------------------------------------------------------

    async def _dispatch(self, text: str) -> str | None:
        if text.startswith("/"):
            await self._slash(self._split(text[1:]))
            return None
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        rest = rest.strip()
        if verb == "help":
            return self.help_text()
        if verb in ("quit", "exit"):
            return None
        if verb == "click":
            await self._click(rest)
        elif verb in ("pick", "select"):
            await self._pick(self._split(rest))
        elif verb == "answer":
            await self._answer(rest)
        elif verb == "as":
            return self._as(self._split(rest))
        elif verb == "who":
            return self._who()
        elif verb == "look":
            return self._look(rest)
        elif verb == "channel":
            if not rest:
                raise UserError("channel needs a name, e.g. channel maths")
            self.channel = self._channel(rest)
            return f"(typing in #{self.channel.name} now)"
        elif verb == "wait":
            await self._wait(rest)
        elif verb == "expect":
            self._expect(rest)
        elif verb == "open":
            return self._open()
        elif verb == "images":
            if rest.lower() not in ("on", "off"):
                raise UserError("images on | images off")
            if rest.lower() == "on" and self.opener is None:
                return "(no image viewer on this machine: the images stay in " \
                       f"{self._where(self.images)})"
            self.open_images = rest.lower() == "on"
            return f"(images will {'open' if self.open_images else 'not open'} automatically)"
        else:
            raise UserError(self._unknown_verb(verb, text))
        return None

    @staticmethod
    def _split(text: str) -> list[str]:
        try:
            return shlex.split(text)
        except ValueError as error:
            raise UserError(f"cannot read that line ({error}): put text with spaces or an "
                            f"apostrophe in double quotes") from None

    def _unknown_verb(self, verb: str, text: str) -> str:
        roots = self._root_names()
        if fold(verb) in roots:
            return (f"unknown command {verb!r}: slash commands start with /, "
                    f"e.g. /{text.strip()}")
        candidates = list(VERBS) + [f"/{name}" for name in roots]
        close = difflib.get_close_matches(verb, candidates, n=2, cutoff=0.6)
        close += [c for c in difflib.get_close_matches(verb, list(roots), n=1, cutoff=0.6)
                  if f"/{c}" not in close]
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        return f"unknown command {verb!r}{hint} (type help for the list)"

    # Slash commands -------------------------------------------------------------------------

    def _commands(self) -> list[dict[str, Any]]:
        local = [c for c in self.standin.commands.get(self.guild.id, []) if c.get("type", 1) == 1]
        names = {c["name"] for c in local}
        return local + [c for c in self.standin.commands.get(None, [])
                        if c.get("type", 1) == 1 and c["name"] not in names]

    @staticmethod
    def _names_of(item: dict[str, Any]) -> list[str]:
        return [item["name"], *(item.get("name_localizations") or {}).values()]

    def _root_names(self) -> dict[str, str]:
        """Every way to type a top-level command (folded) → its name."""
        return {fold(name): command["name"] for command in self._commands()
                for name in self._names_of(command)}

    @staticmethod
    def _find(items: Iterable[dict[str, Any]], word: str) -> dict[str, Any] | None:
        return next((item for item in items
                     if fold(word) in {fold(n) for n in Terminal._names_of(item)}), None)

    def _resolve(self, words: list[str]) -> tuple[list[str], list[dict[str, Any]], list[str]]:
        """The command path (English names), its option definitions and the remaining words."""
        if not words:
            raise UserError("type a command after the /, e.g. /help")
        commands = self._commands()
        command = self._find(commands, words[0])
        if command is None:
            names = sorted({n for c in commands for n in self._names_of(c)})
            close = difflib.get_close_matches(fold(words[0]), names, n=1, cutoff=0.5)
            hint = f"; did you mean /{close[0]}?" if close else ""
            raise UserError(f"unknown command /{words[0]}{hint} (type help, or /help)")
        path = [command["name"]]
        options: list[dict[str, Any]] = command.get("options") or []
        rest = words[1:]
        while any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options):
            subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            listed = ", ".join(s["name"] for s in subs)
            if not rest:
                raise UserError(f"/{' '.join(path)} needs a subcommand, one of: {listed}")
            sub = self._find(subs, rest[0])
            if sub is None:
                names = sorted({n for s in subs for n in self._names_of(s)})
                close = difflib.get_close_matches(fold(rest[0]), names, n=1, cutoff=0.5)
                hint = f"did you mean /{' '.join(path)} {close[0]}? " if close else ""
                raise UserError(f"/{' '.join(path)} has no subcommand {rest[0]!r}; {hint}"
                                f"(one of: {listed})")
            path.append(sub["name"])
            options = sub.get("options") or []
            rest = rest[1:]
        return path, options, rest

    async def _slash(self, words: list[str]) -> None:
        path, definitions, rest = self._resolve(words)
        where = "/" + " ".join(path)
        named: dict[str, str] = {}
        positional: list[str] = []
        for word in rest:
            key, sep, value = word.partition(":")
            option = self._find(definitions, key) if sep and key else None
            if option is not None:
                if option["name"] in named:
                    raise UserError(f"{where}: {option['name']} is given twice")
                named[option["name"]] = value
            else:
                positional.append(word)
        slots = [d for d in definitions if d["name"] not in named]
        if len(positional) > len(slots):
            last = slots[-1] if slots else None
            if last is not None and last["type"] == STRING:
                # The last text option takes the rest of the line, as Discord's box would.
                cut = len(slots) - 1
                positional = [*positional[:cut], " ".join(positional[cut:])]
            else:
                extra = " ".join(positional[len(slots):])
                names = ", ".join(d["name"] for d in definitions) or "none"
                raise UserError(f"{where}: too many values ({extra!r}); its options: {names}")
        for definition, word in zip(slots, positional, strict=False):
            named[definition["name"]] = word
        missing = [d["name"] for d in definitions if d.get("required") and d["name"] not in named]
        if missing:
            usage = " ".join(f"<{d['name']}>" if d.get("required") else f"[{d['name']}:…]"
                             for d in definitions)
            raise UserError(f"{where} needs {', '.join(missing)}: {where} {usage}")
        self.modal = None
        values: dict[str, Any] = {}
        for definition in definitions:
            if definition["name"] not in named:
                continue
            typed = named[definition["name"]]
            if definition.get("autocomplete") and typed.strip() == "?":
                choices = await self._suggest(path, definitions, named, definition)
                self.write(self._suggestions_text(where, definition, choices))
                return
            values[definition["name"]] = await self._value(path, definitions, named,
                                                           definition, typed)
        await self.standin.slash(self.member, " ".join(path), in_channel=self.channel,
                                 options=values)

    async def _suggest(self, path: list[str], definitions: list[dict[str, Any]],
                       named: dict[str, str], focused: dict[str, Any]) -> list[dict[str, Any]]:
        given: dict[str, Any] = {}
        for definition in definitions:
            if definition["name"] == focused["name"]:
                typed = named[definition["name"]]
                given[definition["name"]] = "" if typed.strip() == "?" else typed
            elif definition["name"] in named and definition.get("autocomplete"):
                given[definition["name"]] = named[definition["name"]]
            elif definition["name"] in named:
                given[definition["name"]] = self._plain_value(definition,
                                                              named[definition["name"]])
        return await self.standin.autocomplete(self.member, " ".join(path), focused["name"],
                                               in_channel=self.channel, options=given)

    @staticmethod
    def _suggestions_text(where: str, option: dict[str, Any],
                          choices: list[dict[str, Any]]) -> str:
        if not choices:
            return f"(no suggestion for {option['name']} of {where})"
        shown = "\n".join(f"  {c.get('name')}" for c in choices)
        return f"suggestions for {option['name']} of {where}:\n{shown}"

    async def _value(self, path: list[str], definitions: list[dict[str, Any]],
                     named: dict[str, str], definition: dict[str, Any], typed: str) -> Any:
        if definition.get("autocomplete"):
            # A member would pick the suggestion that matches what they typed.
            choices = await self._suggest(path, definitions, {**named, definition["name"]: typed},
                                          definition)
            for choice in choices:
                if fold(typed) in (fold(str(choice.get("name"))), fold(str(choice.get("value")))):
                    return choice.get("value")
            return typed
        return self._plain_value(definition, typed)

    def _plain_value(self, definition: dict[str, Any], typed: str) -> Any:
        kind = definition["type"]
        if kind in (USER, MENTIONABLE) and not typed.startswith("@&"):
            return self._member(typed)
        if kind == CHANNEL:
            return self._channel(typed)
        if kind in (ROLE, MENTIONABLE):
            try:
                return self.standin.role(typed.lstrip("@&"), self.guild)
            except StandInError as error:
                raise UserError(str(error)) from None
        if kind in (STRING, INTEGER, NUMBER) and definition.get("choices"):
            for choice in definition["choices"]:
                names = [choice["name"], str(choice["value"]),
                         *(choice.get("name_localizations") or {}).values()]
                if fold(typed) in {fold(n) for n in names}:
                    return choice["value"]
        return typed  # numbers and yes/no (oui/non) are read by the stand-in, as Discord would

    # Components -------------------------------------------------------------------------------

    def _numbered(self, word: str, *, menu: bool) -> Numbered:
        if not self.numbered:
            raise UserError("nothing is numbered yet: run a command first, or look")
        try:
            number = int(word)
        except ValueError:
            raise UserError(f"{word!r} is not a number") from None
        for item in self.numbered:
            if item.number == number:
                if item.is_menu and not menu:
                    raise UserError(f"{number} is a menu: pick {number} <choice>")
                if not item.is_menu and menu:
                    raise UserError(f"{number} is a button: click {number}")
                return item
        raise UserError(f"there is no {number} in what was shown last "
                        f"(1 to {max(i.number for i in self.numbered)}; look shows them again)")

    def _visible(self) -> list[Message]:
        """The messages the member can see in the current channel, oldest first."""
        public = self.standin.channel_messages(self.channel)
        mine = [m for m in self.standin.ephemeral_messages(self.member)
                if m.channel is self.channel]
        return sorted([*public, *mine], key=lambda m: m.id)

    async def _click(self, rest: str) -> None:
        if not rest:
            raise UserError("click needs a number (click 2) or a label (click Accept)")
        words = rest.split()
        if len(words) == 1 and words[0].isdigit():
            item = self._numbered(words[0], menu=False)
            message, button = item.message, item.component
        else:
            label = rest.strip().strip('"')
            message, button = self._button_by_label(label)
        if button.get("style") == 5:
            raise UserError(f"that is a link to {button.get('url')}: open it in a browser")
        self.modal = None
        await self.standin.click(self.member, message, button["custom_id"])

    def _button_by_label(self, label: str) -> tuple[Message, dict[str, Any]]:
        for item in reversed(self.numbered):
            if not item.is_menu and fold(button_label(item.component)) == fold(label):
                return item.message, item.component
        for message in reversed(self._visible()):
            for button in message.buttons():
                if fold(button_label(button)) == fold(label) or \
                        fold(str(button.get("label") or "")) == fold(label):
                    return message, button
        labels = sorted({button_label(i.component) for i in self.numbered if not i.is_menu})
        close = difflib.get_close_matches(label, labels, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UserError(f"no button {label!r} in sight{hint}")

    async def _pick(self, words: list[str]) -> None:
        if len(words) < 2:
            raise UserError("pick needs the menu's number and your choice: pick 3 1")
        item = self._numbered(words[0], menu=True)
        menu = item.component
        choices = words[1:]
        values: list[Any] = []
        if menu["type"] == 3:
            options = menu.get("options") or []
            for word in choices:
                if word.isdigit() and 1 <= int(word) <= len(options):
                    values.append(options[int(word) - 1]["value"])
                    continue
                found = next((o for o in options if fold(word) in
                              (fold(str(o.get("label"))), fold(str(o.get("value"))))), None)
                if found is None:
                    # "a3" for "a3 — T81": the first word of a label, when only one has it.
                    first = [o for o in options
                             if fold(str(o.get("label", ""))).split(" ", 1)[0] == fold(word)]
                    found = first[0] if len(first) == 1 else None
                if found is None:
                    raise UserError(f"{word!r} is not a choice of menu {item.number} "
                                    f"(1 to {len(options)}, or a label)")
                values.append(found["value"])
        elif menu["type"] == 8:
            values = [self._channel(word) for word in choices]
        elif menu["type"] == 6:
            values = [self._plain_value({"type": ROLE}, word) for word in choices]
        else:
            values = [self._member(word) for word in choices]
        self.modal = None
        await self.standin.select(self.member, item.message, menu["custom_id"], values)

    # Forms (modals) -------------------------------------------------------------------------

    async def _answer(self, rest: str) -> None:
        record = self.modal
        if record is None or record.modal is None:
            raise UserError("no form is open: click the button that opens it first")
        if record.member is not self.member:
            raise UserError(f"the open form is {record.member.name}'s: as "
                            f"{record.member.name.lower()} to answer it")
        fields = modal_fields(record.modal)
        if not fields:
            raise UserError("this form has no field the terminal can fill")
        values: dict[str, str] = {}
        word = fold(rest)
        if word in ("right", "wrong"):
            label = fields[0].label
            try:
                value = work_out(label)
            except ValueError as error:
                raise UserError(f"answer {word} works on arithmetic questions only ({error}); "
                                f"type the answer instead") from None
            values[fields[0].custom_id] = str(value if word == "right" else value + 1)
        elif len(fields) == 1:
            text = rest
            if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
                text = text[1:-1]
            values[fields[0].custom_id] = text
        else:
            remaining = list(fields)
            for token in self._split(rest):
                key, sep, typed = token.partition(":")
                match = next((f for f in remaining if sep and fold(key) in
                              (fold(f.custom_id), fold(f.label))), None)
                if match is None:
                    if not remaining:
                        raise UserError(f"too many values for this form ({token!r})")
                    match, typed = remaining[0], token
                remaining.remove(match)
                values[match.custom_id] = typed
        await self._submit(record, values)

    async def _submit(self, record: InteractionRecord, values: dict[str, str]) -> None:
        self.modal = None
        try:
            await self.standin.submit_modal(self.member, record, values)
        except StandInError:
            self.modal = record  # Discord keeps the form open until it is valid
            raise

    async def fill_form(self, read: Callable[[str], Awaitable[str | None]]) -> None:
        """Interactive: ask for each field of the open form, then send it."""
        record = self.modal
        if record is None or record.modal is None:
            return
        values: dict[str, str] = {}
        for form_field in modal_fields(record.modal):
            while True:
                typed = await read(f"  {plain(form_field.label, self.standin)} › ")
                if typed is None or (not typed.strip() and form_field.required):
                    self.write("(form left open: answer … sends it, or click again)")
                    return
                if form_field.max_length and len(typed) > form_field.max_length:
                    self.write(f"  at most {form_field.max_length} characters, please")
                    continue
                break
            values[form_field.custom_id] = typed.strip()
        async with self.lock:
            before = len(self.standin.errors)
            baseline = asyncio.all_tasks()
            try:
                await self._submit(record, values)
            except StandInError as error:
                self.write(f"✗ {error}")
            await self.settle(baseline)
            self.write(self._drain())
            for problem in self.standin.errors[before:]:
                self.write(f"⚠ {problem}")

    # Members ------------------------------------------------------------------------------------

    def _as(self, words: list[str]) -> str:
        if not words:
            raise UserError("as needs a name: as sam (as sam fr for a French member)")
        name, *flags = words
        locale: str | None = None
        teacher = False
        for flag in flags:
            if fold(flag) in ("teacher", "prof", "enseignant", "enseignante"):
                teacher = True
            elif fold(flag) == "fr":
                locale = "fr"
            elif fold(flag) == "en":
                locale = "en-US"
            elif re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", flag):
                locale = flag
            else:
                raise UserError(f"as {name}: {flag!r} is neither a language (fr, en) nor teacher")
        existed = any(fold(m.name) == fold(member_name(name))
                      for m in self.guild.members.values())
        self.member = self._member(name, locale=locale, teacher=teacher)
        joined = "" if existed else " (new member of the server)"
        return f"(you are {self._describe(self.member)} now{joined})"

    def _describe(self, member: Member) -> str:
        parts = [member.locale]
        if any(role.name == "Teacher" for role in member.roles):
            parts.append("teacher")
        return f"{member.name} ({', '.join(parts)})"

    def _who(self) -> str:
        members = [m for m in self.guild.members.values() if not m.user.bot]
        lines = [f"members of {self.guild.name}:"]
        for member in members:
            mark = "  ← you" if member is self.member else ""
            lines.append(f"  {self._describe(member)}{mark}")
        return "\n".join(lines)

    # Reading again, waiting, checking -------------------------------------------------------------

    def _look(self, rest: str) -> str:
        count = 5
        if rest:
            if not rest.isdigit() or int(rest) < 1:
                raise UserError("look N: how many messages, e.g. look 3")
            count = int(rest)
        messages = self._visible()[-count:]
        if not messages:
            return f"(nothing in #{self.channel.name} yet)"
        counter = numbers_from()
        numbered: list[Numbered] = []
        lines: list[str] = []
        for message in messages:
            lines.extend(message_lines(message, self.member.id, self.standin, counter=counter,
                                       numbered=numbered, attachment_note=self._save))
            self._shown.ids.add(message.id)
        if numbered:
            self.numbered = numbered
        return "\n".join(lines)

    async def _wait(self, rest: str) -> None:
        seconds = 1.0
        if rest:
            try:
                seconds = float(rest.rstrip("s"))
            except ValueError:
                raise UserError("wait SECONDS, e.g. wait 2") from None
            if not 0 <= seconds <= MAX_WAIT:
                raise UserError(f"wait between 0 and {MAX_WAIT:g} seconds")
        await asyncio.sleep(seconds)

    def _expect(self, rest: str) -> None:
        wanted = rest.strip().strip('"')
        if not wanted:
            raise UserError("expect needs a text to look for")
        if fold(wanted) not in fold(self.last_output):
            raise UserError(f"expected {wanted!r} in the last answer")

    # Drawing ------------------------------------------------------------------------------------

    def _drain(self) -> str:
        """Draw every message that arrived or changed since the last time, once each."""
        events, self._events = self._events, []
        self.arrived.clear()
        # Messages by id, and the open forms by their interaction's id negated.
        latest: dict[int, Message | InteractionRecord] = {}
        for event, item in events:
            if event == "modal":
                record: InteractionRecord = item
                if record.member is self.member:
                    self.modal = record
                latest.pop(-record.id, None)
                latest[-record.id] = item  # keeps the order of arrival
            else:
                latest.pop(item.id, None)
                latest[item.id] = item
        counter = numbers_from()
        numbered: list[Numbered] = []
        lines: list[str] = []
        images: list[Path] = []
        for item in latest.values():
            if isinstance(item, InteractionRecord):
                if item.member is self.member and item.modal is not None:
                    lines.extend(modal_lines(item.modal, self.standin))
                    hint = "answer right | answer wrong | answer TEXT" if \
                        _looks_like_arithmetic(item.modal) else "answer TEXT"
                    if not self.interactive:
                        lines.append(f"  ({hint})")
                continue
            message = item
            if message.deleted:
                if message.id in self._shown.ids:
                    lines.append(f"(a message of {message.author.name} was deleted)")
                continue
            if message.ephemeral_to is not None and message.ephemeral_to != self.member.id:
                if message.id not in self._shown.hinted:
                    self._shown.hinted.add(message.id)
                    owner = self.standin.users.get(message.ephemeral_to)
                    name = owner.name if owner else "someone"
                    lines.append(f"({message.author.name} answered {name} privately: "
                                 f"as {name.lower()} to see it)")
                continue
            if message.channel.type == 1 and message.channel.recipient is not self.member.user:
                continue
            edited = message.id in self._shown.ids
            self._shown.ids.add(message.id)
            before = len(self._saved)
            lines.extend(message_lines(message, self.member.id, self.standin, counter=counter,
                                       numbered=numbered, edited=edited,
                                       attachment_note=self._save))
            if len(self._saved) > before:
                images.extend(list(self._saved.values())[before:])
        if numbered:
            self.numbered = numbered
        if images:
            self.last_images = images
            if self.open_images:
                self._open_paths(images)
        return "\n".join(lines)

    def _save(self, attachment: Attachment) -> str:
        path = self._saved.get(attachment.id)
        if path is None:
            self.images.mkdir(parents=True, exist_ok=True)
            self._saved_count += 1
            safe = re.sub(r"[^\w.\-]", "_", attachment.filename) or "file"
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = self.images / f"{stamp}-{self._saved_count:03d}-{safe}"
            path.write_bytes(attachment.data)
            self._saved[attachment.id] = path
        return f" → {self._where(path)}"

    @staticmethod
    def _where(path: Path) -> str:
        with contextlib.suppress(ValueError):
            return str(path.resolve().relative_to(Path.cwd().resolve()))
        return str(path)

    def _open(self) -> str:
        if not self.last_images:
            return "(no image yet)"
        if self.opener is None:
            return ("(no image viewer on this machine: the images are in "
                    f"{self._where(self.images)})")
        self._open_paths(self.last_images)
        return f"(opening {len(self.last_images)} image{'s' if len(self.last_images) > 1 else ''})"

    def _open_paths(self, paths: Sequence[Path]) -> None:
        assert self.opener is not None
        for path in paths:
            try:
                self.opener(path)
            except OSError as error:
                self.write(f"(could not open {path.name}: {error})")

    def help_text(self) -> str:
        text = HELP.format(guild=self.guild.name, images=self._where(self.images) + os.sep,
                           db=self._where(self.db_path) if self.db_path else "the database")
        commands = self.standin.command_names(self.guild)
        lines = [text, "The bot's slash commands (/help describes them):"]
        line = " "
        for name in commands:
            item = f" /{name}"
            if len(line) + len(item) > 98:
                lines.append(line)
                line = " "
            line += item
        lines.append(line)
        return "\n".join(lines)

    # Loops ----------------------------------------------------------------------------------------

    def prompt(self) -> str:
        form = " (form open)" if self.modal is not None else ""
        return f"{self.member.name} #{self.channel.name}{form} › "

    async def run_script(self, lines: Iterable[str], *, name: str = "script") -> int:
        """Play ``lines``, echoing each; 1 at the first line that fails, else 0."""
        self.strict = True
        for number, line in enumerate(lines, start=1):
            text = line.rstrip("\n")
            stripped = text.strip()
            if not stripped:
                self.write("")
                continue
            if stripped.startswith("#"):
                self.write(text)
                continue
            self.write(f"> {stripped}")
            outcome = await self.run_line(stripped)
            if not outcome.ok:
                self.write(f"{name}:{number}: this line failed; stopping here.")
                return 1
            if outcome.quit:
                break
        return 0

    async def repl(self, read: Callable[[str], Awaitable[str | None]], *, echo: bool) -> int:
        """Read lines until quit or the end of the input; always 0 (a session that ends)."""
        self.strict = False
        printer = asyncio.create_task(self._print_arrivals()) if self.interactive else None
        try:
            while True:
                line = await read(self.prompt() if self.interactive else "")
                if line is None:
                    if self.interactive:
                        self.write("")
                    break
                if echo and line.strip():
                    self.write(f"> {line.strip()}")
                outcome = await self.run_line(line)
                if outcome.quit:
                    break
                if self.interactive and self.modal is not None and outcome.ok:
                    await self.fill_form(read)
        finally:
            if printer is not None:
                printer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await printer
        return 0

    async def _print_arrivals(self) -> None:
        """Interactive: what the bot posts on its own (a timer, the other player) shows up while
        the member is typing."""
        while True:
            await self.arrived.wait()
            await asyncio.sleep(QUIET)
            if self.lock.locked():
                await asyncio.sleep(QUIET)
                continue
            async with self.lock:
                await self.settle()
                drawn = self._drain()
            if drawn:
                self.write("\n" + drawn)
                self.out.write(self.prompt())
                self.out.flush()


def _working(baseline: set[asyncio.Task[Any]]) -> list[asyncio.Task[Any]]:
    """Tasks started since ``baseline`` that are still at work (not a view's timeout timer, not
    a connection the stand-in keeps open)."""
    current = asyncio.current_task()
    found = []
    for task in asyncio.all_tasks() - baseline:
        if task is current or task.done():
            continue
        coro = task.get_coro()
        if "timeout_task" in getattr(coro, "__qualname__", ""):
            continue
        code = getattr(coro, "cr_code", None)
        if code is not None and f"{os.sep}aiohttp{os.sep}" in code.co_filename:
            continue  # a kept-alive connection of the stand-in (its requests count in idle())
        found.append(task)
    return found


def _looks_like_arithmetic(modal: dict[str, Any]) -> bool:
    fields = modal_fields(modal)
    if len(fields) != 1:
        return False
    try:
        work_out(fields[0].label)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# A session: stand-in, bot, terminal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("local play (no DISCORD_TOKEN, or --local)")
    group.add_argument("--local", action="store_true",
                       help="play locally even if DISCORD_TOKEN is set")
    group.add_argument("--script", metavar="FILE",
                       help="play the lines of FILE (- for standard input) instead of a prompt; "
                            "exit status 1 at the first line that fails")
    group.add_argument("--as", dest="member", default=DEFAULT_MEMBER, metavar="NAME",
                       help=f"the member you start as (default {DEFAULT_MEMBER})")
    group.add_argument("--lang", choices=("en", "fr"), default="en",
                       help="your Discord language at start (default en)")
    group.add_argument("--images", metavar="DIR", type=Path,
                       help="where images are saved (default: beside the database, e.g. "
                            "data/ardoise-images)")
    group.add_argument("--open-images", action=argparse.BooleanOptionalAction, default=None,
                       help="open images with the system viewer (default: at an interactive "
                            "prompt, when there is a viewer)")


def images_folder(db_path: Path) -> Path:
    """``data/ardoise-images`` for ``data/ardoise.sqlite3``: beside the database they belong to,
    under a name that no package of the project can have (a folder named ``images`` in the
    working directory would hide the ``images`` package)."""
    return db_path.with_name(f"{db_path.stem}-images")


def startup_line(settings: Any, images: Path, *, forced: bool) -> str:
    why = "--local given, DISCORD_TOKEN ignored" if forced else "no DISCORD_TOKEN is set"
    return (f"Ardoise: local play ({why}): the real bot, with a stand-in for Discord on this "
            f"machine; database {settings.db_path}; images in {images}. To run on Discord, put "
            f"DISCORD_TOKEN=… in .env (or the environment) and run without --local. "
            f"Type help for the commands.")


class _Reader:
    """Lines from standard input, each read in a daemon thread (the loop keeps running, and a
    Ctrl-C never waits for a pending read)."""

    def __init__(self, stream: TextIO, *, tty: bool) -> None:
        self.stream = stream
        self.tty = tty

    async def read(self, prompt: str) -> str | None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()

        def deliver(value: str | None) -> None:
            if not future.done():
                future.set_result(value)

        def work() -> None:
            try:
                if self.tty:
                    text: str | None = input(prompt)
                else:
                    raw = self.stream.readline()
                    text = raw.rstrip("\r\n") if raw else None
            except (EOFError, OSError, ValueError):
                text = None
            loop.call_soon_threadsafe(deliver, text)

        threading.Thread(target=work, daemon=True, name="ardoise-input").start()
        return await future


def _history(path: Path) -> None:
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input() works all the same
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            readline.read_history_file(path)
    readline.set_history_length(1000)
    import atexit

    def save() -> None:
        with contextlib.suppress(OSError):
            readline.write_history_file(path)
    atexit.register(save)


def _configure_logging(settings: Any) -> None:
    # The terminal is the screen: only warnings and errors go to stderr (DEBUG shows all).
    handler = logging.StreamHandler(sys.stderr)
    level = logging.DEBUG if settings.log_level == "DEBUG" else logging.WARNING
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s",
                                           "%H:%M:%S"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    # discord.py's warnings are about voice and rate limits: nothing local play can act on.
    logging.getLogger("discord").setLevel(max(level, logging.ERROR))


async def play(settings: Any, args: argparse.Namespace, *, out: TextIO | None = None,
               stdin: TextIO | None = None) -> int:
    """Run one local session: the stand-in, the real bot on ``settings``'s database, a terminal."""
    from bot.app import create_bot

    out = out or sys.stdout
    stdin = stdin or sys.stdin
    script: list[str] | None = None
    name = "script"
    if args.script is not None:
        if args.script == "-":
            script = stdin.read().splitlines()
            name = "<stdin>"
        else:
            try:
                script = Path(args.script).read_text(encoding="utf-8").splitlines()
            except OSError as error:
                print(f"Ardoise: cannot read the script {args.script}: {error.strerror}",
                      file=sys.stderr)
                return 2
            name = args.script
    interactive = script is None and stdin.isatty()
    images = args.images or images_folder(Path(settings.db_path))
    executor = CountingExecutor()
    loop = asyncio.get_running_loop()
    loop.set_default_executor(executor)

    standin = StandIn(stable_ids=True)
    await standin.start()
    standin.point_discord_here()
    # A new stand-in knows no commands, whatever the database remembers of the last sync.
    # The class rooms' web server too, on this machine only and a free port (ARDOISE_WEB picks
    # another address): printed once the bot is ready.
    bot_settings = replace(settings, token=standin.token, test_guild=standin.guild.id,
                           force_sync=True,
                           web_listen=settings.web_listen or ("127.0.0.1", 0))
    bot = create_bot(bot_settings, guild_ready_timeout=0.05)
    runner = asyncio.create_task(bot.start(standin.token))
    ready = asyncio.create_task(bot.wait_until_ready())
    terminal: Terminal | None = None
    try:
        done, _ = await asyncio.wait({runner, ready}, timeout=60,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            failure = runner.exception() if runner in done else None
            reason = (f"{type(failure).__name__}: {failure}" if failure
                      else "it did not get ready")
            print(f"Ardoise: the bot could not start ({reason}).", file=sys.stderr)
            return 1
        if bot.web is not None:
            print(f"Class rooms on the web: {bot.web.base_url}", file=out, flush=True)
        open_images = args.open_images if args.open_images is not None else interactive
        terminal = Terminal(standin, out=out, images=images, db_path=Path(settings.db_path),
                            member=args.member, locale="fr" if args.lang == "fr" else "en-US",
                            opener=system_opener() if open_images else None,
                            open_images=open_images, interactive=interactive,
                            executor=executor)
        terminal.attach()
        if script is not None:
            return await terminal.run_script(script, name=name)
        if interactive:
            _history(Path(settings.db_path).parent / ".local-play-history")
            terminal.write(f"You are {terminal.member.name} in #{terminal.channel.name}. "
                           f"Try /help, or help for the terminal's own commands.")
        return await terminal.repl(_Reader(stdin, tty=interactive).read, echo=not interactive)
    finally:
        if terminal is not None:
            terminal.detach()
        with contextlib.suppress(Exception):
            await standin.idle(timeout=2)
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
        await standin.close()


def run(settings: Any, args: argparse.Namespace) -> int:
    """``python -m bot`` in local play: the start-up line, then the session; its exit status."""
    _configure_logging(settings)
    images = args.images or images_folder(Path(settings.db_path))
    print(startup_line(settings, images, forced=settings.token is not None), flush=True)
    try:
        return asyncio.run(play(settings, args))
    except KeyboardInterrupt:
        print("\n(bye)")
        return 0
