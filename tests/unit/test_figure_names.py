"""One name per figure: the nearest valid name offered for a mistyped or old-style one."""

from __future__ import annotations

from balancer.analysis.figure_names import nearest

VALID = [
    "seat_win_share.0",
    "seat_win_share.1",
    "bots.random.win_share",
    "seat_score_mean.0",
    "margin.mean",
    "margin.sd",
    "length.mean",
    "seat_advantage.p_value",
    "events.neko_ni_koban.per_game",
    "events.neko_ni_koban.share_of_games",
]


def test_old_sweep_spellings_point_at_the_one_name() -> None:
    assert nearest("seat0_win_share", VALID) == "seat_win_share.0"
    assert nearest("seat1_win_share", VALID) == "seat_win_share.1"
    assert nearest("length_mean", VALID) == "length.mean"
    assert nearest("margin_mean", VALID) == "margin.mean"
    assert nearest("seat_advantage_p", VALID) == "seat_advantage.p_value"
    assert nearest("neko_ni_koban_per_game", VALID) == "events.neko_ni_koban.per_game"


def test_a_typo_gets_the_closest_spelling_and_nonsense_gets_nothing() -> None:
    assert nearest("lenght.mean", VALID) == "length.mean"
    assert nearest("bots.randm.win_share", VALID) == "bots.random.win_share"
    assert nearest("zzz", VALID) is None
    # Words held by one name only pick it, whatever the order.
    assert nearest("mean_score", VALID) == "seat_score_mean.0"


def test_diff_rows_carry_the_names_sweep_and_expect_use() -> None:
    from balancer.analysis.diff import compare
    from balancer.analysis.figure_names import variant_figures
    from balancer.config import variant
    from balancer.report.build import from_run
    from balancer.sim import runner
    from tests.helpers import VARIANTS

    loaded = variant.load(VARIANTS / "kk-4p-bots.yaml").with_overrides(games=6, seed=None)
    a = from_run(runner.run(loaded))
    b = from_run(runner.run(loaded.with_overrides(games=6, seed=7)))
    rows = [row.figure for row in compare(a, b).rows]
    names = variant_figures(loaded)
    assert "bots.expected.win_share" in rows and "seat_score_mean.0" in rows
    assert [r for r in rows if r not in names] == []
