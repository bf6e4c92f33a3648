"""`expect:` targets and `balancer check`: verdicts on hand-made games, error rates,
exit codes on real runs, and bad targets as one line naming file, line and key."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from balancer.analysis import expect
from balancer.analysis.plays import Games, Job, play
from balancer.cli import main
from balancer.config.variant import load
from balancer.sim.runner import CHECK_ENV
from tests.helpers import VARIANTS, one_error_line, write_file


@pytest.fixture(autouse=True)
def compiled_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite forces --check (step by step); these runs play compiled.
    monkeypatch.delenv(CHECK_ENV, raising=False)


def fdc3(tmp_path: Path, targets: str, name: str = "v.yaml", extra: str = "") -> Path:
    """fdc, 3 random bots, 300 games, with these expect: lines (indented by the caller)."""
    return write_file(
        tmp_path,
        f"extends: {VARIANTS / 'fdc-3p.yaml'}\nbots: random\ngames: 300\n{extra}expect:\n{targets}",
        name,
    )


def games_of(wins: np.ndarray, lengths: np.ndarray | None = None) -> Games:
    n, players = wins.shape
    return Games(
        0,
        wins.copy(),
        wins.copy(),
        np.full((n, players), "random"),
        np.full(n, 20.0) if lengths is None else lengths,
        {"neko_ni_koban": np.zeros(n)},
    )


def targets_of(tmp_path: Path, text: str) -> list[expect.Target]:
    return expect.load_targets(load(fdc3(tmp_path, text)))


# --- verdicts from intervals worked out by hand ----------------------------------------


@pytest.mark.parametrize(
    ("interval", "limits", "verdict"),
    [
        ((0.18, 0.22), (0.17, 0.23), "pass"),  # inside: equivalent
        ((0.16, 0.22), (0.17, 0.23), "undecided"),  # straddles the low end
        ((0.24, 0.30), (0.17, 0.23), "fail"),  # wholly above
        ((0.51, 0.60), (0.5, np.inf), "pass"),  # at least 0.5
        ((0.45, 0.49), (0.5, np.inf), "fail"),
        ((0.45, 0.55), (-np.inf, 0.5), "undecided"),
        ((0.0, 0.07), (0.0, 0.5), "pass"),  # a share never seen, held to [0, 0.5]
    ],
)
def test_member_verdict(interval: tuple, limits: tuple, verdict: str) -> None:
    assert expect.member_verdict(*interval, limits) == verdict


def test_three_way_ties_make_every_seat_exactly_a_third(tmp_path: Path) -> None:
    # Every game a 3-way tie: each seat's share is 1/3 in every game, no noise at all.
    games = games_of(np.full((50, 3), 1 / 3))
    inside, outside, spread = targets_of(
        tmp_path,
        "  seat_win_share: {within: [0.3, 0.4]}\n"
        "  seat_win_share.1: {within: [0.4, 0.5]}\n"
        "  seat_win_share.spread: {at_most: 0.01}\n",
    )
    assert expect.evaluate(inside, games).verdict == "pass"
    assert expect.evaluate(outside, games).verdict == "fail"
    assert expect.evaluate(spread, games).verdict == "pass"


def test_one_seat_out_of_range_fails_the_family(tmp_path: Path) -> None:
    # Seat 0 wins every game: seat 0 at 1, seats 1 and 2 at 0.
    wins = np.zeros((40, 3))
    wins[:, 0] = 1
    (target,) = targets_of(tmp_path, "  seat_win_share: {within: [0.0, 0.5]}\n")
    outcome = expect.evaluate(target, games_of(wins))
    assert outcome.verdict == "fail"
    assert [m[4] for m in outcome.members] == ["fail", "pass", "pass"]
    (spread,) = targets_of(tmp_path, "  seat_win_share.spread: {below: 0.5}\n")
    assert expect.evaluate(spread, games_of(wins)).verdict == "fail"


def test_figure_against_figure_is_the_paired_difference(tmp_path: Path) -> None:
    # Seat 0 wins 3 games of 4, seat 1 the fourth: seat 0 − seat 1 = 0.5 per game on average.
    wins = np.tile(np.array([[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0]], float), (100, 1))
    (above,) = targets_of(tmp_path, "  seat_win_share.0: {above: seat_win_share.1}\n")
    (below,) = targets_of(tmp_path, "  seat_win_share.0: {below: seat_win_share.1}\n")
    outcome = expect.evaluate(above, games_of(wins))
    assert outcome.estimate == pytest.approx(0.5) and outcome.verdict == "pass"
    assert expect.evaluate(below, games_of(wins)).verdict == "fail"


def test_a_few_games_leave_a_close_target_undecided(tmp_path: Path) -> None:
    # Seat 0 wins every other game: 0.5 exactly, but 20 games can't tell it from 0.45.
    wins = np.zeros((20, 3))
    wins[::2, 0] = 1
    wins[1::2, 1] = 1
    (target,) = targets_of(tmp_path, "  seat_win_share.0: {within: [0.45, 0.55]}\n")
    assert expect.evaluate(target, games_of(wins)).verdict == "undecided"
    many = np.tile(wins, (400, 1))  # 8000 games: the 90% interval is about ±0.009
    assert expect.evaluate(target, games_of(many)).verdict == "pass"


# --- error rates ------------------------------------------------------------------------


def coin_games(rng: np.random.Generator, n: int, p: float) -> Games:
    seat0 = (rng.random(n) < p).astype(float)
    wins = np.column_stack([seat0, 1 - seat0, np.zeros(n)])
    return games_of(wins)


def test_a_target_that_just_fails_passes_at_most_alpha_of_the_time(tmp_path: Path) -> None:
    # Truth: seat 0 wins half its games; "at least 0.5" and "within [0.5, 0.6]" are
    # both false (on the boundary), so each may pass in at most α = 5% of repeats.
    at_least, within = targets_of(
        tmp_path,
        "  seat_win_share.0: {at_least: 0.5}\n  seat_win_share.1: {within: [0.5, 0.6]}\n",
    )
    rng = np.random.default_rng(15)
    repeats = 400
    passed = [0, 0]
    for _ in range(repeats):
        games = coin_games(rng, 300, 0.5)
        passed[0] += expect.evaluate(at_least, games).verdict == "pass"
        passed[1] += expect.evaluate(within, games).verdict == "pass"
    # 5% of 400 is 20 (sd 4.4): 36 would be 3.6 sd above.
    assert passed[0] <= 36 and passed[1] <= 36
    # And the test has power: at a true 0.58 it passes nearly always.
    strong = sum(
        expect.evaluate(at_least, coin_games(rng, 2000, 0.58)).verdict == "pass" for _ in range(50)
    )
    assert strong >= 48


def test_stopping_when_decided_keeps_the_error_rate(tmp_path: Path) -> None:
    # Looking every 50 games and stopping at the first "pass" would pass a false
    # target far more than 5% of the time with fixed-n intervals; the confidence
    # sequence keeps it at most α.
    (target,) = targets_of(tmp_path, "  seat_win_share.0: {at_least: 0.5}\n")
    rng = np.random.default_rng(7)
    false_passes = naive_passes = 0
    repeats = 120
    for _ in range(repeats):
        watch = expect.Sequential([target], grid=201)  # coarser: bounds round outwards
        naive = False
        seen: list[Games] = []
        for _look in range(20):
            chunk = coin_games(rng, 50, 0.5)
            watch.update(chunk)
            seen.append(chunk)
            so_far = games_of(np.vstack([g.wins for g in seen]))
            naive = naive or expect.evaluate(target, so_far).verdict == "pass"
            if watch.decided():
                break
        false_passes += watch.outcomes()[0].verdict == "pass"
        naive_passes += naive
    assert false_passes <= 0.09 * repeats
    assert naive_passes > false_passes  # the peeking fixed-n test is the one that errs


# --- the command: exit codes on real runs -----------------------------------------------


def test_fdc_3p_lasts_exactly_20_tricks_pass_and_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RULES.md: with the 60-card deck the game lasts exactly 60/P tricks.
    ok = fdc3(tmp_path, "  length.mean: {within: [19.5, 20.5]}\n", "ok.yaml")
    assert main(["check", str(ok), "-q", "-w", "1"]) == 0
    assert "pass      length.mean within [19.5, 20.5]: 20 [20, 20]" in capsys.readouterr().out
    bad = fdc3(tmp_path, "  length.mean: {at_least: 21}\n", "bad.yaml")
    assert main(["check", str(bad), "-q", "-w", "1"]) == 3
    assert "fail      length.mean" in capsys.readouterr().out


def neko_rate(path: Path) -> float:
    variant = load(path)
    (games,) = play([Job(variant, 0, variant.games)])
    return float(games.events["neko_ni_koban"].mean())


def test_undecided_exits_4_and_fail_wins_over_undecided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    probe = fdc3(tmp_path, "  length.mean: {within: [19, 21]}\n", "probe.yaml")
    rate = neko_rate(probe)
    assert rate > 0
    # The bound is the estimate itself: its interval straddles it, so it can't be told.
    close = fdc3(tmp_path, f"  events.neko_ni_koban.per_game: {{at_least: {rate!r}}}\n", "u.yaml")
    assert main(["check", str(close), "-q", "-w", "1"]) == 4
    assert "undecided events.neko_ni_koban.per_game" in capsys.readouterr().out
    bad = fdc3(tmp_path, "  length.mean: {at_most: 19}\n", "bad.yaml")
    assert main(["check", str(close), str(bad), "-q", "-w", "1", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    verdicts = [t["verdict"] for v in data["variants"] for t in v["targets"]]
    assert verdicts == ["undecided", "fail"] and data["exit_code"] == 3


def test_until_decided_stops_at_the_first_look_when_it_can(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = fdc3(
        tmp_path,
        "  length.mean: {within: [19, 21]}\n  bots.random.win_share: {within: [0.3, 0.4]}\n",
        extra="",
    )
    # Three random bots hold every seat: their share per seat-game is exactly 1/3.
    code = main(["check", str(path), "-q", "-w", "1", "-n", "5000", "--until-decided", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variants"][0]["games"] == 200  # one look (LOOK_EVERY games) decided both


def test_until_decided_plays_every_game_of_an_undecidable_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    probe = fdc3(tmp_path, "  length.mean: {within: [19, 21]}\n", "probe.yaml")
    rate = neko_rate(probe)
    close = fdc3(tmp_path, f"  events.neko_ni_koban.per_game: {{at_least: {rate!r}}}\n", "u.yaml")
    code = main(["check", str(close), "-q", "-w", "1", "--until-decided", "--json"])
    assert code == 4
    assert json.loads(capsys.readouterr().out)["variants"][0]["games"] == 300


# --- bad targets: one line, file, line and key, exit 2 --------------------------------


@pytest.mark.parametrize(
    ("lines", "line", "key", "words"),
    [
        (
            "  events.neko.per_game: {at_least: 0.5}\n",
            5,
            "expect.events.neko.per_game",
            "did you mean",
        ),
        ("  length.mean: {within: [14, 10]}\n", 5, "expect.length.mean.within", "low < high"),
        ("  length.mean:\n    within: 12\n", 6, "expect.length.mean.within", "[low, high]"),
        ("  length.mean: {at_least: 1, at_most: 3}\n", 5, "expect.length.mean", "exactly one"),
        ("  length.mean: {around: 12}\n", 5, "expect.length.mean.around", "unknown bound"),
        ("  length.mean: {at_least: 1, alpha: 2}\n", 5, "expect.length.mean.alpha", "alpha"),
        (
            "  bots.heuristic.win_share: {above: 0.2}\n",
            5,
            "expect.bots.heuristic",
            "unknown figure",
        ),
        (
            "  seat_win_share.spread: {at_least: 0.1}\n",
            5,
            "expect.seat_win_share.spread",
            "at_most",
        ),
        (
            "  seat_win_share: {above: length.mean}\n",
            5,
            "expect.seat_win_share.above",
            "one number",
        ),
    ],
)
def test_bad_targets_are_one_line_naming_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: str, line: int, key: str, words: str
) -> None:
    path = fdc3(tmp_path, lines)
    assert main(["check", str(path), "-q"]) == 2
    error = one_error_line(capsys)
    assert f"{path}:{line}: {key}" in error and words in error


def test_a_child_target_replaces_its_parents_and_no_targets_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parent = fdc3(
        tmp_path, "  length.mean: {at_least: 30}\n  margin.mean: {at_least: 0}\n", "p.yaml"
    )
    child = write_file(
        tmp_path, "extends: p.yaml\nexpect:\n  length.mean: {at_most: 30}\n", "c.yaml"
    )
    targets = expect.load_targets(load(child))
    assert [(t.figure.name, t.kind) for t in targets] == [
        ("length.mean", "at_most"),
        ("margin.mean", "at_least"),
    ]
    assert parent.exists()
    assert main(["check", str(VARIANTS / "fdc-3p.yaml"), "-q"]) == 2
    assert "has no expect: targets" in one_error_line(capsys)


def test_alpha_of_the_block_of_a_target_and_of_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seat 0 wins 55 games of 100: its 90% interval [0.47, 0.63] clears 0.45, but
    # the 99.8% one (α = 0.001) reaches below it.
    wins = np.zeros((100, 3))
    wins[:55, 0] = 1
    wins[55:, 1] = 1
    loose, strict = targets_of(
        tmp_path,
        "  seat_win_share.0: {at_least: 0.45}\n  seat_win_share.1: {at_most: 0.55, alpha: 0.001}\n",
    )
    assert loose.alpha == 0.05 and strict.alpha == 0.001
    assert expect.evaluate(loose, games_of(wins)).verdict == "pass"
    assert expect.evaluate(strict, games_of(wins)).verdict == "undecided"
    block = fdc3(tmp_path, "  alpha: 0.01\n  length.mean: {at_least: 1}\n", "b.yaml")
    assert [t.alpha for t in expect.load_targets(load(block))] == [0.01]
    assert [t.alpha for t in expect.load_targets(load(block), 0.2)] == [0.2]
    assert main(["check", str(block), "--alpha", "0.7", "-q"]) == 2
    assert "--alpha" in one_error_line(capsys)


def test_validate_reports_every_bad_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = fdc3(
        tmp_path,
        "  alpha: 3\n  length.mean: {within: [14, 10]}\n  margin.mean: {at_least: 0}\n"
        "  events.neko.per_game: {at_least: 0.5}\n",
    )
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.split(": ")[2] for line in err] == [
        f"{path}:5",
        f"{path}:6",
        f"{path}:8",
    ]
    good = fdc3(tmp_path, "  margin.mean: {at_least: 0}\n", "good.yaml")
    assert main(["validate", str(good)]) == 0


_numbers = st.floats(-10, 10, allow_nan=False)


@given(a=_numbers, b=_numbers, c=_numbers, d=_numbers)
def test_verdicts_are_exclusive_and_narrowing_never_loses_a_pass(
    a: float, b: float, c: float, d: float
) -> None:
    low, high = sorted((a, b))
    lower, upper = sorted((c, d))
    verdict = expect.member_verdict(low, high, (lower, upper))
    inside = lower <= low and high <= upper
    outside = high < lower or low > upper
    assert verdict == ("pass" if inside else "fail" if outside else "undecided")
    # A narrower interval (more games) keeps a pass a pass and a fail a fail.
    mid = (low + high) / 2
    narrower = expect.member_verdict((low + mid) / 2, (high + mid) / 2, (lower, upper))
    if verdict != "undecided":
        assert narrower == verdict


def test_a_family_shows_its_least_clear_seat(tmp_path: Path) -> None:
    # Per 20 games seat 0 wins 8, seat 1 7, seat 2 5: shares 0.40, 0.35, 0.25, all
    # inside [0.2, 0.5]; seat 2 is nearest an end, so its interval is the one shown.
    block = np.zeros((20, 3))
    block[:8, 0] = 1
    block[8:15, 1] = 1
    block[15:, 2] = 1
    (target,) = targets_of(tmp_path, "  seat_win_share: {within: [0.2, 0.5]}\n")
    outcome = expect.evaluate(target, games_of(np.tile(block, (100, 1))))
    assert outcome.verdict == "pass" and outcome.decisive == "seat 2"
    assert outcome.estimate == pytest.approx(0.25)
    assert outcome.line().startswith("pass      seat_win_share within [0.2, 0.5]: 0.25 [")
    assert "(seat 2), 2000 games" in outcome.line()
