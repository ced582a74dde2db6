"""The 20 Digits' use cases (``bot.play.digits``) called directly, on a real ``Database`` in
tmp_path: no Discord, no stand-in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.digits.match import GHOST
from bot.domain import DomainError
from bot.focus import FocusRound
from bot.focus.round import mark
from bot.play import digits as play
from bot.play.digits import Member, StoredMatch
from db import Database, FocusAnswer, StaleVersion

GUILD, CHANNEL = 7, 70
ANA, SAM, LEA = Member(1001, "Ana"), Member(1002, "Sam"), Member(1003, "Léa")


async def duel(db: Database) -> StoredMatch:
    game = await play.challenge(db, GUILD, CHANNEL, ANA, SAM, draft=None, lang="en", most=3)
    return await play.answer_challenge(db, game.id, "active", message_id=555)


def answer(player: Member, game: StoredMatch, no: int) -> FocusAnswer:
    return FocusAnswer(GUILD, player.id, "add", 1, "1 + 1", 2, 2, 900, source="match",
                       round_key=f"match:{game.id}:{game.match.round}", question_no=no)


def test_the_focus_questions_are_seeded_by_match_round_and_player():
    first = [q.text for q in play.focus_questions(42, 1, "1001")]
    assert first == [q.text for q in play.focus_questions(42, 1, "1001")]
    assert first != [q.text for q in play.focus_questions(42, 1, "1002")]
    assert first != [q.text for q in play.focus_questions(42, 2, "1001")]
    assert len(first) == 6


async def test_a_challenge_is_pending_then_accepted_with_its_message(db: Database):
    game = await play.challenge(db, GUILD, CHANNEL, ANA, SAM, draft=True, lang="fr", most=3)
    assert game.row.status == "pending" and game.match.settings.draft
    assert game.names == {"1001": "Ana", "1002": "Sam"} and game.lang == "fr"
    accepted = await play.answer_challenge(db, game.id, "active", message_id=555)
    row = await db.digits.require_match(game.id)
    assert row.status == "active" and row.message_id == 555
    assert accepted.row.version == game.row.version  # the row as read before the save
    with pytest.raises(DomainError) as refused:
        await play.answer_challenge(db, game.id, "declined")
    assert refused.value.code == "digits.not_pending"
    assert (await db.digits.require_match(game.id)).status == "active"


async def test_a_challenge_of_oneself_or_one_too_many_is_refused(db: Database):
    with pytest.raises(DomainError) as refused:
        await play.challenge(db, GUILD, CHANNEL, ANA, ANA, draft=None, lang="en", most=3)
    assert refused.value.code == "digits.self_challenge"
    await play.challenge(db, GUILD, CHANNEL, ANA, SAM, draft=None, lang="en", most=2)
    await play.challenge(db, GUILD, CHANNEL, ANA, LEA, draft=None, lang="en", most=2)
    with pytest.raises(play.TooManyOpen) as crowded:
        await play.challenge(db, GUILD, CHANNEL, ANA, LEA, draft=None, lang="en", most=2)
    assert crowded.value.kind == "digits_challenges" and len(crowded.value.open) == 2
    assert len(await db.digits.open_matches(GUILD, ANA.id)) == 2  # nothing more was stored


async def test_the_server_s_match_settings_are_used_and_draft_given_wins(db: Database):
    await db.servers.update(GUILD, match_lives=3, match_rounds=4, match_draft=True)
    settings = await play.match_settings(db, GUILD, None)
    assert (settings.lives, settings.rounds, settings.draft) == (3, 4, True)
    assert not (await play.match_settings(db, GUILD, False)).draft


async def test_a_solo_match_has_the_shadow_and_a_cap(db: Database):
    game = await play.solo(db, GUILD, CHANNEL, ANA, lang="en", most=1)
    assert game.row.status == "active" and game.match.solo
    # At the default level, gentle (a first match is won), played by the level's player
    # (bot.digits.levels).
    assert game.match.level == "gentle" and game.match.shadow_player is play.SHADOWS["gentle"]
    read = await db.digits.require_match(game.id)
    await play.set_message(db, game.id, 777)
    row = await db.digits.require_match(game.id)
    assert row.message_id == 777 and row.version == read.version  # bookkeeping keeps it
    with pytest.raises(play.TooManyOpen) as crowded:
        await play.solo(db, GUILD, CHANNEL, ANA, lang="en", most=1)
    assert crowded.value.kind == "digits_solo" and [g.id for g in crowded.value.open] == [game.id]


async def test_mutate_works_a_change_out_again_after_a_collision_and_gives_up_at_last(
        db: Database):
    game = await duel(db)
    tries: list[int] = []

    async def other_saves_once() -> None:
        if len(tries) == 1:
            row = await db.digits.require_match(game.id)
            await db.digits.save_match(game.id, row.state, row.version)

    def change(game: StoredMatch) -> int:
        tries.append(game.row.version)
        return game.match.submit_focus("1001", 3)

    _, gold = await play.mutate(db, game.id, change, before_save=other_saves_once)
    assert len(tries) == 2 and tries[1] == tries[0] + 1 and gold > 0

    async def other_always_first() -> None:
        row = await db.digits.require_match(game.id)
        await db.digits.save_match(game.id, row.state, row.version)

    with pytest.raises(StaleVersion):
        await play.mutate(db, game.id, lambda g: g.match.submit_focus("1002", 1),
                          before_save=other_always_first)
    assert "1002" not in (await play.load_game(db, game.id)).match.focus


async def test_a_refused_change_saves_nothing(db: Database):
    game = await duel(db)
    before = await db.digits.require_match(game.id)
    with pytest.raises(DomainError) as refused:
        await play.mutate(db, game.id, lambda g: play.buy(g, "1001", 1))  # Focus comes first
    assert refused.value.code == "match.focus_first"
    after = await db.digits.require_match(game.id)
    assert after.version == before.version and after.state == before.state


async def test_a_finished_match_is_not_played(db: Database):
    game = await play.challenge(db, GUILD, CHANNEL, ANA, SAM, draft=None, lang="en", most=3)
    with pytest.raises(DomainError) as refused:
        await play.load_active(db, game.id)
    assert refused.value.code == "digits.not_active"


async def test_the_focus_answers_are_kept_in_the_match_and_stored_with_it(db: Database):
    game = await duel(db)
    focus = game.focus_round("1001")
    first = mark(focus.questions[0], focus.questions[0].answer, 0.8)
    progressed = FocusRound(focus.questions, [first])
    await play.focus_answered(db, game.id, "1001", 1, progressed, answer(ANA, game, 0))
    reread = await play.load_active(db, game.id)
    assert reread.focus_round("1001").answers == [first]  # a restart goes on from here
    round_key = f"match:{game.id}:1"
    assert len(await db.focus.round_answers(GUILD, ANA.id, round_key)) == 1
    done = await play.submit_focus(db, game.id, "1001", 1, 4, answer(ANA, game, 5))
    assert done.match.stage("1001") == "shop" and "1001" not in done.focus
    assert len(await db.focus.round_answers(GUILD, ANA.id, round_key)) == 2
    with pytest.raises(DomainError) as late:
        await play.focus_answered(db, game.id, "1001", 1, progressed, answer(ANA, game, 1))
    assert late.value.code == "match.focus_already"


async def test_a_step_out_of_date_is_refused(db: Database):
    game = await duel(db)
    await play.submit_focus(db, game.id, "1001", 1, 6, None)  # step 1
    with pytest.raises(DomainError) as refused:
        await play.end_turn(db, game.id, "1001", 0)
    assert refused.value.code == "game.stale"


async def test_shop_actions_place_sell_and_arrange(db: Database):
    game = await duel(db)
    await play.submit_focus(db, game.id, "1001", 1, 6, None)
    game, placed = await play.mutate(db, game.id, lambda g: play.buy(g, "1001", 1))
    assert not placed.merged and game.match.shop("1001").slate[placed.cell] == placed.piece
    game, moved = await play.mutate(db, game.id,
                                    lambda g: play.arrange(g, "1001", placed.cell, 8))
    assert moved.kind == "moved" and moved.cell == 8
    game, frozen = await play.mutate(db, game.id, lambda g: play.toggle_freeze(g, "1001", 2))
    assert frozen.frozen and game.match.shop("1001").offers[1].frozen
    game, thawed = await play.mutate(db, game.id, lambda g: play.toggle_freeze(g, "1001", 2))
    assert not thawed.frozen
    gold = game.match.shop("1001").gold
    game, (piece, gain) = await play.mutate(db, game.id, lambda g: play.sell(g, "1001", 8))
    assert piece == moved.piece and game.match.shop("1001").gold == gold + gain
    assert len(game.match.shop("1001").slate) == 0


async def test_a_duel_played_to_its_end_saves_ghosts_and_ratings(db: Database):
    await db.servers.update(GUILD, match_lives=1, match_rounds=2)
    game = await duel(db)
    record = None
    while not game.match.over:
        round_ = game.match.round
        for player in ("1001", "1002"):
            game = await play.submit_focus(db, game.id, player, round_, 6, None)
            if player == "1001":  # Ana fields a digit, Sam none: Ana wins
                game, _ = await play.mutate(db, game.id, lambda g: play.buy(g, "1001", 1))
            game, record = await play.end_turn(db, game.id, player, game.steps[player])
        assert record is not None and record.round == round_
    assert (await db.digits.require_match(game.id)).status == "finished"
    assert game.match.winner == "1001"
    assert set(game.ratings) == {ANA.id, SAM.id}
    assert game.ratings[ANA.id].after.rating > game.ratings[ANA.id].before.rating
    # Each round's slates are ghosts of that round, for solo matches to meet.
    pool = await db.digits.ghost_pool(GUILD, 1, exclude_user_id=LEA.id)
    assert {g.user_id for g in pool} == {ANA.id, SAM.id}


async def test_a_solo_round_meets_a_ghost_of_the_server(db: Database):
    # Sam fielded a slate at round 1 of a duel: Léa's solo match may meet it.
    await db.servers.update(GUILD, match_rounds=3)
    game = await duel(db)
    for player in ("1001", "1002"):
        await play.submit_focus(db, game.id, player, 1, 6, None)
        await play.mutate(db, game.id, lambda g, p=player: play.buy(g, p, 1))
        step = (await play.load_active(db, game.id)).steps[player]
        await play.end_turn(db, game.id, player, step)
    solo = await play.solo(db, GUILD, CHANNEL, LEA, lang="en", most=1)
    pool, owners = await play.solo_pool(db, solo, "1003")
    assert {g.owner for g in pool} == {"1001", "1002"} and owners == {"1001": "Ana",
                                                                     "1002": "Sam"}
    await play.submit_focus(db, solo.id, "1003", 1, 6, None)
    step = (await play.load_active(db, solo.id)).steps["1003"]
    solo, record = await play.end_turn(db, solo.id, "1003", step)
    assert record is not None and record.ghost is not None
    assert GHOST in (record.left, record.right) and record.ghost.owner in ("1001", "1002")
    assert solo.names[record.ghost.owner] in ("Ana", "Sam")  # the ghost's owner, named


async def test_the_odds_are_for_a_shop_turn_in_this_channel(db: Database):
    with pytest.raises(DomainError) as none:
        await play.odds_match(db, ANA.id, GUILD, CHANNEL)
    assert none.value.code == "digits.odds_no_match"
    game = await duel(db)
    with pytest.raises(DomainError) as first:
        await play.odds_match(db, ANA.id, GUILD, CHANNEL)
    assert first.value.code == "digits.odds_focus_first"
    await play.submit_focus(db, game.id, "1001", 1, 6, None)
    found = await play.odds_match(db, ANA.id, GUILD, CHANNEL)
    assert found.id == game.id
    odds = await play.round_odds(db, found, "1001")
    assert odds.pool == [] and odds.forecast.raw.battles > 0 and odds.forecast.kind == "challenge"
    with pytest.raises(DomainError):
        await play.odds_match(db, ANA.id, GUILD, CHANNEL + 1)


def test_the_use_cases_run_without_discord():
    # A fresh interpreter: importing the use cases loads neither discord nor a cog.
    code = ("import sys, bot.play.digits; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]"


async def test_a_shop_move_is_data_in_and_what_it_did_out(db: Database):
    game = await duel(db)
    game = await play.submit_focus(db, game.id, "1001", 1, 6, None)
    game_id, step = game.id, game.steps["1001"]

    async def move(kind: str, **given: object) -> object:
        nonlocal step
        game, done = await play.shop_move(db, game_id, "1001", step, play.ShopMove(kind, **given),
                                          engine=lambda _g, act: act())
        assert game.steps["1001"] == step + 1  # the windows shown before are now out of date
        step += 1
        return done

    placed = await move("buy", slot=1)
    assert isinstance(placed, play.Placed) and not placed.merged
    gold = (await play.load_game(db, game_id)).match.shop("1001").gold
    rerolled = await move("reroll")
    assert rerolled == play.Rerolled(game.match.settings.reroll_cost)
    assert (await play.load_game(db, game_id)).match.shop("1001").gold == gold - rerolled.cost
    frozen = await move("freeze", slot=2)
    assert isinstance(frozen, play.Frozen) and frozen.frozen and frozen.slot == 2
    moved = await move("arrange", cells=(8, placed.cell))  # the cells in any order
    assert moved == play.Arranged("moved", placed.piece, 8, (placed.cell, 8))
    sold = await move("sell", cells=(8,))
    assert sold == play.Sold(placed.piece, sold.gold) and sold.gold > 0
    # A window shown before the last move is refused, and nothing changes.
    before = await db.digits.require_match(game_id)
    with pytest.raises(DomainError) as refused:
        await play.shop_move(db, game_id, "1001", step - 1, play.ShopMove("reroll"),
                             engine=lambda _g, act: act())
    assert refused.value.code == "game.stale"
    assert (await db.digits.require_match(game_id)).version == before.version


async def test_the_challenge_rules_name_the_sides_as_data(db: Database):
    robot = Member(1009, "**Robo**", bot=True)
    with pytest.raises(DomainError) as refused:
        await play.challenge(db, GUILD, CHANNEL, ANA, robot, draft=None, lang="en", most=3)
    assert refused.value.code == "digits.bot_challenge"
    assert refused.value.params == {"name": play.Named("**Robo**")}
    game = await play.challenge(db, GUILD, CHANNEL, ANA, SAM, draft=None, lang="en", most=3)
    with pytest.raises(DomainError) as own:
        await play.pending_challenge(db, game.id, ANA.id, answering=True)
    assert own.value.code == "digits.own_challenge"
    assert own.value.params == {"name": play.Side(str(SAM.id))}
    with pytest.raises(DomainError) as not_yours:
        await play.pending_challenge(db, game.id, SAM.id, answering=False)
    assert not_yours.value.code == "digits.not_your_challenge"
    answering = await play.pending_challenge(db, game.id, SAM.id, answering=True)
    assert answering.answerer(True) == SAM.id and answering.answerer(False) == ANA.id
    # Someone else gets through the rule: the caller refuses them as not a player.
    assert (await play.pending_challenge(db, game.id, LEA.id, answering=True)).id == game.id


async def test_resigning_with_no_match_is_refused(db: Database):
    from bot.play import digits_leave as leave

    with pytest.raises(DomainError) as refused:
        await leave.to_resign(db, GUILD, ANA.id)
    assert refused.value.code == "digits_leave.no_match"
    game = await duel(db)
    assert [g.id for g in await leave.to_resign(db, GUILD, ANA.id)] == [game.id]


async def test_the_odds_buttons_read_the_match_only_in_that_round_s_shop_turn(db: Database):
    # Issue 28: Details and "Show me a battle like that" are of the slate being shopped.
    game = await play.solo(db, GUILD, CHANNEL, ANA, lang="en", most=1)
    player = str(ANA.id)
    with pytest.raises(DomainError) as early:  # the Focus first
        await play.odds_game(db, game.id, 1, player)
    assert early.value.code == "digits.odds_turn_over"
    await play.mutate(db, game.id, lambda g: g.match.submit_focus(player, 4))
    assert (await play.odds_game(db, game.id, 1, player)).id == game.id
    with pytest.raises(DomainError) as stale:
        await play.odds_game(db, game.id, 2, player)
    assert stale.value.code == "game.stale"
    with pytest.raises(DomainError) as forged:
        await play.odds_game(db, game.id, 1, "12345")
    assert forged.value.code == "component.invalid"
