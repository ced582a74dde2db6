"""Rate limits through the real bot (bot/limits.py): per-member cooldowns on commands and buttons,
caps on a member's open games, the bound on strong searches, and live rounds left alone.

The buckets read ``bot.limits.clock``, replaced here by a clock that moves only when a test says.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

from bot.focus import generate_questions
from bot.play import digits as digits_play
from bot.rithmo.opponents import random_turn
from tests.french import fr


class StillClock:
    """Monotonic seconds that move only when the test adds to ``now`` (never 0: discord.py's
    ``Cooldown`` reads 0 as "the real time")."""

    def __init__(self) -> None:
        self.now = 5_000.0

    def __call__(self) -> float:
        return self.now


async def until(predicate: Any, timeout: float = 5.0) -> None:
    """Wait until ``predicate()`` holds (the gate's counts change without any message)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)


async def limited_bot(start_bot: Any, **settings: Any) -> tuple[Any, StillClock]:
    bot = await start_bot(**settings)
    clock = StillClock()
    bot.limits.clock = clock
    return bot, clock


# --- cooldowns --------------------------------------------------------------------------------


async def test_a_burst_of_cards_is_cut_with_the_wait_in_each_language(standin, start_bot):
    _, clock = await limited_bot(start_bot)
    ana, lea, sam = (standin.add_member("Ana"), standin.add_member("Léa", locale="fr"),
                     standin.add_member("Sam"))
    for member in (ana, lea):
        for _ in range(8):  # a generous burst: 8 in 10 s
            shown = await standin.slash(member, "digits card", digit="Odd")
            assert shown.reply.embeds, shown.reply.text()
    refused = await standin.slash(ana, "digits card", digit="Odd")
    assert refused.reply.content == "Not so fast: try again in 10 s."
    assert refused.reply.ephemeral and not refused.reply.embeds
    clock.now += 6.0
    assert (await standin.slash(lea, "digits card", digit="Odd")).reply.content == (
        fr("Pas si vite : réessaie dans 4 s."))
    # The cheap texts share the bucket: /help and /digits rules are refused too.
    assert (await standin.slash(ana, "help")).reply.content == "Not so fast: try again in 4 s."
    assert (await standin.slash(ana, "digits rules")).reply.content.startswith("Not so fast")
    # Another member is not affected.
    assert (await standin.slash(sam, "digits card", digit="Odd")).reply.embeds
    clock.now += 4.1  # the window is over
    assert (await standin.slash(ana, "digits card", digit="Odd")).reply.embeds


async def test_pictures_have_a_strict_cooldown_shared_by_every_picture(standin, start_bot):
    _, clock = await limited_bot(start_bot)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    for _ in range(3):
        shown = await standin.slash(ana, "progress")
        assert shown.reply.attachments, shown.reply.text()
    refused = await standin.slash(ana, "progress")
    assert refused.reply.content == "Not so fast: try again in 30 s."
    assert not refused.reply.attachments
    clock.now += 12.0
    assert (await standin.slash(ana, "leaderboard", game="rithmo")).reply.content == (
        "Not so fast: try again in 18 s.")
    assert (await standin.slash(sam, "leaderboard", game="rithmo")).reply.attachments
    clock.now += 18.5
    assert (await standin.slash(ana, "leaderboard", game="rithmo")).reply.attachments


async def test_a_button_takes_from_the_same_buckets_as_its_command(standin, start_bot):
    """The board's "Play a turn" button and /rithmo move share the turn bucket (10 in 10 s)."""
    _, clock = await limited_bot(start_bot)
    ana = standin.add_member("Ana", locale="fr")
    started = await standin.slash(ana, "rithmo solo", level=1, colour="white")
    board = started.reply
    for _ in range(10):
        opened = await standin.click(ana, board, label="Jouer un tour")
        assert opened.reply.ephemeral and opened.reply.components, opened.reply.text()
    refused = await standin.click(ana, board, label="Jouer un tour")
    assert refused.reply.content == fr("Pas si vite : réessaie dans 10 s.")
    assert (await standin.slash(ana, "rithmo move", turn="c3-c4")).reply.content == (
        fr("Pas si vite : réessaie dans 10 s."))
    clock.now += 10.5
    assert (await standin.click(ana, board, label="Jouer un tour")).reply.components


async def test_the_shop_s_odds_button_is_as_strict_as_the_odds_command(standin, start_bot):
    from test_cog_digits import act, take_focus

    bot, clock = await limited_bot(start_bot)
    ana = standin.add_member("Ana")
    board = (await standin.slash(ana, "digits solo")).reply
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    for _ in range(3):  # odds: 3 in 30 s, button and command together
        shown = await standin.click(ana, shop, "digits:odds")
        assert shown.reply.content.startswith("You win "), \
            shown.reply.content
    refused = await standin.click(ana, shop, "digits:odds")
    assert refused.reply.content == "Not so fast: try again in 30 s." and refused.ephemeral
    clock.now += 20.0
    assert (await standin.slash(ana, "digits odds")).reply.content == (
        "Not so fast: try again in 10 s.")
    clock.now += 10.5
    assert (await standin.slash(ana, "digits odds")).reply.content.startswith(
        "You win ")


async def test_a_quick_childs_shop_turn_is_never_refused_a_script_is(standin, start_bot):
    # Issue 28: a quick child pressing Ready after fast clicks read "Not so fast".
    from test_cog_digits import act, take_focus

    bot, clock = await limited_bot(start_bot)
    ana = standin.add_member("Ana")
    board = (await standin.slash(ana, "digits solo")).reply
    shop = await take_focus(standin, bot, ana, board)
    clock.now += 0.5
    await act(standin, ana, shop, "digits:buy:1")
    for _ in range(39):  # 40 actions, one every half second: freezing an offer and back
        clock.now += 0.5
        slot = shop.component("digits:freeze")["options"][0]["value"]
        clicked = await act(standin, ana, shop, "digits:freeze", [slot])
        assert not (clicked.reply and clicked.reply.content.startswith("Not so fast")), \
            clicked.reply.content
    clock.now += 0.5
    ready = await act(standin, ana, shop, "digits:ready")
    assert not (ready.reply and ready.reply.content.startswith("Not so fast"))
    # Ready went through: the match is at its second round.
    again = (await standin.slash(ana, "digits solo")).reply
    assert "is still open (round 2)" in again.content, again.content
    # A script clicking without pause is stopped within its window.
    sam = standin.add_member("Sam")
    shop = await take_focus(standin, bot, sam, (await standin.slash(sam, "digits solo")).reply)
    said = []
    for _ in range(46):
        slot = shop.component("digits:freeze")["options"][0]["value"]
        clicked = await standin.select(sam, shop, "digits:freeze", [slot])
        said.append(clicked.reply.content if clicked.reply else "")
    assert any(text.startswith("Not so fast") for text in said)


# --- caps on open games -----------------------------------------------------------------------


async def solo_matches(bot: Any, guild_id: int, user_id: int) -> list[int]:
    return sorted(w.game_id for w in await bot.db.games.waiting_on(user_id, guild_id)
                  if w.game == "digits")


async def test_a_fourth_solo_match_is_refused_with_the_open_ones(standin, start_bot):
    """``/digits solo`` with a solo match open asks first (go on, or resign it and start anew:
    tests/test_cog_digits_leave.py), so a member reaches the cap only with matches opened
    otherwise (here the use case itself, as before the question): the cap still holds, and the
    command asks about the newest rather than open a fourth."""
    bot, clock = await limited_bot(start_bot)
    ana, lea = standin.add_member("Ana"), standin.add_member("Léa", locale="fr")
    maths = standin.add_channel("maths")
    general = standin.guild.channels[0]
    started = await standin.slash(ana, "digits solo", in_channel=general)
    assert not started.reply.ephemeral, started.reply.text()
    for _ in range(2):
        await digits_play.solo(bot.db, standin.guild.id, maths.id,
                               digits_play.Member(ana.id, "Ana"), lang="en", most=3)
    ids = await solo_matches(bot, standin.guild.id, ana.id)
    assert len(ids) == 3
    with pytest.raises(digits_play.TooManyOpen) as crowded:
        await digits_play.solo(bot.db, standin.guild.id, maths.id,
                               digits_play.Member(ana.id, "Ana"), lang="en", most=3)
    assert [g.id for g in crowded.value.open] == ids
    clock.now += 61.0  # past the "start" cooldown
    asked = await standin.slash(ana, "digits solo", in_channel=maths)
    assert asked.reply.ephemeral
    assert asked.reply.content.startswith(f"Your solo match #{ids[-1]} is still open (round 1).")
    assert await solo_matches(bot, standin.guild.id, ana.id) == ids  # nothing was created
    # The member's own: Léa starts hers, then is asked in French.
    assert not (await standin.slash(lea, "digits solo")).reply.ephemeral
    clock.now += 61.0
    assert (await standin.slash(lea, "digits solo")).reply.content.startswith(
        "Ta partie en solo n°\u00a0")


async def test_a_fourth_game_against_ardoise_is_refused_with_how_to_leave_one(standin,
                                                                              start_bot):
    _, clock = await limited_bot(start_bot)
    ana = standin.add_member("Ana")
    rooms = [standin.add_channel(f"room-{i}") for i in range(4)]
    for room in rooms[:3]:
        assert not (await standin.slash(ana, "rithmo solo", in_channel=room)).reply.ephemeral
    clock.now += 61.0
    refused = await standin.slash(ana, "rithmo solo", in_channel=rooms[3])
    text = refused.reply.content
    assert refused.reply.ephemeral and text.startswith("You already play 3 games against Ardoise (")
    for room in rooms[:3]:
        assert f"in <#{room.id}>, turn 1" in text
    assert text.endswith("finish one, or leave it with /rithmo resign in its channel, "
                         "then start a new one.")
    # Leaving one as the sentence says makes room.
    asked = (await standin.slash(ana, "rithmo resign", in_channel=rooms[0])).reply
    await standin.click(ana, asked, label=asked.buttons()[0]["label"])
    assert asked.text().startswith("You resigned game #"), asked.text()
    assert not (await standin.slash(ana, "rithmo solo", in_channel=rooms[3])).reply.ephemeral


# --- the strong opponent ----------------------------------------------------------------------


class HeldSearch:
    """Ardoise's search, held until the test lets it go; counts the searches running at once."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.levels: list[int] = []

    def __call__(self, game: Any, level: int, rng: random.Random) -> Any:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.levels.append(level)
        try:
            self.go.wait(10)
            return random_turn(game, rng)
        finally:
            with self.lock:
                self.running -= 1


async def test_strong_searches_wait_their_turn_and_a_new_strong_game_is_told(standin, start_bot):
    bot, _ = await limited_bot(start_bot)  # ARDOISE_STRONG_SEARCHES defaults to 1
    assert bot.settings.strong_searches == 1
    search = HeldSearch()
    bot.get_cog("Rithmo").flow.service.choose_turn = search
    gate = bot.limits.searches
    ana, bob = standin.add_member("Ana"), standin.add_member("Bob")
    cy, lea = standin.add_member("Cy"), standin.add_member("Léa", locale="fr")
    rooms = [standin.add_channel(f"room-{i}") for i in range(4)]
    # Playing Black, each member waits for Ardoise's first turn: one search runs, one waits.
    first = asyncio.create_task(standin.slash(ana, "rithmo solo", level=3, colour="black",
                                              in_channel=rooms[0]))
    await until(lambda: gate.running == 1)
    second = asyncio.create_task(standin.slash(bob, "rithmo solo", level=3, colour="black",
                                               in_channel=rooms[1]))
    await until(lambda: gate.waiting == 1)
    try:
        refused = await standin.slash(cy, "rithmo solo", level=3, in_channel=rooms[2])
        assert refused.reply.content == (
            "Ardoise's strong level is already thinking for other players and their turns are "
            "waiting: try again in 4 s, or choose level 1 or 2.")
        assert (await standin.slash(lea, "rithmo solo", level=3, in_channel=rooms[3])
                ).reply.content == (
            fr("Le niveau fort d'Ardoise réfléchit déjà pour d'autres joueurs et leurs tours "
            "attendent : réessaie dans 4 s, ou choisis le niveau 1 ou 2."))
        # A weaker level does not wait for the strong searches.
        weak = await standin.slash(cy, "rithmo solo", level=1, in_channel=rooms[2])
        assert weak.reply.attachments, weak.reply.text()
        assert search.levels == [3]  # Bob's search has not started
    finally:
        search.go.set()
    for started in await asyncio.gather(first, second):
        assert started.reply.attachments, started.reply.text()
    assert search.most == 1 and search.levels == [3, 3]
    for member in (ana, bob):
        [game] = await bot.db.rithmo.open_games(standin.guild.id, member.id)
        assert len(game.turns) == 1 and game.to_move == "black"  # Ardoise's turn was played
    assert gate.running == 0 and gate.waiting == 0
    # Not saturated any more: Cy's strong game starts (the refusal took no strong token).
    assert (await standin.slash(cy, "rithmo solo", level=3, in_channel=rooms[3])
            ).reply.attachments


# --- live rounds are not slowed ---------------------------------------------------------------


async def test_a_live_round_and_its_answers_are_never_limited(standin, start_bot):
    """Everything at the same instant of the buckets' clock: a teacher's 20 questions, a
    student's 20 answers (40 interactions), then a practice round's six answers."""
    bot, _ = await limited_bot(start_bot)
    focus = bot.get_cog("Focus").flow
    focus.seed = lambda: 7
    teacher, ana = standin.add_member("Mme Roux", teacher=True), standin.add_member("Ana")
    questions = generate_questions(4, 20, random.Random(7))
    message = (await standin.slash(teacher, "focus live", count=20, level=4, auto=False)).reply
    for number, question in enumerate(questions, 1):
        opened = await standin.click(ana, message, label="Answer")
        assert opened.modal is not None, opened.reply.text()
        answered = await standin.submit_modal(ana, opened, {"answer": str(question.answer)})
        assert answered.reply.content.startswith("✅"), answered.reply.content
        label = "Show the results" if number == 20 else "Next question"
        await standin.click(teacher, message, label=label)
        message = await standin.wait_for_message(after=message)
    assert "Live Focus · final ranking" in message.text()
    assert "(20/20 right)" in message.text()
    window = (await standin.slash(ana, "focus practice")).reply
    for _ in range(6):
        button = next(b["custom_id"] for b in window.buttons()
                      if b["custom_id"].startswith("focus.run:practice:"))
        opened = await standin.click(ana, window, button)
        assert opened.modal is not None, opened.reply.text()
        await standin.submit_modal(ana, opened, {"answer": "0"})
    assert "/6" in window.text()


async def test_a_fourth_challenge_is_refused_until_one_is_withdrawn(standin, start_bot):
    _, clock = await limited_bot(start_bot)
    ana = standin.add_member("Ana")
    rivals = [standin.add_member(name) for name in ("Bob", "Cy", "Dee", "Eve")]
    posted = []
    for rival in rivals[:3]:
        posted.append((await standin.slash(ana, "digits challenge", member=rival)).reply)
    clock.now += 61.0
    refused = await standin.slash(ana, "digits challenge", member=rivals[3])
    assert refused.reply.ephemeral
    assert refused.reply.content.startswith("You already have 3 challenges waiting for an answer "
                                            "(match ")
    assert refused.reply.content.endswith("withdraw one with its “Cancel the challenge” button, "
                                          "or wait until one is answered, then challenge again.")
    await standin.click(ana, posted[0], label="Cancel the challenge")
    assert not (await standin.slash(ana, "digits challenge", member=rivals[3])).reply.ephemeral


def test_the_bound_on_strong_searches_is_a_setting() -> None:
    from bot.settings import Config, ConfigError

    assert Config.from_env({}, env_file=None).strong_searches == 1
    assert Config.from_env({"ARDOISE_STRONG_SEARCHES": "2"}, env_file=None).strong_searches == 2
    for wrong in ("0", "-1", "two"):
        try:
            Config.from_env({"ARDOISE_STRONG_SEARCHES": wrong}, env_file=None)
        except ConfigError as error:
            assert "ARDOISE_STRONG_SEARCHES" in str(error)
        else:
            raise AssertionError(f"{wrong!r} was accepted")


async def test_servers_take_turns_for_the_strong_searches() -> None:
    """One school's queue of strong games makes another school wait one search, not all of
    them, and only the busy school is told to wait before starting another."""
    from bot.limits import SearchGate

    gate = SearchGate(1, seconds=2.0)
    order: list[str] = []
    release = {name: asyncio.Event() for name in ("a1", "a2", "a3", "b1")}

    async def search(guild_id: int, name: str) -> None:
        async with gate.slot(guild_id):
            order.append(name)
            await release[name].wait()

    tasks = [asyncio.create_task(search(1, "a1"))]
    await until(lambda: gate.running == 1)
    tasks += [asyncio.create_task(search(1, "a2")), asyncio.create_task(search(1, "a3"))]
    await until(lambda: gate.waiting == 2)
    tasks.append(asyncio.create_task(search(2, "b1")))
    await until(lambda: gate.waiting == 3)
    assert gate.saturated(1) and not gate.saturated(2) and not gate.saturated(3)
    assert gate.wait_estimate() == 8  # four searches of 2 s, one at a time
    for name in ("a1", "b1", "a2", "a3"):  # server 2 goes second, not after a2 and a3
        await until(lambda name=name: order[-1] == name)
        assert gate.running == 1
        release[name].set()
    await asyncio.gather(*tasks)
    assert order == ["a1", "b1", "a2", "a3"]
    assert (gate.running, gate.waiting, gate.saturated(1)) == (0, 0, False)


async def test_a_search_cancelled_while_it_waits_gives_its_place_back() -> None:
    from bot.limits import SearchGate

    gate = SearchGate(1)
    held = asyncio.Event()

    async def search(guild_id: int) -> None:
        async with gate.slot(guild_id):
            await held.wait()

    first = asyncio.create_task(search(1))
    await until(lambda: gate.running == 1)
    waiting = [asyncio.create_task(search(1)), asyncio.create_task(search(2))]
    await until(lambda: gate.waiting == 2)
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    assert (gate.running, gate.waiting) == (1, 0)
    held.set()
    await first
    assert (gate.running, gate.waiting) == (0, 0)
    async with asyncio.timeout(1):  # nothing left held: both servers get a search at once
        await search(1)
        await search(2)
