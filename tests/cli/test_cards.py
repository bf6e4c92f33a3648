"""Card impact: the held_* columns (both play paths), stats/card_tally.py, `balancer cards`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balancer import load_variant, table
from balancer.cli import main
from balancer.games.fdc import deck as fdc_deck
from balancer.games.fdc import engine as fdc
from balancer.report import cards
from balancer.report.build import from_run
from balancer.report.model import Report
from balancer.rng import CHANCE
from balancer.sim import runner
from balancer.sim.play import derive_rng
from balancer.stats import card_tally

VARIANTS = Path(__file__).parents[2] / "variants"


def test_a_hand_made_table_gives_the_shares_and_interval_worked_out_by_hand() -> None:
    # Two seats, kinds A (bit 0) and B (bit 1), each seat holding one of them.
    # Holders of A win 1, 1, 1/2 (a tie), 1: 3.5 of 4; holders of B 0.5 of 4.
    # Per game z = (a - b - 0.75) / 4 = 1/16, 1/16, -3/16, 1/16; the sum of
    # squares 3/64, times 4/3: a variance of 1/16, an se of 1/4.
    games = pl.DataFrame(
        {
            table.win(0): [1.0, 1.0, 0.5, 0.0],
            table.win(1): [0.0, 0.0, 0.5, 1.0],
            table.held(0, 0): pl.Series([1, 1, 2, 2], dtype=pl.UInt64),
            table.held(1, 0): pl.Series([2, 2, 1, 1], dtype=pl.UInt64),
        }
    )
    a, b = card_tally.card_impact(games, 2, ["A", "B"])
    assert (a.card, a.held_seats, a.other_seats) == ("A", 4, 4)
    assert a.held_win_share == pytest.approx(0.875)
    assert a.other_win_share == pytest.approx(0.125)
    assert a.difference == pytest.approx(0.75)
    assert (a.low, a.high) == pytest.approx((0.75 - card_tally.Z95 / 4, 0.75 + card_tally.Z95 / 4))
    assert b.card == "B" and b.difference == pytest.approx(-0.75)


def test_a_kind_nobody_held_is_a_neutral_row() -> None:
    games = pl.DataFrame(
        {
            table.win(0): [1.0, 0.0],
            table.win(1): [0.0, 1.0],
            table.held(0, 0): pl.Series([1, 1], dtype=pl.UInt64),
            table.held(1, 0): pl.Series([0, 0], dtype=pl.UInt64),
        }
    )
    rows = {r.card: r for r in card_tally.card_impact(games, 2, ["A", "B"])}
    assert rows["B"].held_seats == 0
    assert (rows["B"].difference, rows["B"].low, rows["B"].high) == (0.0, 0.0, 0.0)


def _columns(path: Path, games: int, check: bool) -> dict[str, np.ndarray]:
    variant = dataclasses.replace(load_variant(path), games=games)
    cols = runner.run(variant, check=check).columns()
    return {k: np.asarray(v) for k, v in cols.items() if k.startswith("held_")}


@pytest.mark.parametrize(
    "name",
    [
        "fdc-5p.yaml",
        "fdc-2p.yaml",
        "dqz-4p.yaml",
        "dqz-4p-random.yaml",
        "kk-4p.yaml",
        "kk-4p-bots.yaml",
        "kk-4p-robot-after-scoring.yaml",
    ],
)
def test_the_compiled_and_step_paths_record_the_same_opening_hands(name: str) -> None:
    compiled = _columns(VARIANTS / name, 40, check=False)
    step = _columns(VARIANTS / name, 40, check=True)
    assert compiled and compiled.keys() == step.keys()
    for column, values in compiled.items():
        assert values.dtype == np.uint64
        assert (values == step[column]).all(), column


def test_the_held_columns_are_the_dealt_hands() -> None:
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-5p.yaml"), games=3)
    frame = pl.DataFrame(runner.run(variant).columns())
    kinds = fdc.card_kinds(variant.rules)
    held = table.held_matrix(frame, 5, len(kinds))
    for game in range(3):
        state = fdc.new_state(variant.rules, 5, derive_rng(variant.seed, game, CHANCE))
        for seat in range(5):
            assert sorted(np.flatnonzero(held[game, seat])) == sorted(state.hands[seat])


def test_dqz_holds_the_ranks_and_suits_of_the_first_deal() -> None:
    from balancer.games.daqizi import combos as dc
    from balancer.games.daqizi import engine as dqz

    variant = dataclasses.replace(load_variant(VARIANTS / "dqz-4p.yaml"), games=3)
    frame = pl.DataFrame(runner.run(variant).columns())
    held = table.held_matrix(frame, 4, len(dqz.CARD_KINDS))
    assert dqz.CARD_KINDS[7:] == ("black suit", "red suit")
    for game in range(3):
        state = dqz.new_state(variant.rules, 4, derive_rng(variant.seed, game, CHANCE))
        for seat in range(4):
            kinds = [k for k in range(dc.N_KINDS) if state.hands[seat][k]]
            ranks = {dc.KIND_RANK[k] for k in kinds}
            suits = {7 + dc.KIND_SUIT[k] for k in kinds}
            assert set(np.flatnonzero(held[game, seat])) == ranks | suits


def test_kk_holds_every_card_of_the_chimeras_scored() -> None:
    from balancer.games.kimekimera import engine as kk

    variant = dataclasses.replace(load_variant(VARIANTS / "kk-4p.yaml"), games=1)
    state = kk.new_state(variant.rules, 4, derive_rng(variant.seed, 0, CHANCE))
    state.trace = []
    rng = derive_rng(variant.seed, 0, 1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    expected = [0] * 4
    for event in state.trace:
        if event[0] == "scored":
            _, seat, a, b = event[:4]
            expected[seat] |= (1 << kk.CARD_KIND[a]) | (1 << kk.CARD_KIND[b])
    assert all(expected) and list(state.record().held) == expected
    names = kk.card_kinds(variant.rules)
    assert len(names) == 50 and names[-2:] == ("rainbow", "grey")
    assert kk.CARD_KIND[kk.FIRST_GREY + 1] == 49


def test_a_planted_strong_card_comes_out_on_top(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hidden variant: blue fish 4 is worth 30 when cashed (every other card 1)."""
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-5p.yaml"), games=1500)
    kinds = fdc.card_kinds(variant.rules)
    planted = kinds.index("blue fish 4")
    plain = fdc_deck.money_values

    def strengthened(rules: object) -> tuple[int, ...]:
        money = list(plain(rules))  # type: ignore[arg-type]
        money[planted] = 30
        return tuple(money)

    # The engine's State and the kernel's tables both read the deck module's money.
    monkeypatch.setattr(fdc_deck, "money_values", strengthened)
    # Played compiled, not --check step by step.
    monkeypatch.setenv(runner.CHECK_ENV, "0")
    result = runner.run(variant)
    rows = card_tally.card_impact(pl.DataFrame(result.columns()), 5, kinds)
    assert rows[0].card == "blue fish 4"
    assert rows[0].low > 0
    assert rows[0].low > rows[1].high  # clear of the next card, not luck
    # Every report has it: summed as the games arrived, the same rows as from the table.
    streamed = from_run(result).cards
    assert streamed is not None and streamed[0].card == "blue fish 4"
    by_card = {r.card: r for r in rows}
    for row in streamed:
        other = by_card[row.card]
        assert (row.held_seats, row.other_seats) == (other.held_seats, other.other_seats)
        for field in ("held_win_share", "other_win_share", "difference", "low", "high"):
            assert getattr(row, field) == pytest.approx(getattr(other, field), abs=1e-12)


def test_every_report_of_a_game_with_cards_has_cards_csv_and_its_chart(tmp_path: Path) -> None:
    variant = dataclasses.replace(load_variant(VARIANTS / "kk-4p.yaml"), games=60)
    saved = from_run(runner.run(variant)).save(tmp_path / "rep")
    lines = (tmp_path / "rep" / cards.CSV_NAME).read_text().splitlines()
    assert lines[0] == ",".join(cards.CSV_HEADER) and len(lines) == 1 + 50
    assert '<section id="cards">' in (tmp_path / "rep" / "report.html").read_text()
    # The folder is still balancer's own: a report opened again, and run over again.
    assert Report.open(tmp_path / "rep").n_games == 60
    assert saved.cards is not None
    from_run(runner.run(variant)).save(tmp_path / "rep")


def test_the_cards_command_prints_the_table_and_writes_cards_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-5p.yaml"), games=200)
    from_run(runner.run(variant)).save(tmp_path / "rep", html=False)
    out = tmp_path / "cards.csv"
    assert main(["cards", str(tmp_path / "rep"), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0].split()[:2] == ["card", "held"]
    lines = out.read_text().splitlines()
    assert lines[0] == ",".join(cards.CSV_HEADER)
    assert len(lines) == 1 + 60  # every kind of the 60-card deck
    # Again over its own cards.csv is fine; over a user's file it is refused.
    assert main(["cards", str(tmp_path / "rep"), "-o", str(out)]) == 0
    # So is one an earlier balancer wrote, with the interval's ends as `low` and `high`.
    earlier = ",".join(cards.CSV_HEADER).replace(
        "difference.ci95_low,difference.ci95_high", "low,high"
    )
    out.write_text(earlier + "\nblue fish 4,1,0.5,4,0.25,0.25,0.1,0.4,0.01,0.02,yes\n")
    assert main(["cards", str(tmp_path / "rep"), "-o", str(out)]) == 0
    assert out.read_text().splitlines()[0] == ",".join(cards.CSV_HEADER)
    mine = tmp_path / "mine.csv"
    mine.write_text("my,data\n")
    assert main(["cards", str(tmp_path / "rep"), "-o", str(mine)]) == 2
    assert mine.read_text() == "my,data\n"
    assert "not overwritten" in capsys.readouterr().err


def test_a_report_gives_its_card_impact_and_an_html_section(tmp_path: Path) -> None:
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-5p.yaml"), games=100)
    report = from_run(runner.run(variant)).save(tmp_path / "rep", html=False)
    rows = cards.of_report(Report.open(tmp_path / "rep"))
    assert rows is not None and len(rows) == 60
    assert rows == cards.of_report(report)
    from balancer.report.html import render_html

    page = render_html(report)
    assert '<section id="cards">' in page and "http://" not in page  # embedded like the rest
    assert page.index('<section id="cards">') < page.index("<svg", page.index('id="cards"'))


def _impact(card: str, difference: float, half: float) -> card_tally.CardImpact:
    return card_tally.CardImpact(
        card, 10, 0.5 + difference / 2, 30, 0.5 - difference / 2, difference,
        difference - half, difference + half,
    )  # fmt: skip


def test_the_chart_draws_the_largest_effects_either_way_with_their_intervals() -> None:
    import xml.etree.ElementTree as ET

    rows = [_impact(f"kind {i}", (i - 12) / 200, 0.01 + i / 2000) for i in range(25)]
    rows.append(_impact("<b>&", 0.2, 0.05))
    root = ET.fromstring(cards.chart_svg(rows))
    shown = sorted(rows, key=lambda r: (-abs(r.difference), r.card))[:20]
    shown.sort(key=lambda r: (-r.difference, r.card))
    texts = [t for t in root.iter("text")]
    labels = [t.text for t in texts if t.get("class") == "label"]
    assert labels == [r.card for r in shown] and labels[0] == "<b>&"  # largest first, escaped
    ticks = [t for t in texts if t.get("class") == "tick"]
    (v0, x0), (v1, x1) = [
        (float((t.text or "").rstrip("%")) / 100, float(t.get("x", "nan"))) for t in ticks[:2]
    ]

    def x(v: float) -> float:
        return x0 + (v - v0) * (x1 - x0) / (v1 - v0)

    bars = [r for r in root.iter("rect") if r.get("class") == "bar"]
    whiskers = [ln for ln in root.iter("line") if ln.get("class") == "ci"]
    assert len(bars) == len(whiskers) == 20
    for row, bar, ci in zip(shown, bars, whiskers, strict=True):
        left, width = float(bar.get("x", "nan")), float(bar.get("width", "nan"))
        ends = sorted([x(0), x(row.difference)])
        assert (left, left + width) == pytest.approx(ends, abs=0.15)
        low, high = float(ci.get("x1", "nan")), float(ci.get("x2", "nan"))
        assert (low, high) == pytest.approx((x(row.low), x(row.high)), abs=0.15)
    (zero,) = [ln for ln in root.iter("line") if ln.get("class") == "zero"]
    assert float(zero.get("x1", "nan")) == pytest.approx(x(0), abs=0.1)
    assert cards.chart_svg(list(reversed(rows))) == cards.chart_svg(rows)  # same bytes


def test_cards_writes_into_the_report_folder_not_the_current_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-5p.yaml"), games=120)
    from_run(runner.run(variant)).save(tmp_path / "rep", html=False)
    written = (tmp_path / "rep" / cards.CSV_NAME).read_bytes()
    (tmp_path / "rep" / cards.CSV_NAME).unlink()  # as a report from before cards.csv
    # A report without cards.csv must stay balancer's own once it gets one: rewritten
    # through its manifest, so remove the manifest's entry the unlink broke.
    from balancer.report.folder import MANIFEST, REPORT_JSON, write_manifest

    (tmp_path / "rep" / MANIFEST).unlink()
    write_manifest(tmp_path / "rep", REPORT_JSON)
    here = tmp_path / "elsewhere"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main(["cards", str(tmp_path / "rep")]) == 0
    assert list(here.iterdir()) == []  # nothing stray in the current folder
    assert (tmp_path / "rep" / cards.CSV_NAME).read_bytes() == written
    assert f"written to {tmp_path / 'rep' / cards.CSV_NAME}" in capsys.readouterr().err
    # The folder is still the report's: run over again, and read.
    assert Report.open(tmp_path / "rep").n_games == 120
    from_run(runner.run(variant)).save(tmp_path / "rep", html=False)


def test_balancer_csv_regenerates_cards_csv_byte_for_byte(tmp_path: Path) -> None:
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-4p.yaml"), games=150)
    from_run(runner.run(variant)).save(tmp_path / "rep", html=False)
    ran = {p.name: p.read_bytes() for p in (tmp_path / "rep").glob("*.csv")}
    assert cards.CSV_NAME in ran
    assert main(["csv", str(tmp_path / "rep"), "-o", str(tmp_path / "again")]) == 0
    again = {p.name: p.read_bytes() for p in (tmp_path / "again").glob("*.csv")}
    assert set(again) == set(ran) | {"games.csv"}
    for name, data in ran.items():
        assert again[name] == data, name


def test_games_csv_names_the_cards_held_instead_of_bitmasks(tmp_path: Path) -> None:
    import polars as pl

    # Two seats, 66 kinds (two words a seat): seat 0 held kinds 0 and 2, seat 1 kind 65 only.
    kinds = [f"k{i}" for i in range(66)]
    frame = pl.DataFrame(
        {
            "game": [0],
            "held_0_0": pl.Series([0b101], dtype=pl.UInt64),
            "held_0_1": pl.Series([0], dtype=pl.UInt64),
            "held_1_0": pl.Series([0], dtype=pl.UInt64),
            "held_1_1": pl.Series([0b10], dtype=pl.UInt64),
            "rules_version": [1],
        }
    )
    readable = cards.readable_held(frame, 2, kinds)
    assert readable.columns == ["game", "held_0", "held_1", "rules_version"]
    assert readable.row(0) == (0, "k0; k2", "k65", 1)
    # And `balancer csv` writes it so: no 18-digit masks in a spreadsheet's file.
    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-4p.yaml"), games=20)
    from_run(runner.run(variant)).save(tmp_path / "rep", html=False)
    assert main(["csv", str(tmp_path / "rep"), "-o", str(tmp_path / "out")]) == 0
    games = pl.read_csv(tmp_path / "out" / "games.csv")
    assert "held_0_0" not in games.columns
    hands = games["held_0"].to_list()
    assert all(len(hand.split("; ")) == 5 for hand in hands)  # fdc deals 5 cards a seat


def test_the_card_section_speaks_the_reports_language() -> None:
    from balancer.report.html import render_html

    variant = dataclasses.replace(load_variant(VARIANTS / "fdc-4p.yaml"), games=40)
    report = from_run(runner.run(variant))
    english, japanese = render_html(report, "en"), render_html(report, "ja")

    def section(page: str) -> str:
        start = page.index('<section id="cards">')
        return page[start : page.index("</section>", start)]

    assert "<h2>Card impact</h2>" in section(english) and "Holm" in section(english)
    assert "<h2>カードの影響</h2>" in section(japanese)
    assert "Card impact" not in section(japanese) and "win share held" not in section(japanese)
    assert "持っていた席の勝率" in section(japanese)  # the chart's axis title too
