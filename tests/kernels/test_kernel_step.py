"""Plugin games stepped on the fdc kernel are the Python engine's games (sim/kernel_step.py).

Game for game (records equal: scores, length, every event, the held kinds)
over every shipped fdc variant with plugin seats among its own bots, and
over rule sets that move every knob (two and three copies of a card among
them); a plugin playing random replays the compiled run; a plugin that reads
its view sees exactly the Python engine's view; a failing plugin is still a
GameFault naming game, seed, seat and bot; and the same games with the
kernels as plain Python (BALANCER_JIT=0).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import jit
from balancer.bots import host as plugin_host
from balancer.config.variant import SeatSpec, Variant, load
from balancer.errors import GameFault
from balancer.games.api import GameRecord
from balancer.games.fdc import engine as fdc
from balancer.games.fdc import kernel as K
from balancer.sim import compiled, kernel_step, runner
from balancer.sim.play import Seat, play_game
from tests.helpers import SAFETY_TIMEOUT, assert_plays_on_as_the_engine, kernel_view_matches
from tests.kernels.test_fdc_kernel import KNOB_SETS, knob_variant

ROOT = Path(__file__).parents[2]
VARIANTS = sorted(p for p in (ROOT / "variants").glob("fdc-*.yaml") if p.stem != "fdc-base")
UNIFORM = "tests.plugins:RandomLike"  # legal[rng.randrange(len(legal))], handed a (lazy) view


def with_plugins(variant: Variant, slots: Sequence[int], plugin: str = UNIFORM) -> Variant:
    seats = list(variant.seats)
    for j in slots:
        seats[j] = SeatSpec(plugin)
    return replace(variant, seats=tuple(seats))


def stepped(variant: Variant, start: int, stop: int) -> list[GameRecord]:
    with plugin_host.trusting(True):
        slots = runner.build_seats(variant, SAFETY_TIMEOUT, start)
    return kernel_step.play_chunk(variant, slots, start, stop)


def engine(variant: Variant, start: int, stop: int) -> list[GameRecord]:
    with plugin_host.trusting(True):
        slots = runner.build_seats(variant, SAFETY_TIMEOUT, start)
    return [
        play_game(variant.spec, variant.rules, variant.seated(slots, i), variant.seed, i)
        for i in range(start, stop)
    ]


def assert_same_records(ours: list[GameRecord], theirs: list[GameRecord], name: str) -> None:
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        # GameRecord's == leaves the held kinds out; they are compared too, and by type.
        assert (a, a.held) == (b, b.held), f"{name}: game {i} differs"
        # How it played too: the same rows of progress, the same figures (NaN where the
        # engine's is), both left out of GameRecord's ==.
        assert a.progress == b.progress and b.progress, f"{name}: game {i}'s progress"
        assert np.array_equal(a.figures, b.figures, equal_nan=True), f"{name}: game {i}"
        # And its turns and choices, counted in the kernel as the engine's loop counts them.
        assert a.decisions == b.decisions and b.decisions, f"{name}: game {i}'s decisions"
        assert [type(v) for v in a.events.values()] == [type(v) for v in b.events.values()]


# -- the Python engine's games ------------------------------------------------------


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_variant_with_plugin_seats_plays_the_engines_games(path: Path) -> None:
    """One plugin among the variant's own bots (seat 1, seats rotated or not as the
    variant says), then a plugin in every seat."""
    variant = load(path)
    one = with_plugins(variant, [1])
    assert kernel_step.can_step(one) and not compiled.can_compile(one)
    assert_same_records(stepped(one, 200, 350), engine(one, 200, 350), path.stem)
    every = with_plugins(variant, range(variant.players))
    assert_same_records(stepped(every, 0, 300), engine(every, 0, 300), path.stem)


@pytest.mark.parametrize("name", KNOB_SETS)
def test_every_knob_off_default_with_plugins_plays_the_engines_games(name: str) -> None:
    variant = knob_variant(name)
    mixed = with_plugins(variant, [0, variant.players - 1])
    assert_same_records(stepped(mixed, 0, 200), engine(mixed, 0, 200), name)


def test_a_random_plugin_replays_the_compiled_runs_games() -> None:
    """fdc-5p-vs-random with one of its random seats a plugin drawing legal[rng.randrange(n)]:
    every seat's figures are the compiled run's, the heuristic's and the other random
    seats' included (each built-in seat keeps its compiled logic and kernel stream)."""
    variant = load(ROOT / "variants" / "fdc-5p-vs-random.yaml")
    assert variant.seat_rotation
    for slots in ([2], [1, 4], [1, 2, 3, 4]):
        assert_replays_compiled(variant, slots, 1000, 1600)


def assert_replays_compiled(variant: Variant, slots: Sequence[int], start: int, stop: int) -> None:
    """Games start..stop-1 of `variant` with uniform plugins in `slots` (each drawing
    legal[rng.randrange(n)]) are the compiled run's, where those slots play `random`."""
    records = stepped(with_plugins(variant, slots), start, stop)
    cols = compiled.play_columns(variant, start, stop)
    assert len(records) == stop - start
    for row, record in enumerate(records):
        assert record.scores == tuple(cols.scores[row].tolist())
        assert record.length == cols.length[row]
        assert [record.events[e] for e in variant.spec.events] == cols.events[row].tolist()
        assert record.held == tuple(cols.held[row].tolist())


def test_the_step_entry_plays_compiled_seats_to_the_end() -> None:
    """With no outside seat, one `deal` plays the whole game: the compiled path's game."""
    assert_compiled_seats_play_to_the_end(load(ROOT / "variants" / "fdc-5p-vs-random.yaml"), 50)


def assert_compiled_seats_play_to_the_end(variant: Variant, games: int) -> None:
    """Every seat compiled: each `deal` of games 0..games-1 plays the compiled path's game."""
    players = variant.players
    steps = kernel_step.stepper(
        variant.game, variant.rules, players, kernel_step.slot_bots(variant)
    )
    cols = compiled.play_columns(variant, 0, games)
    for index in range(games):
        seat_slots = [variant.bot_slot(s, index) for s in range(players)]
        assert steps.deal(variant.seed, index, seat_slots) == 0
        record = steps.record()
        assert record.scores == tuple(cols.scores[index].tolist())
        assert record.length == cols.length[index]
        assert record.held == tuple(cols.held[index].tolist())


# -- what a plugin is handed ---------------------------------------------------------


class Reader:
    """Reads its whole view at every decision (keeping it), and lets it steer the move."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, str, tuple[Hashable, ...]]] = []

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        self.seen.append((view, repr(view), tuple(legal)))
        steer = len(view.my_cashed) + view.pile_size + len(view.to_resolve) + len(view.protected)
        return legal[(rng.randrange(len(legal)) + steer) % len(legal)]


class Keeper:
    """Keeps every view it is handed, unread until the game is over."""

    def __init__(self) -> None:
        self.kept: list[Any] = []

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        self.kept.append(view)
        return legal[rng.randrange(len(legal))]


def both_paths(variant: Variant, bot: Any, plugin_slots: Sequence[int], games: range) -> None:
    """Play `games` with `bot` (one object) in the plugin slots, stepped then on the engine."""
    with plugin_host.trusting(True):
        slots = runner.build_seats(variant, SAFETY_TIMEOUT)
    for j in plugin_slots:
        slots[j] = Seat("reader", bot, time_limit=SAFETY_TIMEOUT, plugin=True)
    names = [None if j in plugin_slots else b for j, b in enumerate(kernel_step.slot_bots(variant))]
    steps = kernel_step.stepper(variant.game, variant.rules, variant.players, names)
    ours = kernel_step.play_games(
        steps, slots, variant.seed, games, variant.seat_rotation,
        higher_is_better=variant.spec.higher_is_better, margin=variant.margin,
    )  # fmt: skip
    theirs = [
        play_game(variant.spec, variant.rules, variant.seated(slots, i), variant.seed, i)
        for i in games
    ]
    assert_same_records(ours, theirs, variant.name)


@pytest.mark.parametrize(
    "variant",
    [
        load(ROOT / "variants" / "fdc-5p-vs-random.yaml"),
        load(ROOT / "variants" / "fdc-3p.yaml"),
        knob_variant("three-colours-two-copies"),
    ],
    ids=lambda v: v.name,
)
def test_a_plugin_reading_its_view_sees_exactly_the_engines_view(variant: Variant) -> None:
    """Every field of every view, dash choices included (their queue, protection and
    the fish played), and the legal moves as listed: the same on both paths."""
    reader = Reader()
    both_paths(variant, reader, [0, variant.players - 1], range(60))
    half = len(reader.seen) // 2  # the stepped games' decisions, then the engine's
    assert half > 500
    for (a, text_a, legal_a), (b, text_b, legal_b) in zip(
        reader.seen[:half], reader.seen[half:], strict=True
    ):
        assert kernel_view_matches(a, b, text_a, text_b) and legal_a == legal_b
    # Views that only a dash choice shows were among them.
    texts = [text for _, text, _ in reader.seen[:half]]
    assert any("phase=1" in t and "to_resolve=((" in t for t in texts)
    assert any("protected=(" in t and "protected=()" not in t for t in texts)
    assert any("played_this_trick=frozenset({" in t for t in texts)
    assert any("my_cashed=(" in t and "my_cashed=()" not in t for t in texts)


def test_a_view_kept_unread_shows_its_own_moment() -> None:
    """A lazy view kept past its move is filled before the move is played: read after
    the game, each equals the engine's view of that decision, field for field."""
    variant = with_plugins(load(ROOT / "variants" / "fdc-5p.yaml"), range(5))
    keeper = Keeper()
    both_paths(variant, keeper, range(5), range(3))
    half = len(keeper.kept) // 2
    assert half > 100
    for a, b in zip(keeper.kept[:half], keeper.kept[half:], strict=True):
        assert kernel_view_matches(a, b, repr(a), repr(b))
    assert len({repr(v) for v in keeper.kept[:half]}) > 100


# -- faults ----------------------------------------------------------------------------


class Raises:
    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        if view.tricks_played >= 3:
            raise RuntimeError("the plugin broke")
        return legal[0]


class AnswersAFloat:
    """Answers a card as a float: equal to it, but no int, so no move (exact types)."""

    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return float(legal[-1])


class Illegal:
    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        return max(legal) + 1000


class Sleeps:
    def act(self, view: Any, legal: Sequence[Hashable], rng: Any) -> Hashable:
        import time

        time.sleep(SAFETY_TIMEOUT)
        return legal[0]


@pytest.mark.parametrize(
    ("bot", "limit", "says"),
    [
        (Raises(), SAFETY_TIMEOUT, "the bot raised RuntimeError: the plugin broke"),
        (AnswersAFloat(), SAFETY_TIMEOUT, "illegal move"),
        (Illegal(), SAFETY_TIMEOUT, "illegal move 1"),
        (Sleeps(), 0.2, "no move within the time limit of 0.2s"),
    ],
    ids=["raises", "float", "illegal", "time-limit"],
)
def test_a_failing_plugin_is_a_fault_naming_game_seed_seat_and_bot(
    bot: Any, limit: float, says: str
) -> None:
    variant = load(ROOT / "variants" / "fdc-5p-vs-random.yaml")
    with plugin_host.trusting(True):
        slots = runner.build_seats(variant, SAFETY_TIMEOUT)
    slots[3] = Seat("the-plugin", bot, time_limit=limit, plugin=True)
    names = [None if j == 3 else b for j, b in enumerate(kernel_step.slot_bots(variant))]
    steps = kernel_step.stepper("fdc", variant.rules, 5, names)
    with pytest.raises(GameFault) as fault:
        kernel_step.play_games(
            steps, slots, variant.seed, range(7, 9), variant.seat_rotation,
            higher_is_better=True, margin=variant.margin,
        )  # fmt: skip
    # Game 7 rotates slot 3 to physical seat (3 - 7) % 5 = 1.
    assert fault.value.index == 7 and fault.value.seed == variant.seed
    assert fault.value.seat == 1 and fault.value.bot == "the-plugin"
    assert says in str(fault.value)
    # The same fault as the Python engine's loop raises.
    with pytest.raises(GameFault) as theirs:
        play_game(variant.spec, variant.rules, variant.seated(slots, 7), variant.seed, 7)
    assert str(theirs.value) == str(fault.value)


# -- the runner's route -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["fdc-4p", "kk-4p", "dqz-4p"])
def test_a_plugin_run_steps_the_kernel_and_writes_the_engines_table(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Without --check a plugin chunk plays on the kernel; with it, on the Python
    engine: the same games table either way."""
    variant = with_plugins(load(ROOT / "variants" / f"{name}.yaml"), [2]).with_overrides(games=120)
    # A comeback margin, which each path must pass to the games' figures.
    variant = replace(variant, comeback_margin=1)
    calls: list[int] = []
    real = kernel_step.play_chunk

    def spy(*args: Any) -> list[GameRecord]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(kernel_step, "play_chunk", spy)

    def here(chunks: Sequence[runner.Chunk], workers: int, started: Any) -> Any:
        return map(runner.play_chunk, chunks)

    frames = []
    for check in ("0", "1"):
        monkeypatch.setenv(runner.CHECK_ENV, check)
        with plugin_host.trusting(True):
            result = runner.run(variant, backend=here)
        frames.append(result.frame())
        result.games_file.remove()
        if check == "0":
            assert calls, "the plugin chunks were not stepped on the kernel"
            calls.clear()
    assert not calls  # --check plays on the Python engine
    # How each game played (games/progress.py) too: the stepped kernel records each
    # step's scores as the engine does, so every column is the engine's, game for game.
    stepped, engine = frames
    assert engine["lead_changes"].null_count() == 0
    assert stepped.equals(engine)


@pytest.mark.parametrize("name", ["fdc-3p", "kk-3p", "dqz-4p"])
def test_a_hosted_plugin_plays_the_same_games(name: str) -> None:
    """The default, a plugin in a process of its own (bots/host.py), handed full views."""
    variant = with_plugins(load(ROOT / "variants" / f"{name}.yaml"), [1])
    slots = runner.build_seats(variant, SAFETY_TIMEOUT)
    try:
        assert isinstance(slots[1].bot, plugin_host.HostedBot)
        ours = kernel_step.play_chunk(variant, slots, 0, 30)
        theirs = [
            play_game(variant.spec, variant.rules, variant.seated(slots, i), variant.seed, i)
            for i in range(30)
        ]
    finally:
        slots[1].bot.close()  # type: ignore[attr-defined]
    assert_same_records(ours, theirs, variant.name)


# -- without numba -----------------------------------------------------------------------


def plain_games() -> list[list[Any]]:
    """A few stepped games of two rule sets (for the BALANCER_JIT=0 child)."""
    return plain_records(
        [
            with_plugins(load(ROOT / "variants" / "fdc-5p-vs-random.yaml"), [1]),
            with_plugins(knob_variant("three-colours-two-copies"), [0]),
        ],
        4,
    )


# -- what the kk and dqz step tests share ---------------------------------------------------


def assert_drawn_ahead(game: str, rules: Any, players: int, ahead: int) -> None:
    """At the deal the kernel draws each outside seat's first `ahead` numbers of its bot
    stream (rng.bot_stream(seat) of the game) and leaves the stream at its start;
    a compiled seat's stream is not drawn ahead."""
    from balancer.rng import Stream, bot_stream

    slots = [None, ("random", {}), *[None] * (players - 2)]
    steps = kernel_step.stepper(game, rules, players, slots)
    # Slot 0 (outside) at seat 1, slot 1 (random) at seat 0.
    steps.deal(7, 3, [1, 0, *range(2, players)])
    for seat in range(players):
        stream = Stream(7, 3, bot_stream(seat))
        assert int(steps.streams[1 + seat, 0]) == stream.key
        drawn = steps.ahead[seat * ahead : (seat + 1) * ahead].tolist()
        if seat == 0:
            assert drawn == [0] * ahead
        else:
            assert drawn == [stream.next_u64() for _ in range(ahead)]
            assert int(steps.streams[1 + seat, 1]) == 0


def assert_warm_up_compiles_the_step_entry(variant: Variant, kernel: Any) -> None:
    """sim/warm.py's `stepped` piece compiles the kernel's `step` with the types a plugin
    run calls it with: `variant` (plugin seats among compiled ones) stepped afterwards
    compiles nothing more. `step` is the one function Python calls (the others are
    compiled into it)."""
    from balancer import games
    from balancer.sim.warm import warm_piece

    short = games.get(variant.game).short
    assert warm_piece((variant.game, "stepped")) == [f"{short} stepped"]
    signatures = list(kernel.step.signatures)
    assert len(signatures) == 1
    stepped(variant, 0, 20)
    assert kernel.step.signatures == signatures


def plain_records(variants: Sequence[Variant], games: int) -> list[list[Any]]:
    """Stepped games 0..games-1 of each variant, as plain lists (a BALANCER_JIT=0 child
    prints them as JSON for `same_without_numba`)."""
    out = []
    for variant in variants:
        for r in stepped(variant, 0, games):
            out.append([list(r.scores), r.length, dict(r.events), list(r.held)])
    return out


def same_without_numba(module: str, games: Callable[[], list[list[Any]]]) -> None:
    """`games` (the function of that name in `module`) gives the same in a child with
    the kernels as plain Python (BALANCER_JIT=0) as here, compiled."""
    code = (
        "import json\n"
        "from balancer import jit\n"
        "assert not jit.ENABLED\n"
        f"from {module} import {games.__name__}\n"
        f"print(json.dumps({games.__name__}()))\n"
    )
    env = {**os.environ, jit.JIT_ENV: "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(games()))


def test_without_numba_the_same_functions_play_the_same_games() -> None:
    same_without_numba("tests.kernels.test_kernel_step", plain_games)


def test_the_kernel_keeps_what_it_is_stepped_with() -> None:
    """K.step's contract: STEP_DEAL resets the cashed record and held kinds."""
    variant = with_plugins(load(ROOT / "variants" / "fdc-3p.yaml"), [0, 1, 2])
    steps = kernel_step.stepper("fdc", variant.rules, 3, [None] * 3)
    code = steps.deal(1, 0, [0, 1, 2])
    assert code >> 3 >= 2 and code & 7 == 0  # seat 0 leads game 0 (first_leader: seat0)
    assert steps.legal(code) == list(steps.view(0).hand)
    assert int(steps.cashed[: K.MAXP].sum()) == 0


# -- from any position (a search bot's rollouts) -------------------------------------------


@pytest.mark.parametrize("name", ["fdc-5p", "three-colours-two-copies"])
def test_stepping_from_a_position_mid_game_plays_on_as_the_engine(name: str) -> None:
    """A Python game stopped at its k-th decision (a dash choice among them), loaded
    into a StepGame, plays on exactly as the engine: the same legal moves and views at
    every decision, the same record; and with compiled seats, the compiled game."""
    from balancer.rng import CHANCE, Stream, bot_stream

    variant = knob_variant(name) if name in KNOB_SETS else load(ROOT / "variants" / f"{name}.yaml")
    rules, players = variant.rules, variant.players
    steps = kernel_step.stepper("fdc", rules, players, [None] * players)
    dash_loaded = 0
    for index in range(40):
        py = fdc.new_state(rules, players, Stream(5, index, CHANCE))
        rngs = [Stream(5, index, bot_stream(s)) for s in range(players)]
        stop_at, decisions = 3 + index, 0
        while not py.is_terminal() and decisions < stop_at:
            legal = py.legal_actions()
            if len(legal) > 1:
                decisions += 1
            py.apply_action(legal[rngs[py.current_player()].randrange(len(legal))])
        if py.is_terminal():
            continue
        dash_loaded += py.phase == fdc.DASH_CHOICE
        code = steps.load(py.clone(), range(players), 5, index)
        assert_plays_on_as_the_engine(steps, code, py, rngs)
    assert dash_loaded > 0


def test_a_loaded_position_refuses_other_rules_and_players() -> None:
    from balancer.rng import CHANCE, Stream

    variant = load(ROOT / "variants" / "fdc-3p.yaml")
    steps = kernel_step.stepper("fdc", variant.rules, 3, [None] * 3)
    four = fdc.new_state(variant.rules, 4, Stream(1, 0, CHANCE))
    with pytest.raises(ValueError, match="4 players"):
        steps.load(four, range(3), 1, 0)
    other = load(ROOT / "variants" / "fdc-5p-face.yaml")
    with pytest.raises(ValueError, match="other rules"):
        steps.load(fdc.new_state(other.rules, 3, Stream(1, 0, CHANCE)), range(3), 1, 0)


def test_warming_deals_without_asking_a_plugin() -> None:
    """runner.run loads the stepped kernel before forking: no plugin is built or asked."""
    variant = with_plugins(load(ROOT / "variants" / "fdc-3p.yaml"), [0, 1, 2], "no.such:Plugin")
    kernel_step.warm(variant)


@pytest.mark.parametrize("trust", [False, True], ids=["hosted", "trusted"])
def test_a_broken_plugin_in_a_stepped_run_is_one_line_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    trust: bool,
) -> None:
    """`balancer run` without --check (so stepped on the kernel), a plugin failing in
    game 0: exit 2 and a line naming the game, seed, seat and bot."""
    from balancer.cli import main
    from tests.helpers import one_error_line, variant_file

    monkeypatch.setenv(runner.CHECK_ENV, "0")
    path = variant_file(
        tmp_path,
        "fdc-base.yaml",
        "players: 3\ngames: 30\nseats: [random, 'tests.plugins:Raises', heuristic]\n",
    )
    args = ["run", "-q", str(path), "-o", str(tmp_path / "r"), "-n", "3", "-w", "1"]
    assert main([*args, *(["--trust-plugins"] if trust else [])]) == 2
    if trust:  # --trust-plugins is for debugging: the plugin's traceback comes first
        err = capsys.readouterr().err
        assert 'tests/plugins.py", line' in err
        line = err.strip().splitlines()[-1]
    else:
        line = one_error_line(capsys)
    for part in ("the plugin broke", "game 0", "seed 20261130", "seat 1", "tests.plugins:Raises"):
        assert part in line, line


# -- the plugin's rng ---------------------------------------------------------------------


def test_a_stream_drawn_ahead_draws_what_the_stream_draws() -> None:
    """Whatever a plugin asks of its rng, in any order, past the numbers drawn
    ahead and after changing its key: the same numbers and counter as rng.Stream."""
    from balancer.rng import Stream
    from balancer.sim.kernel_step import DrawnAhead

    source = Stream(3, 9, 2)
    ahead = [source.next_u64() for _ in range(20)]
    plain, drawn = Stream(3, 9, 2), DrawnAhead(Stream(3, 9, 2).key, ahead)
    assert isinstance(drawn, Stream)
    calls: list[tuple[str, tuple[Any, ...]]] = [
        ("randrange", (5,)),
        ("below", (2**63 + 1,)),  # rejects about half: the loop runs in the numbers ahead
        ("below", (2**63 + 1,)),
        ("randrange", (3, 9)),
        ("randint", (1, 6)),
        ("choice", ("abcdef",)),
        ("random", ()),
        ("next_u64", ()),
        ("below", (1,)),
    ] * 4
    for name, args in calls:
        assert getattr(drawn, name)(*args) == getattr(plain, name)(*args), name
        assert drawn.counter == plain.counter
    assert plain.counter > len(ahead)  # the last calls were past the numbers ahead
    for n in (5, 40):  # shuffles draw through the counter, by number or at once
        a, b = list(range(n)), list(range(n))
        drawn.shuffle(a)
        plain.shuffle(b)
        assert a == b and drawn.counter == plain.counter
    again = DrawnAhead(Stream(3, 9, 2).key, ahead)
    copied = again.copy()
    assert [again.below(7) for _ in range(30)] == [copied.below(7) for _ in range(30)]
    moved = DrawnAhead(Stream(3, 9, 2).key, ahead)
    moved.key = Stream(4, 4, 4).key  # a plugin rekeying its rng: numbers of the new key
    rekeyed = Stream(4, 4, 4)
    assert [moved.below(10) for _ in range(9)] == [rekeyed.below(10) for _ in range(9)]
    with pytest.raises(ValueError):
        drawn.below(0)
