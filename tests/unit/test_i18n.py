"""Reports in Japanese, and every figure explained: catalogs, the games' words, verdicts.

The verdicts and tricks-per-deal figures are checked on reports whose figures
were set by hand (dataclasses.replace), so the expected sentence is worked out
here, not read back from the code.
"""

from __future__ import annotations

import copy
import string
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from balancer import games, i18n, table
from balancer.cli import main
from balancer.cli.events import event_meanings
from balancer.config import variant
from balancer.errors import UserError
from balancer.i18n import en, ja
from balancer.report.build import from_run
from balancer.report.figures import BotFigures, EventFigures, Interval, SeatAdvantage
from balancer.report.model import Report
from balancer.report.tables import CSV_TABLES, REPORT_TABLES
from balancer.report.text import headline, ratio_of_events, seat_verdict, summary_markdown
from balancer.sim import runner
from tests.helpers import VARIANTS, load_report, one_error_line, variant_file, write_file

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")

SEED_WORDS = {
    # game: (title, words the seed uses that its Japanese report must show)
    "fish-dash-cash": ("フィッシュ！ダッシュ！キャッシュ！", ["猫に小判", "縄張り", "お魚"]),
    "kimekimera": ("キメキメラ", ["テーマキメラ", "マイキメラ", "ロボット", "グレーカード"]),
    "da-qi-zi": ("打棋子", ["連荘", "ヤキトリ", "箱テン", "順子", "ラストトリック"]),
}


def make_report(name: str, n: int) -> Report:
    loaded = variant.load(VARIANTS / name).with_overrides(games=n, seed=None)
    return from_run(runner.run(loaded))


@pytest.fixture(scope="module")
def dqz() -> Report:
    return make_report("dqz-4p.yaml", 8)


@pytest.fixture(scope="module")
def kk() -> Report:
    return make_report("kk-2p.yaml", 10)


@pytest.fixture(autouse=True)
def no_env_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(i18n.ENV_VAR, raising=False)


# -- the catalogs ----------------------------------------------------------------


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_in_both_catalogs_with_the_same_fields() -> None:
    assert set(en.CATALOG) == set(ja.CATALOG)
    for key, template in en.CATALOG.items():
        assert fields_of(template) == fields_of(ja.CATALOG[key]), key


def test_japanese_catalog_is_japanese() -> None:
    """No phrase left in English by mistake: each holds kana or kanji unless it is a symbol."""
    latin_only = [key for key, value in ja.CATALOG.items() if i18n.width(value) == len(value)]
    assert latin_only == []


def test_text_fills_fields_and_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.text("verdict.none", "en", p="p = 0.5") == "no seat advantage detected (p = 0.5)"
    assert (
        i18n.text("verdict.none", "ja", p="p = 0.5")
        == "席順による有利不利は検出されなかった（p = 0.5）"
    )
    assert i18n.text("verdict.none", None, p="x") == i18n.text("verdict.none", "en", p="x")
    monkeypatch.delitem(ja.CATALOG, "verdict.none")
    assert i18n.text("verdict.none", "ja", p="x") == "no seat advantage detected (x)"
    with pytest.raises(KeyError):
        i18n.text("no.such.key", "ja")


def test_terminal_width_counts_wide_characters_twice() -> None:
    assert (
        i18n.width("席 0") == 4 and i18n.ljust("席", 4) == "席  " and i18n.rjust("ab", 3) == " ab"
    )


# -- each game's own words ---------------------------------------------------------


@pytest.mark.parametrize("game", games.names())
def test_every_event_has_its_words_in_both_languages(game: str) -> None:
    spec = games.get(game)
    names_ja = games.definition(game).local_names("ja")
    assert names_ja is not None
    assert list(names_ja.events) == list(spec.events)  # same events, report order
    assert list(event_meanings(game)) == list(spec.events)
    assert all(label and meaning for label, meaning in names_ja.events.values())
    assert spec.length_unit in names_ja.length_units
    title, words = SEED_WORDS[game]
    assert title == names_ja.title
    texts = i18n.game_texts(game, "ja")
    everything = " ".join([*texts.event_names.values(), *texts.event_meanings.values()])
    for word in words:
        assert word in everything, word


def test_game_texts_in_english_are_the_ids_and_meanings() -> None:
    texts = i18n.game_texts("fdc", "en")
    assert texts.title == "fish-dash-cash" and texts.length_unit == "tricks"
    assert texts.event_name("steals") == "steals"
    assert texts.event_meaning("steals") == event_meanings("fdc")["steals"]
    unknown = i18n.game_texts("no-such-game", "ja", "turns")
    assert (unknown.title, unknown.length_unit, unknown.event_name("x")) == (
        "no-such-game",
        "turns",
        "x",
    )


def test_events_command_prints_each_meaning(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "dqz"]) == 0
    out = capsys.readouterr().out
    for name, meaning in event_meanings("dqz").items():
        assert any(name in line and meaning in line for line in out.splitlines()), name


# -- which language ----------------------------------------------------------------


def test_flag_then_variant_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.choose(None, None) is None
    monkeypatch.setenv(i18n.ENV_VAR, "ja")
    assert i18n.choose(None, None) == "ja"
    assert i18n.choose(None, "en") == "en"  # the variant file beats the standing preference
    assert i18n.choose("en", "ja") == "en"  # the flag beats both
    monkeypatch.setenv(i18n.ENV_VAR, "")
    assert i18n.choose(None, None) is None
    monkeypatch.setenv(i18n.ENV_VAR, "fr")
    with pytest.raises(UserError) as caught:
        i18n.choose(None, None)
    assert "BALANCER_LANG" in str(caught.value) and "'fr'" in str(caught.value)
    assert i18n.choose(None, "ja") == "ja"  # a bad preference unused is no error


def test_variant_lang_is_read_checked_and_recorded(tmp_path: Path) -> None:
    plain = variant.load(VARIANTS / "kk-2p.yaml")
    assert plain.lang is None and "lang" not in plain.resolved()
    child = variant_file(tmp_path, "kk-2p.yaml", "lang: ja\n")
    loaded = variant.load(child)
    assert loaded.lang == "ja" and loaded.resolved()["lang"] == "ja"
    # report.json's variant reads back with its language (replay reads it this way).
    assert variant.from_resolved(loaded.resolved(), "report.json").lang == "ja"
    # Inherited under extends, like every top-level key but name.
    grandchild = write_file(tmp_path, f"extends: {child.name}\n", "g.yaml")
    assert variant.load(grandchild).lang == "ja"
    bad = variant_file(tmp_path, "kk-2p.yaml", "lang: fr\n", name="bad.yaml")
    with pytest.raises(UserError) as caught:
        variant.load(bad)
    error = caught.value
    assert error.key == "lang" and error.line == 2 and "en or ja" in error.message


def test_bad_lang_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = variant_file(tmp_path, "kk-2p.yaml", "lang: french\n")
    out = tmp_path / "r"
    assert main(["run", "-q", str(bad), "-n", "2", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert "lang" in line and "'french'" in line and str(bad) in line
    assert main(["run", "-q", str(VARIANTS / "kk-2p.yaml"), "--lang", "fr", "-o", str(out)]) == 2
    assert "--lang" in capsys.readouterr().err
    assert not out.exists()


def test_bad_environment_lang_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(i18n.ENV_VAR, "klingon")
    out = tmp_path / "r"
    assert main(["run", "-q", str(VARIANTS / "kk-2p.yaml"), "-n", "2", "-o", str(out)]) == 2
    assert "BALANCER_LANG" in one_error_line(capsys)
    assert not out.exists()


# -- a Japanese run, end to end ----------------------------------------------------


@pytest.mark.parametrize("how", ["flag", "variant", "environment"])
def test_run_writes_japanese_reports(
    how: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = str(VARIANTS / "kk-2p.yaml")
    args = ["run", "-q", path, "-n", "6", "-o", str(tmp_path / "r")]
    if how == "flag":
        args += ["--lang", "ja"]
    elif how == "variant":
        args[2] = str(variant_file(tmp_path, "kk-2p.yaml", "lang: ja\n"))
    else:
        monkeypatch.setenv(i18n.ENV_VAR, "ja")
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "キメキメラ、2人、6ゲーム" in printed and "判定: " in printed
    assert "ルールの発生" in printed and "ロボット (robots_made)" in printed
    folder = tmp_path / "r"
    assert load_report(folder)["variant"]["lang"] == "ja"
    summary = (folder / "summary.md").read_text(encoding="utf-8")
    assert "## 1ゲームあたりのイベント" in summary and "テーマキメラ" in summary
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "席ごとの勝率" in page and "キメキメラ" in page


def test_flag_english_beats_a_japanese_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant_file(tmp_path, "kk-2p.yaml", "lang: ja\n")
    assert main(["run", "-q", str(path), "-n", "4", "-o", str(tmp_path / "r"), "--lang", "en"]) == 0
    assert "verdict: " in capsys.readouterr().out
    assert '<html lang="en">' in (tmp_path / "r" / "report.html").read_text(encoding="utf-8")


def test_excel_csvs_keep_their_bom_and_data_in_japanese(tmp_path: Path) -> None:
    """The CSVs are data, not prose: a Japanese run writes the same bytes; --excel adds a BOM."""
    path = str(VARIANTS / "kk-2p.yaml")
    assert main(["run", "-q", path, "-n", "4", "-o", str(tmp_path / "en")]) == 0
    assert main(["run", "-q", path, "-n", "4", "-o", str(tmp_path / "ja"), "--lang", "ja"]) == 0
    assert main(["csv", str(tmp_path / "ja"), "-o", str(tmp_path / "x"), "--excel"]) == 0
    assert main(["csv", str(tmp_path / "en"), "-o", str(tmp_path / "y")]) == 0
    for name in CSV_TABLES:  # games.csv too: `balancer csv` writes it
        plain = (tmp_path / "y" / name).read_bytes()
        if name in REPORT_TABLES:  # in the report folder itself, in either language
            assert (
                plain
                == (tmp_path / "ja" / name).read_bytes()
                == (tmp_path / "en" / name).read_bytes()
            ), name
        assert not plain.startswith(b"\xef\xbb\xbf"), name
        excel = (tmp_path / "x" / name).read_bytes()
        assert excel.startswith(b"\xef\xbb\xbf") and excel[3:] == plain, name


# -- the headline's verdicts, on figures set by hand ---------------------------------


def with_seats(
    report: Report, shares: list[float], p: float | None, **variant_keys: object
) -> Report:
    """`report` with the seats' win shares and the test's p set by hand."""
    seats = tuple(
        replace(seat, win_share=share) for seat, share in zip(report.seats, shares, strict=True)
    )
    adv = SeatAdvantage(test="Hotelling T²", statistic=None if p is None else 9.0, p_value=p)
    resolved = {**copy.deepcopy(dict(report.variant)), **variant_keys}
    return replace(report, seats=seats, seat_advantage=adv, variant=resolved)


def test_a_significant_first_seat_is_a_first_player_edge(dqz: Report) -> None:
    # 4 seats: 25% is even; seat 0 is furthest from it (+7.0 against -5.0, -2.0, 0.0).
    report = with_seats(dqz, [0.32, 0.20, 0.23, 0.25], 0.0031)
    assert seat_verdict(report, "en") == (
        "seat 0 wins 32.0% where 25.0% is even: a first-player edge, p = 0.0031"
    )
    assert seat_verdict(report, "ja") == (
        "席 0 の勝率 32.0%（均等なら 25.0%）: 先手（最初のプレイヤー）が有利、p = 0.0031"
    )
    assert "verdict: seat 0 wins 32.0%" in headline(report)


def test_another_seat_or_a_random_first_dealer_is_named_by_number(dqz: Report) -> None:
    low = with_seats(dqz, [0.25, 0.17, 0.29, 0.29], 0.02)  # seat 1 is 8 points under
    assert seat_verdict(low, "en").endswith(": a handicap for seat 1, p = 0.02")
    rules = {**dqz.variant["rules"], "first_dealer": "random"}
    drawn = with_seats(dqz, [0.32, 0.20, 0.23, 0.25], 0.0031, rules=rules)
    assert ": an edge for seat 0, p = 0.0031" in seat_verdict(drawn, "en")


def test_no_significant_difference_claims_nothing(dqz: Report) -> None:
    report = with_seats(dqz, [0.32, 0.20, 0.23, 0.25], 0.158)
    assert seat_verdict(report, "en") == "no seat advantage detected (p = 0.158)"
    assert "edge" not in headline(report)


def test_confounded_seats_never_claim_an_advantage(dqz: Report) -> None:
    strong = BotFigures(win_share=0.6, win_ci95=Interval(0.5, 0.7), seat_games=8)
    weak = BotFigures(win_share=0.13, win_ci95=Interval(0.1, 0.2), seat_games=24)
    report = with_seats(dqz, [0.60, 0.10, 0.15, 0.15], None, seat_rotation=False)
    report = replace(report, bots={"strong": strong, "weak": weak})  # in fixed seats
    verdict = seat_verdict(report, "en")
    assert verdict.startswith("seat and bot are confounded")
    assert "edge" not in verdict and "wins" not in verdict
    assert "交絡" in seat_verdict(report, "ja")
    # The report's English note is said in Japanese too.
    confounding = replace(
        report, seat_advantage=replace(report.seat_advantage, note="seats hold different bots")
    )
    assert "席順の有利不利: 検定せず（席とボットが交絡）" in headline(confounding, "ja")
    assert "seat advantage: not tested (seats hold different bots)" in headline(confounding)


def test_one_seat_has_nothing_to_test(kk: Report) -> None:
    solo = replace(kk, players=1, seats=kk.seats[:1])
    assert seat_verdict(solo, "en") == "one seat: no seat advantage to test"


# -- rule-firing rates and tricks per deal -------------------------------------------


def test_headline_lists_every_event_rate(dqz: Report) -> None:
    text = headline(dqz, "en")
    for name, e in dqz.events.items():
        line = next(line for line in text.splitlines() if line.startswith(f"  {name} "))
        if name == "max_multiplier":
            assert f"{e.per_game:.2f}" in line and "a value per game" in line
        else:
            assert f"{e.per_game:.3f}" in line and f"{100 * e.share_of_games:.1f}%" in line
    assert "what each event counts: balancer events da-qi-zi" in text


def test_tricks_per_deal_by_hand(dqz: Report) -> None:
    """Two games: 5 tricks in 1 deal and 10 in 1: 7.5 per deal.

    Residuals t - 7.5 d are -2.5 and 2.5, variance (ddof 1) 12.5, so the
    standard error is sqrt(12.5 / 2) / mean(d) = 2.5 and the interval 7.5 ± 4.9.
    """
    frame = pl.DataFrame({table.event("tricks"): [5, 10], table.event("deals"): [1, 1]})
    events = {
        "deals": EventFigures(per_game=1.0, share_of_games=1.0),
        "tricks": EventFigures(per_game=7.5, share_of_games=1.0),
    }
    report = replace(dqz, events=events, games=frame)
    ratio, ci = ratio_of_events(report, "tricks", "deals")  # type: ignore[misc]
    assert ratio == 7.5 and ci == Interval(pytest.approx(2.6), pytest.approx(12.4))
    assert "tricks per deal: 7.50 [2.60, 12.40] (the seed says about 5)" in headline(report)
    assert "1ディールあたりのトリック数: 7.50 [2.60, 12.40]" in headline(report, "ja")


def test_tricks_per_deal_only_for_a_game_that_counts_both(kk: Report) -> None:
    assert ratio_of_events(kk, "tricks", "deals") is None
    assert "tricks per deal" not in headline(kk) and "tricks per deal" not in summary_markdown(kk)


# -- summary.md --------------------------------------------------------------------


def test_summary_explains_every_event(dqz: Report) -> None:
    summary = summary_markdown(dqz, "en")
    assert "| event | per game | share of games | meaning |" in summary
    for name, meaning in event_meanings("dqz").items():
        row = next(line for line in summary.splitlines() if line.startswith(f"| {name} |"))
        assert row.endswith(f"| {meaning.replace('|', chr(92) + '|')} |"), name
    assert "tricks per deal: " in summary


def test_summary_in_japanese_uses_the_seeds_words(dqz: Report) -> None:
    summary = summary_markdown(dqz, "ja")
    assert summary.startswith("# dqz\\-4p\n")  # the name Markdown-escaped
    assert "打棋子" in summary and "| 親の連勝（連荘） (dealer_wins) |" in summary
    assert "| ヤキトリ (zero_capture) |" in summary and "## 席ごとの得点" in summary
    for meaning in i18n.game_texts("dqz", "ja").event_meanings.values():
        assert meaning in summary
    assert "ディール" in summary and "balancer " in summary


def test_show_prints_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = variant_file(tmp_path, "kk-2p.yaml", "lang: ja\n")
    assert main(["show", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "\nlang: ja\n" in shown
    again = write_file(tmp_path, shown, "again.yaml")
    assert variant.load(again).resolved() == variant.load(path).resolved()


def test_sweep_points_are_reported_in_the_chosen_language(tmp_path: Path) -> None:
    """sweep writes a report per point through the same path as run: --lang reaches each."""
    out = tmp_path / "sweep"
    args = ["sweep", str(VARIANTS / "kk-2p.yaml"), "--set", "rules.rounds=1,2", "-n", "2"]
    assert main([*args, "-q", "-o", str(out), "--lang", "ja"]) == 0
    pages = sorted(out.glob("*/report.html"))
    assert len(pages) == 2
    for page in pages:
        assert '<html lang="ja">' in page.read_text(encoding="utf-8")
        assert "## 1ゲームあたりのイベント" in (page.parent / "summary.md").read_text("utf-8")
