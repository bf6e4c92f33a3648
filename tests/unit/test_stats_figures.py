"""The entry points: one run's figures and a diff's rows, on hand-made runs."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from balancer.stats.compare import parse_tolerances
from balancer.stats.figures import RunData, diff_rows, figures_for_run, match_bots


def _run(first_bot: str, games: int = 200, seed: int = 0) -> RunData:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 3, size=(games, 3)).astype(float)
    best = scores == scores.max(axis=1, keepdims=True)
    wins = best / best.sum(axis=1, keepdims=True)
    labels = np.array([[first_bot, "random", "random"]] * games)
    fired = (rng.random(games) < 0.3) * 1.0
    return RunData(
        scores,
        wins,
        labels,
        np.full(games, 8.0),
        {"steal": fired, "chain": rng.poisson(1, games) * 1.0},
    )


def test_match_bots_by_name_whatever_the_parameters() -> None:
    pairs, lone_a, lone_b = match_bots(["cautious", "random"], ["cautious(rank=1)", "random"])
    assert pairs == [("cautious", "cautious", "cautious(rank=1)"), ("random", "random", "random")]
    assert lone_a == lone_b == []
    # The same bot twice with different parameters: matched label for label.
    pairs, lone_a, lone_b = match_bots(["c(x=1)", "c(x=2)"], ["c(x=1)", "c(x=3)"])
    assert pairs == [("c(x=1)", "c(x=1)", "c(x=1)")]
    assert lone_a == ["c(x=2)"] and lone_b == ["c(x=3)"]


def test_figures_for_run_is_json_safe_and_confounded() -> None:
    figures = figures_for_run(_run("cautious"))
    document = figures.to_json()
    json.dumps(document, allow_nan=False)
    assert document["seat_advantage"]["p_value"] is None
    assert "confounded" in document["seat_advantage"]["note"]
    assert set(document["bots"]) == {"cautious", "random"}
    assert document["bots"]["random"]["seat_games"] == 400
    assert "share_of_games_ci95" in document["events"]["steal"]
    low, high = document["length"]["ci95"]
    assert low == high == 8.0


def test_diff_rows_keep_a_bot_whose_parameters_changed() -> None:
    a, b = _run("cautious", seed=1), _run("cautious(rank=1)", seed=2)
    result = diff_rows(a, b, paired=False, tolerances=parse_tolerances(None))
    names = [row.figure for row in result.rows]
    assert "bots.cautious.win_share" in names
    row = result.rows[names.index("bots.cautious.win_share")]
    assert row.note == "parameters: A cautious, B cautious(rank=1)"
    document = result.to_json()
    json.dumps(document, allow_nan=False)
    assert set(document) >= {"changed", "stopped_at", "rows"}
    assert all(r["verdict"] in ("changed", "equivalent", "") for r in document["rows"])
    # Length is 8 in every game of both runs: out of the family.
    length = result.rows[names.index("length.mean")]
    assert not length.in_family and length.verdict == ""


def test_paired_diff_of_a_run_with_itself_is_all_unchanged() -> None:
    a = _run("cautious")
    result = diff_rows(a, a, paired=True, tolerances=parse_tolerances(None))
    assert not result.changed and result.family_size == 0
    with pytest.raises(ValueError):
        diff_rows(a, _run("cautious", games=100), paired=True)


def test_an_event_of_one_run_only_is_named_with_its_run() -> None:
    # A counts "steal" and "chain", B "chain" and "bluff": only "chain" is compared, and
    # each lone event is named with the run that has it.
    a, b = _run("cautious", seed=1), _run("cautious", seed=2)
    b = replace(b, events={"chain": b.events["chain"], "bluff": b.events["steal"]})
    result = diff_rows(a, b, paired=False)
    assert [r.figure for r in result.rows if r.figure.startswith("events.")] == [
        "events.chain.per_game",
        "events.chain.share_of_games",
    ]
    assert "events only in A, not compared: steal" in result.warnings
    assert "events only in B, not compared: bluff" in result.warnings


def test_headline_shows_every_interval() -> None:
    import balancer
    from balancer.report.text import headline
    from tests.helpers import VARIANTS

    report = balancer.run(balancer.load_variant(VARIANTS / "fdc-5p-vs-random.yaml", games=60))
    from balancer.numbers import column_decimals, decimals, fixed, percent, percent_decimals

    text = headline(report)
    # Each column at the precision its intervals back (balancer/numbers.py).
    means = [s.score_mean_ci95 for s in report.seats]
    assert all(m is not None for m in means)
    places = column_decimals((m.low, m.high) for m in means if m is not None)
    assert places is not None
    for m in means:
        assert m is not None and f"[{fixed(m.low, places)}, {fixed(m.high, places)}]" in text
    assert report.length is not None and report.length.ci95 is not None
    # Every game is 12 tricks: no width, so two decimals.
    assert "length: 12.00 [12.00, 12.00]" in text
    assert report.margin is not None and report.margin.ci95 is not None
    low, high = report.margin.ci95
    at = decimals(low, high)
    assert at is not None
    mean = report.margin.mean
    assert f"winning margin: {fixed(mean, at)} [{fixed(low, at)}, {fixed(high, at)}]" in text
    bots = report.bots or {}
    shares = percent_decimals((b.win_ci95.low, b.win_ci95.high) for b in bots.values())
    for label, bot in bots.items():
        assert label in text and f"[{percent(bot.win_ci95.low, shares)}, " in text
