"""Benchmark: the event loop's lag under 50 Rithmomachia games at once, with and without the strong
level thinking, side by side in one run.

    .venv/bin/python -m tools.bench.rithmo_loop --games 50 --turns 4 --solo 2 --repeat 2

One bot, one stand-in, one process. Three rounds, each of ``--games`` new games between pairs of
members (set up ten at a time first: challenge and Accept), then ``--turns`` turns in all in every
game at the same moment (as ``tools.load_rithmo``: an autocomplete of ``/rithmo move``, then the
move), while a probe on the event loop sleeps 5 ms again and again and records how late it wakes
(the lag every interaction of the bot waits through):

1. **no strong search**: the games alone;
2. **strong in the pool**: meanwhile ``--solo`` members play the strong level (``/rithmo solo
   level:3``, a turn as soon as Ardoise has answered), so that a strong search is under way during
   the whole round, in the bot's process pool (as in play);
3. **strong in a thread** (the old way, for comparison): the same, with the search run by
   ``asyncio.to_thread`` in the bot's process (the service's ``choose_turn`` replaced by the same
   function, which takes the thread path).

The three rounds are played ``--repeat`` times in turn (the load of a shared machine changes from
minute to minute). Printed: p50, p95 and max of the lag and of the time from a ``/rithmo move``
to the bot's first answer, per round and per kind over all its rounds, and how many strong turns
Ardoise played during the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.local.server import Channel, Member, Message, StandIn
from bot.rithmo.opponents import choose_turn
from bot.settings import Config
from tools.load_rithmo import _percentile

PROBE_S = 0.005


async def _probe(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(PROBE_S)
        lags.append(time.perf_counter() - t - PROBE_S)


async def _solo(standin: StandIn, channel: Channel, member: Member, stop: asyncio.Event,
                played: list[int], rng: random.Random) -> None:
    """A member against the strong level, playing as soon as Ardoise has answered, until
    ``stop``: Ardoise opens (White), so a search starts at once."""
    started = await standin.slash(member, "rithmo solo", level=3, colour="black",
                                  in_channel=channel)
    played[0] += 1
    board: Message = started.reply
    while not stop.is_set():
        choices = await standin.autocomplete(member, "rithmo move", "turn", turn="",
                                             in_channel=channel)
        if not choices:
            return
        turn = rng.choice(choices)["value"]
        await standin.slash(member, "rithmo move", turn=turn, in_channel=channel)
        board = await standin.wait_for_message(
            lambda m, t=turn: bool(m.attachments) and f"`{t}`" in m.content, after=board,
            timeout=60)
        if "🏆" in board.content or "🤝" in board.content:
            return
        played[0] += 1


async def _setup(standin: StandIn, channel: Channel, white: Member, black: Member) -> Message:
    """A challenge and its acceptance; the game's first board."""
    posted = await standin.slash(white, "rithmo challenge", member=black, colour="white",
                                 in_channel=channel)
    accept = posted.reply.buttons()[0]["custom_id"]
    await standin.click(black, posted.reply, accept)
    return await standin.wait_for_message(lambda m: bool(m.attachments), after=posted.reply,
                                          timeout=60)


async def _turns(standin: StandIn, channel: Channel, players: tuple[Member, Member],
                 board: Message, turns: int, rng: random.Random, moves: list[float]) -> None:
    """``turns`` turns in all, each an autocomplete of /rithmo move and the move."""
    for ply in range(turns):
        member = players[ply % 2]
        choices = await standin.autocomplete(member, "rithmo move", "turn", turn="",
                                             in_channel=channel)
        if not choices:
            return
        turn = rng.choice(choices)["value"]
        record = await standin.slash(member, "rithmo move", turn=turn, in_channel=channel)
        moves.append(record.answer_time or 0.0)
        board = await standin.wait_for_message(
            lambda m, t=turn: bool(m.attachments) and f"`{t}`" in m.content, after=board,
            timeout=120)
        if "🏆" in board.content or "🤝" in board.content:
            return


async def _round(standin: StandIn, tag: str, games: int, turns: int, solo: int,
                 seed: int) -> dict[str, Any]:
    channels = [standin.add_channel(f"{tag}-{i}") for i in range(games)]
    pairs = [(standin.add_member(f"{tag} White {i}"), standin.add_member(f"{tag} Black {i}"))
             for i in range(games)]
    print(f"round {tag}: setting up {games} games", file=sys.stderr, flush=True)
    boards = []
    for i in range(0, games, 10):  # the games are set up ten at a time, before measuring
        boards += await asyncio.gather(*(_setup(standin, channels[j], *pairs[j])
                                         for j in range(i, min(i + 10, games))))
    stop_solo = asyncio.Event()
    strong_turns = [0]
    solos = [asyncio.create_task(_solo(standin, standin.add_channel(f"{tag}-solo-{i}"),
                                       standin.add_member(f"{tag} Solo {i}"), stop_solo,
                                       strong_turns, random.Random(seed + i)))
             for i in range(solo)]
    if solo:
        while strong_turns[0] == 0:  # the first strong turn is searched: the pool is warm
            await asyncio.sleep(0.05)
    print(f"round {tag}: playing", file=sys.stderr, flush=True)
    moves: list[float] = []
    lags: list[float] = []
    stop_probe = asyncio.Event()
    probe = asyncio.create_task(_probe(stop_probe, lags))
    before = strong_turns[0]
    t0 = time.perf_counter()
    rng = random.Random(seed)
    await asyncio.gather(*(
        _turns(standin, channel, players, board, turns, random.Random(rng.random()), moves)
        for channel, players, board in zip(channels, pairs, boards, strict=True)))
    wall = time.perf_counter() - t0
    stop_probe.set()
    await probe
    during = strong_turns[0] - before
    print(f"round {tag}: played in {wall:.1f} s", file=sys.stderr, flush=True)
    stop_solo.set()
    await asyncio.gather(*solos)
    return {"lag": lags, "move": moves, "wall": wall, "strong turns": during}


async def run(games: int, turns: int, solo: int, seed: int, repeat: int = 1
              ) -> list[tuple[str, dict[str, Any]]]:
    standin = StandIn()
    standin.answer_deadline = 3.0
    await standin.start()
    standin.point_discord_here()
    with tempfile.TemporaryDirectory() as folder:
        settings = Config(token=standin.token, db_path=Path(folder) / "bench.sqlite3",
                          test_guild=standin.guild.id)
        bot = create_bot(settings, guild_ready_timeout=0.02)
        task = asyncio.create_task(bot.start(standin.token))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            service = bot.get_cog("Rithmo").flow.service

            def in_thread(game: Any, level: int, rng: random.Random) -> Any:
                return choose_turn(game, level, rng)  # not the default: the thread path

            out = []
            for n in range(repeat):  # the rounds in turn, so that the machine's load is shared
                service.choose_turn = choose_turn
                out.append(("no strong search",
                            await _round(standin, f"a{n}", games, turns, 0, seed + n)))
                out.append(("strong in the pool",
                            await _round(standin, f"b{n}", games, turns, solo, seed + n)))
                service.choose_turn = in_thread
                out.append(("strong in a thread (old)",
                            await _round(standin, f"c{n}", games, turns, solo, seed + n)))
            if standin.errors:
                raise SystemExit("the stand-in recorded errors:\n" + "\n".join(standin.errors))
            return out
        finally:
            await bot.close()
            await task
            await standin.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.rithmo_loop",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--solo", type=int, default=2,
                        help="members playing the strong level meanwhile (rounds 2 and 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2,
                        help="the three rounds this many times, in turn (the machine's load "
                             "changes: each kind's figures are over all its rounds, and each "
                             "round is printed)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    rounds = asyncio.run(run(args.games, args.turns, args.solo, args.seed, args.repeat))
    print(f"{args.games} Rithmomachia games at once, {args.turns} turns each; event-loop lag "
          f"(a {PROBE_S * 1000:g} ms sleep's lateness) and /rithmo move's first answer, in ms "
          f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")
    print("| Round | lag p50 | lag p95 | lag max | move p50 | move p95 | strong turns | wall |")
    print("|---|---|---|---|---|---|---|---|")
    kinds: dict[str, dict[str, Any]] = {}
    for name, r in rounds:
        k = kinds.setdefault(name, {"lag": [], "move": [], "strong turns": 0, "wall": 0.0})
        for key in ("lag", "move"):
            k[key] += r[key]
        k["strong turns"] += r["strong turns"]
        k["wall"] += r["wall"]
    for name, r in [*rounds, *((f"**{n}, all rounds**", k) for n, k in kinds.items())]:
        lag = [x * 1000 for x in r["lag"]]
        move = [x * 1000 for x in r["move"]]
        print(f"| {name} | {statistics.median(lag):.1f} | {_percentile(lag, 0.95):.1f} | "
              f"{max(lag):.0f} | {statistics.median(move):.0f} | {_percentile(move, 0.95):.0f} | "
              f"{r['strong turns']} | {r['wall']:.1f} s |")


if __name__ == "__main__":
    main()
