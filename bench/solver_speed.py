"""Speed of the exact endgame solver (players/search/solver.py, its C search), one core.

Plays the first hand of seeded games with four ``standard`` players (pagat by
default) up to the start of the trick with ``--tricks`` tricks left, and times
``solve`` for the declaring side there (CPU seconds), every hand known: the
double-dummy value the review gives (docs/review.md). With ``--compare MODULE.so``
(another build of ``_solver.c``, its module renamed, e.g. an older commit's) each
position is solved by both in the same run, alternately, and the values must agree.

    python bench/solver_speed.py [--tricks 12] [--games 10] [--rules pagat]
                                 [--compare /path/_solver_old.cpython-311-x86_64-linux-gnu.so]
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import time
from types import ModuleType

from pinochlekit import Game, Phase
from pinochlekit.players import make_player
from pinochlekit.players.search import solver
from pinochlekit.players.search.solver import Endgame


def position(rules: str, seed: int, tricks: int) -> Game | None:
    """Hand 1 of game ``seed`` at the start of the trick with ``tricks`` tricks left."""
    game = Game.new(rules, seed=seed)
    players = [make_player("standard", seed=s) for s in range(4)]
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PLAY and not game.trick and game.declarer is not None \
                and len(game.hand(game.declarer)) == tricks:
            return game
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    return None


def load_module(path: str) -> ModuleType:
    """An extension module from a file (its init function names the module)."""
    name = path.rsplit("/", 1)[-1].split(".")[0]
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def timed(module: ModuleType, args: tuple[object, ...]) -> tuple[int, float]:
    start = time.process_time()
    value = int(module.solve(*args))
    return value, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tricks", type=int, default=12)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=1, help="the first game seed")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--compare", metavar="MODULE", help="another build to time beside")
    args = parser.parse_args()
    current = solver.native_solver()
    if current is None:
        parser.error("the C solver is not built (bash scripts/setup.sh)")
    other = load_module(args.compare) if args.compare else None
    mine: list[float] = []
    theirs: list[float] = []
    for seed in range(args.first, args.first + args.games):
        game = position(args.rules, seed, args.tricks)
        if game is None or game.trump is None or game.to_act is None:
            print(f"seed {seed}: the hand does not reach {args.tricks} tricks left")
            continue
        assert game.declarer is not None
        end = Endgame(trump=int(game.trump), hands=tuple(game.hand(s) for s in range(4)),
                      to_act=game.to_act, first_trick=not game.tricks)
        call = solver._native_args(game.rules, end, game.rules.team_of(game.declarer))
        value, took = timed(current, call)
        mine.append(took)
        line = f"seed {seed}: value {value}, {took:.2f} s"
        if other is not None:
            old, old_took = timed(other, call)
            assert old == value, (seed, old, value)
            theirs.append(old_took)
            line += f"; compared build {old_took:.2f} s"
        print(line, flush=True)
    if not mine:
        return
    summary = f"{len(mine)} positions, {args.tricks} tricks left, {args.rules}: median " \
              f"{statistics.median(mine):.2f} s, largest {max(mine):.2f} s"
    if theirs:
        summary += f"; compared build median {statistics.median(theirs):.2f} s, " \
                   f"largest {max(theirs):.2f} s"
    print(summary)


if __name__ == "__main__":
    main()
