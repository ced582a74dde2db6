import cProfile, pstats, random, time
from bot.rithmo.ai import Searcher
from bot.rithmo.victory import Settings
from bot.rithmo.board import Board
from tools.bench.rithmo import midgame_positions
boards=[Board.start(), *midgame_positions(6, 2026)]
st=Settings()
def run():
    for i,b in enumerate(boards):
        Searcher(st, nodes=4000, rng=random.Random(i)).search(b)
t=time.process_time(); run(); print("cpu", time.process_time()-t)
cProfile.run("run()", "/tmp/prof16.out")
p=pstats.Stats("/tmp/prof16.out"); p.sort_stats("tottime").print_stats(18)
