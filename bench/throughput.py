"""`make bench`: speed as ratios, measured side by side in one run.

For each game, these contenders play the same kind of game (default knobs,
the same bot in every seat):

    straightforward   the independent pure-Python reference in tests/reference/,
                      random play: the baseline every ratio is taken against
    compiled <bot>    the game's kernel (sim/compiled.py), a chunk per call,
                      for `random` and every scripted bot
    step, plugin      the step-by-step path with a trivial Python plugin in every
                      seat, `legal[rng.randrange(len(legal))]`, run in-process
                      with the per-move time limit (as --trust-plugins does):
                      stepped on the game's kernel where it can be
                      (sim/kernel_step.py), else on the Python engine (sim/play.py),
                      as the runner plays a plugin chunk
    step, hosted      the same plugin in a process of its own per seat, as a run
      plugin          does by default (bots/host.py), on the Python engine as the
                      runner plays it; its CPU time adds the plugin
                      processes' own (from /proc, Linux)

Every contender is timed in CPU seconds (time.process_time: what another
process on the machine takes is not counted), in rounds that interleave the
contenders, so a machine that slows down mid-run slows every contender
alike; a contender's figure is its median over the rounds. Warm-up
(imports, compilation, caches) is excluded.

`--whole-run` also times a whole `balancer run` of fdc-5p-random (1,000,000
games by default, one worker, report included) as a child process, in CPU
seconds, in three rounds, each against the straightforward implementation's time
per game measured just before it; its figure is the median round's ratio.

`--rollouts` times a search bot's rollout (compiled determinize + play_out) from
mid-game beside a whole compiled game of the same variant (bench/rollouts.py).

`--roles` times role games compiled beside fdc's kernel and beside their own Python
interpreter, and the shipped mega-racer-4p (lookahead in every seat) compiled beside
its `--check` path (bench/roles.py); `--roles-only` times those alone.

`--workers-run` times whole runs of fdc-5p and fdc-5p-random (1,000,000
games by default) with one worker and with two, alternating, two rounds
each, in wall seconds (what more workers are for), and the peak resident
memory of the runs with two.

Results are printed and written to bench/results/throughput.json with the
machine's description.

    python -m bench.throughput [--rounds 5] [--seconds 0.5] [--game fdc] [--whole-run [N]]
                               [--workers-run [N]] [--rollouts | --rollouts-only]
                               [--roles | --roles-only]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from balancer import games, knobs
from balancer._version import __version__
from balancer.bot import bot_params_with_defaults
from balancer.bots import registry as bot_registry
from balancer.games.progress import NO_MARGIN
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, compiled, kernel_step
from balancer.sim.play import Seat, play_game

RESULTS = Path(__file__).parent / "results" / "throughput.json"
PLAYERS = {"fish-dash-cash": 5, "kimekimera": 4, "da-qi-zi": 4}
ROOT = Path(__file__).parent.parent

# A contender plays `n` games starting at game index `first` and returns nothing.
Player = Callable[[int, int], None]


PLUGIN = "bench.throughput:TrivialPlugin"  # as a variant names it, for the hosted contender


class TrivialPlugin:
    """What a designer's first plugin looks like: a uniform legal move, from the rng it is given."""

    def act(self, view: Any, legal: Sequence[Any], rng: Any) -> Any:
        return legal[rng.randrange(len(legal))]


def straightforward(game: str) -> Player:
    players = PLAYERS[game]
    if game == "fish-dash-cash":
        from tests.reference import fdc_reference as ref

        def one(rng: random.Random) -> object:
            return ref.play_one_game(players, rng)
    elif game == "kimekimera":
        from tests.reference import kk_reference as ref_kk

        def one(rng: random.Random) -> object:
            return ref_kk.play_one_game(players, rng)
    else:
        from tests.reference import dqz_reference as ref_dqz

        def one(rng: random.Random) -> object:
            return ref_dqz.play_one_game(rng)

    def play(first: int, n: int) -> None:
        rng = random.Random(first)
        for _ in range(n):
            one(rng)

    return play


def compiled_bot(game: str, bot: str) -> Player | None:
    kernel = compiled.kernel_of(game)
    if kernel is None or bot not in kernel.compiled_bots:
        return None
    spec = games.get(game)
    rules = knobs.defaults(spec.knobs)
    players = PLAYERS[game]
    bot_spec = bot_registry.builtin(game)[bot]
    slots = [(bot, dict(bot_params_with_defaults(bot_spec, {})))] * players

    def play(first: int, n: int) -> None:
        kernel.play_chunk(rules, players, 1, first, first + n, slots, True)

    return play


def step_plugin(game: str, hosted: bool = False) -> Player:
    """Seats as `balancer run` builds them for a plugin: in-process with the
    per-move time limit (--trust-plugins), or each in a process of its own
    (the default), sent its view and asked for the index of its move."""
    spec = games.get(game)
    rules = knobs.freeze(knobs.defaults(spec.knobs))  # read-only, as a variant's are
    if hosted:
        from balancer.bots.host import HostedBot

        preload = [spec.new_state.__module__]
        seats = [
            Seat(
                "plugin",
                HostedBot(PLUGIN, {}, DEFAULT_PLUGIN_MOVE_LIMIT, preload=preload),
                plugin=True,
            )
            for _ in range(PLAYERS[game])
        ]
    else:
        plugin = TrivialPlugin()
        seats = [
            Seat("plugin", plugin, time_limit=DEFAULT_PLUGIN_MOVE_LIMIT, plugin=True)
        ] * PLAYERS[game]

    if kernel_step.can_step_game(game) and not hosted:
        # As the runner plays an in-process plugin's chunk: stepped on the game's kernel.
        steps = kernel_step.stepper(game, rules, PLAYERS[game], [None] * PLAYERS[game])

        def play(first: int, n: int) -> None:
            kernel_step.play_games(
                steps, seats, 1, range(first, first + n), False,
                higher_is_better=spec.higher_is_better, margin=NO_MARGIN,
            )  # fmt: skip
    else:

        def play(first: int, n: int) -> None:
            for index in range(first, first + n):
                play_game(spec, rules, seats, 1, index)

    if hosted:
        pids = [seat.bot._proc.pid for seat in seats]  # type: ignore[attr-defined]
        play.helper_cpu = lambda: sum(map(_process_cpu, pids))  # type: ignore[attr-defined]
    return play


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) another process has used so far, from /proc; 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_clock(player: Player) -> Callable[[], float]:
    """This process's CPU seconds, plus those of the contender's helper processes."""
    helpers = getattr(player, "helper_cpu", None)
    if helpers is None:
        return time.process_time
    return lambda: time.process_time() + helpers()


def batch_size(player: Player, seconds: float) -> int:
    """Games per timing so that one timing takes about `seconds` of CPU (after a warm-up)."""
    clock = _cpu_clock(player)
    player(0, 5)
    n = 5
    while True:
        started = clock()
        player(1000, n)
        took = clock() - started
        if took >= seconds / 4 or n >= 1_000_000:
            return max(1, int(n * seconds / max(took, 1e-9)))
        n *= 4


def interleaved(contenders: dict[str, Player], rounds: int, seconds: float) -> dict[str, float]:
    """Median CPU seconds per game of each contender, over interleaved rounds."""
    sizes = {name: batch_size(player, seconds) for name, player in contenders.items()}
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for r in range(rounds):
        for name, player in contenders.items():
            n = sizes[name]
            clock = _cpu_clock(player)
            started = clock()
            player(10_000 + r * n, n)
            times[name].append((clock() - started) / n)
    return {name: statistics.median(t) for name, t in times.items()}


def measure_game(game: str, rounds: int, seconds: float) -> list[dict[str, Any]]:
    contenders: dict[str, Player] = {"straightforward": straightforward(game)}
    for bot in bot_registry.builtin(game):
        player = compiled_bot(game, bot)
        if player is not None:
            contenders[f"compiled {bot}"] = player
    contenders["step, plugin"] = step_plugin(game)
    contenders["step, hosted plugin"] = step_plugin(game, hosted=True)
    per_game = interleaved(contenders, rounds, seconds)
    base = per_game["straightforward"]
    random_time = per_game.get("compiled random")
    rows = []
    for name, t in per_game.items():
        rows.append(
            {
                "game": game,
                "players": PLAYERS[game],
                "contender": name,
                "cpu_us_per_game": round(t * 1e6, 2),
                "games_per_cpu_second": round(1 / t, 1),
                "vs_straightforward": round(base / t, 2),
                "vs_compiled_random": round(t / random_time, 2) if random_time else None,
            }
        )
    return rows


def _stolen_seconds() -> float:
    """CPU seconds the hypervisor has given to other guests so far, all cores together
    (/proc/stat's steal column; 0 where there is none): a wall-time figure taken while
    they grew was measured on less machine than it claims."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def balancer_run(variant: str, games_n: int, workers: int) -> dict[str, float]:
    """One `balancer run` of variants/<variant>.yaml as a child process, report included:
    its wall and CPU seconds, its peak resident memory (a compiled run is one
    process, its workers threads, so the child's peak is the whole run's) and the
    CPU seconds stolen from this virtual machine meanwhile."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable,
            "-m",
            "balancer",
            "run",
            str(ROOT / "variants" / f"{variant}.yaml"),
            "--games",
            str(games_n),
            "--workers",
            str(workers),
            "--quiet",
            "--out",
            str(Path(tmp) / "report"),
        ]
        stolen = _stolen_seconds()
        started = time.monotonic()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
        stolen = _stolen_seconds() - stolen
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise subprocess.CalledProcessError(child.returncode, command)
    return {
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),  # Linux: kilobytes
        "stolen_seconds": round(stolen, 2),
    }


def whole_run(games_n: int, rounds: int, seconds: float) -> dict[str, Any]:
    """CPU seconds of `balancer run` of fdc-5p-random as a child, report included, against
    the straightforward implementation timed just before each run: this machine's speed
    drifts by more than the target's margin within an hour, so the two sides of the
    ratio are taken in the same rounds and the ratio is the median of the rounds'."""
    reference = straightforward("fish-dash-cash")
    n = batch_size(reference, seconds)
    rows = []
    for r in range(rounds):
        started = time.process_time()
        reference(20_000 + r * n, n)
        per_game = (time.process_time() - started) / n
        cpu = balancer_run("fdc-5p-random", games_n, 1)["cpu_seconds"]
        rows.append((cpu, per_game, per_game * games_n / cpu))
    return {
        "games": games_n,
        "rounds": rounds,
        "cpu_seconds": [r[0] for r in rows],
        "straightforward_cpu_seconds": [round(r[1] * games_n, 1) for r in rows],
        "vs_straightforward_each": [round(r[2], 2) for r in rows],
        "vs_straightforward": round(statistics.median(r[2] for r in rows), 2),
    }


WORKERS_VARIANTS = ("fdc-5p", "fdc-5p-random")


def workers_runs(games_n: int, rounds: int) -> list[dict[str, Any]]:
    """One worker against two, wall time, in rounds (the median of each).

    The rounds alternate which goes first (1, 2 / 2, 1 / ...): this machine's
    speed drifts by tens of percent within minutes, and a fixed order would
    hand the drift between a pair's two runs always to the same side.
    """
    rows = []
    for variant in WORKERS_VARIANTS:
        runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
        for round_ in range(rounds):
            for workers in (1, 2) if round_ % 2 == 0 else (2, 1):
                runs[workers].append(balancer_run(variant, games_n, workers))
        one, two = (statistics.median(r["wall_seconds"] for r in runs[w]) for w in (1, 2))
        rows.append(
            {
                "variant": variant,
                "games": games_n,
                "wall_seconds_1": [r["wall_seconds"] for r in runs[1]],
                "wall_seconds_2": [r["wall_seconds"] for r in runs[2]],
                # Two workers should cost no more CPU than one: the same games, the same writing.
                "cpu_seconds_1": [r["cpu_seconds"] for r in runs[1]],
                "cpu_seconds_2": [r["cpu_seconds"] for r in runs[2]],
                "speed_up": round(one / two, 2),
                "speed_up_each": [
                    round(a["wall_seconds"] / b["wall_seconds"], 2)
                    for a, b in zip(runs[1], runs[2], strict=True)
                ],
                "stolen_seconds_1": [r["stolen_seconds"] for r in runs[1]],
                "stolen_seconds_2": [r["stolen_seconds"] for r in runs[2]],
                "peak_mb_2": max(r["peak_mb"] for r in runs[2]),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per timing")
    known = [*games.names(), *(games.get(n).short for n in games.names())]
    parser.add_argument("--game", action="append", choices=known, help="only this game")
    parser.add_argument(
        "--whole-run", nargs="?", type=int, const=1_000_000, default=None, metavar="GAMES"
    )
    parser.add_argument(
        "--workers-run", nargs="?", type=int, const=1_000_000, default=None, metavar="GAMES"
    )
    parser.add_argument(
        "--rollouts",
        action="store_true",
        help="also a compiled determinize + play_out beside a whole game (bench/rollouts.py)",
    )
    parser.add_argument(
        "--rollouts-only", action="store_true", help="--rollouts without the other contenders"
    )
    parser.add_argument(
        "--roles",
        action="store_true",
        help="also role games compiled, beside fdc's kernel and their Python (bench/roles.py)",
    )
    parser.add_argument(
        "--roles-only", action="store_true", help="--roles without the other contenders"
    )
    args = parser.parse_args()
    chosen = [games.get(g).name for g in args.game] if args.game else games.names()
    rows: list[dict[str, Any]] = []
    print(f"{'game':<16} {'contender':<22} {'us/game':>10} {'vs straightforward':>19}")
    for game in [] if args.rollouts_only or args.roles_only else chosen:
        for row in measure_game(game, args.rounds, args.seconds):
            rows.append(row)
            print(
                f"{game:<16} {row['contender']:<22} {row['cpu_us_per_game']:>10.2f} "
                f"{row['vs_straightforward']:>18.2f}x"
            )
    result: dict[str, Any] = {"balancer": __version__, "results": rows}
    if args.rollouts or args.rollouts_only:
        from bench.rollouts import measure_rollouts

        result["rollouts"] = measure_rollouts(chosen, args.rounds, args.seconds, interleaved)
        print()
        for r in result["rollouts"]:
            print(
                f"{r['variant']:<8} {r['contender']:<22} {r['cpu_us']:>10.2f} us "
                f"{r['vs_whole_game']:>6.2f}x a whole game"
            )
    if args.roles or args.roles_only:
        from bench.roles import measure_roles

        result["roles"] = measure_roles(args.rounds, args.seconds, interleaved)
        print()
        for r in result["roles"]["rows"]:
            print(f"{r['contender']:<32} {r['cpu_us_per_game']:>10.2f} us/game")
        for name, ratio in result["roles"]["ratios"].items():
            print(f"{name:<45} {ratio:>8}")
    if args.whole_run:
        result["whole_run"] = whole_run(args.whole_run, rounds=3, seconds=4 * args.seconds)
        w = result["whole_run"]
        print(
            f"\nbalancer run fdc-5p-random, {w['games']:,} games, one worker, "
            f"{w['rounds']} rounds: {w['cpu_seconds']} s CPU; straightforward "
            f"{w['straightforward_cpu_seconds']} s: {w['vs_straightforward_each']}, "
            f"median {w['vs_straightforward']}x"
        )
    if args.workers_run:
        result["workers"] = workers_runs(args.workers_run, rounds=4)
        print()
        for w in result["workers"]:
            print(
                f"balancer run {w['variant']}, {w['games']:,} games: one worker "
                f"{w['wall_seconds_1']} s, two {w['wall_seconds_2']} s wall: "
                f"{w['speed_up']}x (rounds {w['speed_up_each']}); CPU "
                f"{w['cpu_seconds_1']} / {w['cpu_seconds_2']} s; peak with two "
                f"{w['peak_mb_2']} MB; CPU seconds stolen by the hypervisor meanwhile "
                f"{w['stolen_seconds_1']} / {w['stolen_seconds_2']}"
            )
    result["machine"] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
