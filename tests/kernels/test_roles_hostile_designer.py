"""Issue 38's mechanics as a hostile designer writes them, read from docs/new-game.md alone.

Ten small game files of our own (tests/data/hostile38/), each using one or two of the new
mechanics at their edges: `draw` (0, 1, 10^9 cards, a target's, the pile running out),
`discard` (chosen and at random, from a hand and a zone, more than there is, a rival's),
every `if:` form on every seat `of:` may name (and a false one inside a `choose`), amounts
at their largest, a deck of card groups, `rank` ties, secret goals and `clear`, targets
`bottom:` and `all`, `end` after N tricks or at a global, and the smallest game.

Each hand-laid table (`Laid`) is worked out by hand in its comment from the guide's words;
the Python interpreter and the compiled kernel are each held to those sums, and to each
other position by position. Each file plays game for game on both paths; `validate`
refuses one mistake past each edge in one line naming the file, line and key; and every
good file runs, replays in Japanese and writes its CSVs with every bot a role game offers
(`random`, `lookahead`, `search`) and a plugin bot seated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer.cli import main
from balancer.games.roles import kernel as K
from balancer.games.roles.deck import cards_for
from balancer.games.roles.engine import State
from balancer.rng import CHANCE
from balancer.sim import runner
from tests.helpers import one_error_line
from tests.kernels.hostile_designer_tables import DATA, LAID, Laid, game_of, load_file
from tests.kernels.test_roles_kernel import assert_same_games, rules_of, stepped_alike

FILES = (
    "draw",
    "discard",
    "conditions",
    "amounts",
    "groups",
    "rank",
    "goals",
    "targets",
    "ends",
    "smallest",
)


def engine_sees(state: State) -> dict[str, Any]:
    """The Python interpreter's table by the snapshot's names, read from its own fields."""
    return {
        "hands": [list(h) for h in state.hands],
        "hand_sizes": [len(h) for h in state.hands],
        "pile": list(reversed(state.pile)),
        "zones": {k: [list(z) for z in v] for k, v in state.zones.items()},
        "counters": {k: list(v) for k, v in state.counters.items()},
        "flags": {k: [int(f) for f in v] for k, v in state.flags.items()},
        "globals": dict(state.globals),
        "tricks": state.tricks,
    }


def kernel_sees(seen: dict[str, Any]) -> dict[str, Any]:
    hand_sizes = [len(h) for h in seen["hands"]]
    return {**seen, "pile": list(reversed(seen["pile"])), "hand_sizes": hand_sizes}


def assert_holds(seen: dict[str, Any], after: dict[str, Any]) -> None:
    for key, want in after.items():
        if isinstance(want, dict):
            for name, value in want.items():
                assert seen[key][name] == value, (key, name)
        else:
            assert seen[key] == want, key


def played_on_the_engine(laid: Laid) -> State:
    state = laid.state()
    for index, move in enumerate(laid.moves):
        legal = state.legal_actions()
        if index in laid.asked:
            assert tuple(legal) == laid.asked[index]
        assert move in legal, (index, move, legal)
        state.apply_action(move)
        state.check_invariants()
    return state


@pytest.mark.parametrize("name", list(LAID))
def test_the_interpreter_leaves_the_hand_sums(name: str) -> None:
    laid = LAID[name]
    state = played_on_the_engine(laid)
    assert_holds(engine_sees(state), laid.after)
    assert state.is_terminal() == (laid.scores is not None)
    if laid.scores is not None:
        record = state.record()
        assert record.scores == laid.scores
        assert record.events == laid.all_events()


@pytest.mark.parametrize("name", list(LAID))
def test_the_kernel_leaves_the_hand_sums(name: str) -> None:
    laid = LAID[name]
    game, state = game_of(laid.file), laid.state()
    arrays, tables = K.from_state(state)
    streams = K.new_streams(state.players)
    streams[CHANCE] = state.chance.key, state.chance.counter
    buffer = K.new_legal(arrays, tables)
    for index, move in enumerate(laid.moves):
        legal = buffer[: K.legal(arrays, tables, buffer)].tolist()
        if index in laid.asked:
            assert tuple(legal) == laid.asked[index]
        assert move in legal, (index, move, legal)
        K.apply(arrays, tables, streams, move)
    seen = K.snapshot(arrays, tables, game)
    assert_holds(kernel_sees(seen), laid.after)
    assert (seen["phase"] == K.OVER) == (laid.scores is not None)
    if laid.scores is not None:
        record = K.record(arrays, tables, game)
        assert record.scores == laid.scores
        assert record.events == laid.all_events()


@pytest.mark.parametrize("name", list(LAID))
def test_both_paths_step_alike(name: str) -> None:
    stepped_alike(LAID[name].state(), list(LAID[name].moves))


def test_the_groups_deck_is_numbered_as_the_guide_says() -> None:
    """groups.yaml's header, from the guide's order; red stop 2 one kind of three
    copies (cards 3, 8 and 9), so a hand holding two of them has one move for both."""
    cards = cards_for(rules_of(game_of("groups")))
    told = [cards.describe(i) for i in range(cards.size)]
    assert told == [
        "red go 1",
        "red go 2",
        "red stop 1",
        "red stop 2",
        "blue go 1",
        "blue go 2",
        "blue stop 1",
        "blue stop 2",
        "red stop 2",
        "red stop 2",
        "blue jump 5",
    ]
    assert cards.kinds == 9 and cards.copies == 3
    assert cards.kind[3] == cards.kind[8] == cards.kind[9]
    state = Laid("groups", hands=((3, 8, 0), (9, 1, 4)), moves=()).state()
    legal = state.legal_actions()
    assert sorted(cards.describe(m) for m in legal) == ["red go 1", "red stop 2"]
    stepped_alike(Laid("groups", hands=((3, 8, 0), (9, 1, 4)), moves=()).state(), [legal[0]])


# --- game for game: every file, random in every seat, both paths -------------------


@pytest.mark.parametrize("name", FILES)
def test_each_file_game_for_game(name: str) -> None:
    game = game_of(name)
    for players in sorted({game.min_players, game.max_players}):
        assert_same_games(game, rules_of(game), players, 38, 0, 40)


def test_each_file_exercises_its_events() -> None:
    """The control of the game-for-game test: every event of every file is counted in
    those games (its step acted), so the comparison covers each mechanic."""
    for name in FILES:
        game = game_of(name)
        players = game.min_players
        cols = K.play_chunk(
            game, rules_of(game), players, 38, 0, 40, [("random", {})] * players, False
        )
        totals = cols.events.sum(axis=0).tolist()
        assert all(t > 0 for t in totals), (name, totals)


# --- validate: one mistake past each edge, one line naming the file, line and key -----

# (file, text replaced, its replacement, "LINE: KEY:" the line names)
PAST_THE_EDGE = [
    (
        "draw",
        "count: 0, event",
        "count: number * 1000000001, event",
        "13: roles.none[0].draw.count:",
    ),
    ("draw", "count: 1, event", "count: 1, from: bag, event", "14: roles.one[0].draw.from:"),
    ("discard", "{event: dumps}", "{count: 2, event: dumps}", "12: roles.dump[0].discard:"),
    ("discard", "{event: dumps}", "{target: rival, event: dumps}", "12: roles.dump[0].discard:"),
    (
        "discard",
        "{from: bag, event: tosses}",
        "{from: box, event: tosses}",
        "13: roles.toss[0].discard.from:",
    ),
    ("conditions", "of: next}", "of: rival}", "20: roles.nxt[0].add.if.of:"),
    ("conditions", "of: next}", "of: all_rivals}", "20: roles.nxt[0].add.if.of:"),
    ("conditions", "of: next}", "of: all}", "20: roles.nxt[0].add.if.of:"),
    (
        "conditions",
        "{flag: shield, of: next}",
        "{flag: shield, counter: pos, at_least: 1}",
        "20: roles.nxt[0].add.if:",
    ),
    ("conditions", "{flag: shield, of: next}", "{counter: pos}", "20: roles.nxt[0].add.if:"),
    ("conditions", "{flag: shield, of: next}", "{zone: bag}", "20: roles.nxt[0].add.if:"),
    (
        "conditions",
        "at_least: low, at_most",
        "at_least: lo, at_most",
        "19: roles.mine[0].add.if.at_least:",
    ),
    (
        "amounts",
        "range: [-1000000000, 1000000000]",
        "range: [-1000000000, 1000000001]",
        "16: knobs.k.range:",
    ),
    ("amounts", "by: number * 2,", "by: number * 1000000001,", "20: roles.twice[0].add.by:"),
    ("amounts", "by: number * 2,", "by: number * -1000000001,", "20: roles.twice[0].add.by:"),
    ("amounts", "[999999999, 1000000000]", "[999999999, 1000000001]", "8: deck.numbers:"),
    ("amounts", "by: -number,", "by: -number * -number,", "21: roles.back[0].add.by:"),
    ("amounts", "{counter: pos}", "{counter: pos, of: next}", "22: roles.copy[0].add.by:"),
    ("amounts", "min: -1000000000, max", "min: -1000000001, max", "13: counters.pos.min:"),
    # A counter's range past the limit, the score reading it: named at the counter (the
    # score's 64-bit check once met an undeclared counter and crashed).
    (
        "amounts",
        "min: -1000000000, max",
        "min: -10000000000000000000, max",
        "13: counters.pos.min: must be in -1000000000..1000000000, got a negative number of"
        " about 20 digits",
    ),
    ("groups", "  - {colours: [blue], roles: [jump], numbers: [5, 5]}", "  - {}", "14: deck[2]:"),
    ("groups", "roles: [jump], numbers", "roles: [], numbers", "14: deck[2].roles:"),
    ("groups", "roles: [jump], numbers", "roles: [jump, jump], numbers", "14: deck[2].roles[1]:"),
    ("groups", "numbers: [5, 5]}", "numbers: [5, 4]}", "14: deck[2].numbers:"),
    ("groups", "numbers: [5, 5]}", "numbers: [5, 5], copies: 0}", "14: deck[2].copies:"),
    ("groups", "roles: [jump], numbers", "roles: [leap], numbers", "14: deck[2].roles[0]:"),
    ("groups", "  - {colours: [blue], roles: [jump], numbers: [5, 5]}\n", "", "20: roles.jump:"),
    ("groups", "numbers: [5, 5]}", "numbers: [1, 9991]}", "11: deck:"),
    ("groups", "hand_size: 3", "hand_size: 4", "15: hand_size:"),
    ("rank", "points: [10, 20], order", "points: [], order", "19: score[1].rank.points:"),
    ("rank", "order: lowest", "order: middle", "19: score[1].rank.order:"),
    ("rank", "[first, 3, 1, -fine]", "[first, 3, 1, 1000000001]", "18: score[0].rank.points[3]:"),
    # The goals' deal refused: one line, not a second blaming the vault they score.
    ("goals", "  deal: 1", "  deal: 0", "21: goals.deal:"),
    ("goals", "  deal: 1", "  deal: 2", "21: goals.deal:"),
    # An empty goal: one line at the card, not a second at the deal it leaves short.
    (
        "goals",
        "champion: [{rank: {counter: coins, points: [10]}}]",
        "champion: []",
        "25: goals.cards.champion: an empty goal",
    ),
    (
        "goals",
        "champion: [{rank",
        "champion: [{goals: true}, {rank",
        "25: goals.cards.champion[0].goals:",
    ),
    ("goals", "target: all, event", "target: al, event", "18: roles.wipe[0].clear.target:"),
    ("targets", "{bottom: pos}", "{bottom: height}", "14: roles.tow[0].add.target.bottom:"),
    ("ends", "{tricks: span}", "{tricks: spam}", "24: end[1].tricks:"),
    # An end after 0 tricks is reached at the first trick's end: every game one trick.
    ("ends", "{tricks: span}", "{tricks: 0}", "24: end[1].tricks: expected at least 1 trick"),
    (
        "ends",
        "span: {default: 3, range: [1, 100]",
        "span: {default: 3, range: [0, 100]",
        "24: end[1].tricks: expected at least 1 trick, got 0 (the lowest of knob 'span'",
    ),
    ("ends", "reaches: alarm}", "reaches: alarum}", "23: end[0].reaches:"),
    (
        "ends",
        "default: 5, range: [1, 100]",
        "default: 500, range: [1, 1000]",
        "23: end[0].reaches:",
    ),
    ("smallest", "numbers: [1, 2]", "numbers: [1, 1]", "7: hand_size:"),
    ("smallest", "players: [2, 2]", "players: [1, 2]", "5: players[0]:"),
]


@pytest.mark.parametrize("name", FILES)
def test_each_good_file_validates(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert main(["validate", str(DATA / f"{name}.yaml")]) == 0
    assert capsys.readouterr().err == ""


def test_a_deck_of_exactly_the_most_cards_validates(tmp_path: Path) -> None:
    """The control of the 10,001-card deck below: 10 + 9,990 = 10,000 cards pass."""
    text = (DATA / "groups.yaml").read_text(encoding="utf-8")
    path = tmp_path / "groups.yaml"
    path.write_text(text.replace("numbers: [5, 5]}", "numbers: [1, 9990]}"), encoding="utf-8")
    assert main(["validate", str(path)]) == 0


@pytest.mark.parametrize(("options", "code"), [(62, 0), (63, 2)])
def test_a_choose_offers_at_most_62_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: int, code: int
) -> None:
    """The compiled kernel keeps a bit per option for their `if:`s: 62 options pass (the
    control), 63 are refused in one line at the choose."""
    text = (DATA / "conditions.yaml").read_text(encoding="utf-8")
    option = "        - add: {counter: pos, by: 64, if: {flag: shield, of: self}, event: picks}\n"
    assert text.count(option) == 1
    path = tmp_path / "conditions.yaml"
    path.write_text(text.replace(option, option * (options - 1)), encoding="utf-8")
    assert main(["validate", str(path)]) == code
    if code:
        assert f"{path}:27: roles.pick[0].choose: at most 62 options, got 63" in one_error_line(
            capsys
        )


def test_a_choose_of_62_options_plays_game_for_game(tmp_path: Path) -> None:
    """The most options: the kernel's bit for the last (bit 61, `bag` holding one card)
    is read as the engine reads its `if:`, game for game."""
    text = (DATA / "conditions.yaml").read_text(encoding="utf-8")
    option = "        - add: {counter: pos, by: 64, if: {flag: shield, of: self}, event: picks}\n"
    path = tmp_path / "conditions.yaml"
    path.write_text(text.replace(option, option * 61), encoding="utf-8")
    game = load_file(path)
    (pick,) = game.roles["pick"].resolve
    assert len(pick.options) == 62 and pick.options[61].params["by"] == ("int", 128)
    for players in (2, 3):
        assert_same_games(game, rules_of(game), players, 38, 0, 60)


@pytest.mark.parametrize(
    ("name", "old", "new", "names"), PAST_THE_EDGE, ids=[f"{c[0]}:{c[3]}" for c in PAST_THE_EDGE]
)
def test_validate_refuses_past_each_edge_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, old: str, new: str, names: str
) -> None:
    text = (DATA / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.count(old) >= 1
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = path.read_bytes()
    assert main(["validate", str(path)]) == 2
    assert f"{path}:{names}" in one_error_line(capsys)
    assert path.read_bytes() == before  # the user's file untouched


# --- run, replay in Japanese, csv: every bot a role game offers, and a plugin -----------

# Two seats each run (every file plays at 2): a compiled pair, and a pair played step
# by step (the search bot steps; the plugin is hosted in a process of its own).
BOT_PAIRS = (("lookahead", "random"), ("search", "tests.plugins:FirstLegal"))


@pytest.mark.parametrize("name", FILES)
def test_each_file_runs_replays_in_japanese_and_writes_csvs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv(runner.CHECK_ENV, "0")  # each pair on its own path, as a user's run
    for first, second in BOT_PAIRS:
        variant = tmp_path / f"{name}-{first}.yaml"
        variant.write_text(
            f"game: {DATA / name}.yaml\nplayers: 2\ngames: 2\nseed: 38\n"
            f"seats: [{{bot: {first}}}, {{bot: '{second}'}}]\n",
            encoding="utf-8",
        )
        report = tmp_path / f"report-{first}"
        assert main(["run", "-q", str(variant), "-o", str(report)]) == 0
        assert "Traceback" not in capsys.readouterr().err
        assert main(["replay", str(report), "-g", "1", "--lang", "ja", "--allow-plugins"]) == 0
        told = capsys.readouterr()
        assert "Traceback" not in told.err
        assert "トリック 1: 席 0 がリード" in told.out
        # Every line in Japanese: the engine's words too (the length's unit was English).
        for english in ("Trick", "seat", "trick", "draws a", "discards", "does nothing"):
            assert english not in told.out, (english, told.out)
        assert main(["csv", str(report)]) == 0
        assert (report / "scores.csv").read_text(encoding="utf-8").count("\n") >= 2


def test_a_seats_replay_keeps_the_rivals_goals_secret_until_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 1's replay names seat 0's goals only in the end's tally (with what they
    scored); the control, the whole replay, names them at the deal too."""
    variant = tmp_path / "goals.yaml"
    variant.write_text(f"game: {DATA / 'goals'}.yaml\nplayers: 2\nbots: random\n", encoding="utf-8")
    told = {}
    for seat in ([], ["--seat", "1"]):
        assert main(["replay", str(variant), "-g", "1", *seat]) == 0
        lines = capsys.readouterr().out.splitlines()
        told[bool(seat)] = [line for line in lines if "seat 0's secret goals" in line]
    assert [("(+" in line) for line in told[False]] == [False, True]
    assert [("(+" in line) for line in told[True]] == [True]


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("bots: heuristic", "4: bots: unknown bot 'heuristic' for h38-draw"),  # not fdc's roles
        ("seats: [{bot: random}, {bot: greedy}]", "4: seats[1]: unknown bot 'greedy' for h38-draw"),
        ("players: 4\nbots: random", "3: players: must be between 2 and 3, got 4"),
    ],
)
def test_a_variant_past_its_files_edges_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, names: str
) -> None:
    """A bot the file's game does not offer, or more players than it takes: `validate`
    and `run` each say so in one line, and `run` writes no report."""
    variant = tmp_path / "v.yaml"
    players = "" if "players" in line else "players: 2\n"
    variant.write_text(f"game: {DATA / 'draw'}.yaml\n{players}games: 2\n{line}\n", encoding="utf-8")
    assert main(["validate", str(variant)]) == 2
    assert f"{variant}:{names}" in one_error_line(capsys)
    assert main(["run", "-q", str(variant), "-o", str(tmp_path / "report")]) == 2
    assert f"{variant}:{names}" in one_error_line(capsys)
    assert not (tmp_path / "report").exists()
