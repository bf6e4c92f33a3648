"""The typed Report: report.json read and written byte for byte, every figure checked."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

import balancer
from balancer.config import variant
from balancer.errors import UserError
from balancer.report.figures import Distribution, Figures, Interval, present
from balancer.report.model import Report, load_report
from tests.unit.test_diff import make_games, make_report

VARIANTS = Path(__file__).parents[2] / "variants"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, Path]:
    """A real run with two kinds of bot (so bots and head_to_head), saved."""
    loaded = variant.load(VARIANTS / "kk-4p-bots.yaml").with_overrides(games=12, seed=3)
    report = balancer.run(loaded)
    folder = tmp_path_factory.mktemp("saved") / "r"
    report.save(folder, html=False)
    return report, folder


def test_a_saved_report_reads_back_to_the_same_bytes(saved: tuple[Report, Path]) -> None:
    report, folder = saved
    text = (folder / "report.json").read_text()
    opened = load_report(folder)
    assert opened.json_text() == text
    # Every figure equal (the games table is compared apart). The variant went through
    # JSON, which makes colour_bonus's int keys strings: compared as JSON.
    assert replace(opened, folder=None, variant=report.variant) == report
    assert json.dumps(opened.variant) == json.dumps(report.variant)
    assert opened.games.equals(report.games) and opened.folder == folder
    assert report.bots is not None and report.head_to_head is not None


def test_the_document_by_hand() -> None:
    """Keys in the file's order, intervals as [low, high], 'games' for the count."""
    games = make_games(10, noise_seed=1, deal_seed=1)
    document = make_report(games, seed=4)
    report = Report.from_json(document, "r.json", games=games)
    assert report.n_games == 10 and report.seed == 4 and report.length_unit == "tricks"
    assert report.seats[1].win_ci95 == Interval(*document["seats"][1]["win_ci95"])
    low, high = report.seats[1].win_ci95
    assert [low, high] == document["seats"][1]["win_ci95"]
    out = report.to_json()
    assert out == document
    assert list(out) == [
        "game", "players", "games", "seed", "variant", "seats", "seat_advantage", "length",
        "events", "higher_is_better", "length_unit", "balancer_version", "rules_version", "bots",
    ]  # fmt: skip
    assert Interval(0.25, 0.5).to_json() == [0.25, 0.5]
    assert Distribution(mean=1, sd=0, min=1, q1=1, median=1, q3=1, max=1).to_json() == {
        "mean": 1, "sd": 0, "min": 1, "q1": 1, "median": 1, "q3": 1, "max": 1,
    }  # fmt: skip


def test_figures_a_file_may_lack_are_none_and_stay_out() -> None:
    games = make_games(10, noise_seed=1, deal_seed=1)
    document = make_report(games, seed=4)
    for key in ("seat_advantage", "length", "bots", "length_unit"):
        del document[key]
    report = Report.from_json(document, "r.json", games=games)
    assert report.margin is None and report.value_events is None and report.bots is None
    assert report.seat_advantage is None and report.length is None
    assert report.to_json() == document
    with pytest.raises(ValueError, match="no margin"):
        present(report.margin, "margin")


def _document() -> dict[str, Any]:
    games = make_games(20, noise_seed=1, deal_seed=1)
    document = make_report(games, seed=4)
    document["margin"] = {"mean": 1, "sd": 1, "min": 0, "q1": 0, "median": 1, "q3": 2, "max": 3}
    document["value_events"] = ["steal"]
    document["head_to_head"] = {
        "careful": {"random": {"ahead_share": 0.6, "ci95": [0.5, 0.7], "games": 20, "pairs": 80}}
    }
    return document


def test_every_figure_of_a_complete_document_is_read() -> None:
    report = Report.from_json(_document(), "r.json")
    assert report.margin == Distribution(mean=1, sd=1, min=0, q1=0, median=1, q3=2, max=3)
    assert report.value_events == ("steal",)
    assert report.head_to_head is not None
    h = report.head_to_head["careful"]["random"]
    assert (h.ahead_share, h.ci95, h.games, h.pairs) == (0.6, Interval(0.5, 0.7), 20, 80)
    assert report.to_json() == _document()


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        inner: Any = document
        for key in path[:-1]:
            inner = inner[key]
        if value is _DELETE:
            del inner[path[-1]]
        else:
            inner[path[-1]] = value

    return change


_DELETE = object()


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (_set(("bots", "random", "seat_games"), "9"), "bots.random.seat_games: should be int"),
        (_set(("bots", "random", "seat_games"), True), "bots.random.seat_games: should be int"),
        (_set(("bots", "random", "win_ci95"), [1]), "bots.random.win_ci95: should be two numbers"),
        (_set(("bots", "random", "win_share"), -0.1), "bots.random.win_share: should be between"),
        (_set(("bots",), [1]), "bots: should be a mapping, not [1]"),
        (
            _set(("head_to_head", "careful", "random", "ahead_share"), 2),
            "head_to_head.careful.random.ahead_share: should be between 0 and 1, not 2",
        ),
        (
            _set(("head_to_head", "careful", "random", "ci95"), _DELETE),
            "head_to_head.careful.random.ci95: missing: should be two numbers [low, high]",
        ),
        (_set(("margin", "median"), _DELETE), "margin.median: missing"),
        (_set(("margin", "q1"), float("nan")), "margin.q1: should be a number, not nan"),
        (_set(("seat_advantage",), []), "seat_advantage: should be a mapping, not []"),
        (_set(("length", "max"), "9"), "length.max: should be a number, not '9'"),
        (_set(("value_events",), "steal"), "value_events: should be a list, not 'steal'"),
        (_set(("value_events",), ["steal", 3]), "value_events[1]: should be str, not 3"),
        (_set(("length_unit",), 5), "length_unit: should be str, not 5"),
        (
            _set(("events", "koban", "share_of_games"), 1.5),
            "events.koban.share_of_games: should be between 0 and 1, not 1.5",
        ),
    ],
)
def test_a_damaged_figure_is_one_error_naming_file_and_key(
    change: Callable[[dict[str, Any]], None], says: str
) -> None:
    document = _document()
    change(document)
    with pytest.raises(UserError) as caught:
        Report.from_json(document, "reports/x/report.json")
    message = caught.value.format_message()
    assert message.startswith("reports/x/report.json: ") and says in message, message


def test_a_damaged_file_is_named_when_opened(saved: tuple[Report, Path], tmp_path: Path) -> None:
    _, folder = saved
    document = json.loads((folder / "report.json").read_text())
    label = next(iter(document["head_to_head"]))
    other = next(iter(document["head_to_head"][label]))
    document["head_to_head"][label][other]["pairs"] = 1.5
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "report.json").write_text(json.dumps(document))
    (broken / "games.parquet").write_bytes((folder / "games.parquet").read_bytes())
    with pytest.raises(UserError, match=rf"head_to_head\.{label}\.{other}\.pairs: should be int"):
        load_report(broken)


@dataclass(frozen=True, kw_only=True)
class _Noted(Figures):
    """A figure class grown by one optional field, as new statistics will grow them."""

    chi2: float
    interval: Interval | None = None
    note: str | None = None


def test_a_new_optional_field_is_read_written_and_checked() -> None:
    old = {"chi2": 1.5}
    assert _Noted.from_json(copy.deepcopy(old), "adv", "f").to_json() == old  # old files: same
    new = {"chi2": 1.5, "interval": [1.0, 2.0], "note": "few games"}
    read = _Noted.from_json(new, "adv", "f")
    assert read.interval == Interval(1.0, 2.0) and read.note == "few games"
    assert read.to_json() == new
    with pytest.raises(UserError, match="f: adv.note: should be str, not 3"):
        _Noted.from_json({"chi2": 1.5, "note": 3}, "adv", "f")
    with pytest.raises(UserError, match="f: adv.chi2: missing"):
        _Noted.from_json({"note": "x"}, "adv", "f")


def test_seat_advantage_nulls_are_written_and_read_back() -> None:
    """A confounded run's null p-value is in the file; an old chi-square file keeps its keys."""
    document = _document()
    untested = {
        "test": "Hotelling T² on seat shares (per-game covariance)",
        "statistic": None,
        "df": None,
        "p_value": None,
        "note": "seats hold different bots",
    }
    document["seat_advantage"] = dict(untested)
    report = Report.from_json(copy.deepcopy(document), "r.json")
    assert report.seat_advantage is not None and report.seat_advantage.p_value is None
    assert report.to_json()["seat_advantage"] == untested
    tested = {**untested, "statistic": 3.5, "df": [3, 16], "p_value": 0.04, "note": None}
    document["seat_advantage"] = tested
    report = Report.from_json(copy.deepcopy(document), "r.json")
    assert report.seat_advantage is not None and report.seat_advantage.df == (3, 16)
    assert report.to_json()["seat_advantage"] == tested
    old = {"chi2": 1.5, "p_value": 0.2}
    document["seat_advantage"] = old
    assert Report.from_json(copy.deepcopy(document), "r.json").to_json()["seat_advantage"] == old
    document["seat_advantage"] = {**tested, "p_value": "small"}
    with pytest.raises(UserError, match="seat_advantage.p_value: should be a number"):
        Report.from_json(document, "r.json")
