"""Hostile and damaged report folders: `replay`, `csv` and `diff` refuse them in one line.

Every case starts from a real report and changes one thing by hand, as a
careless edit or a forger would: a figure the games table contradicts, a
flipped `higher_is_better`, values of the wrong type, a `game` column of
2^64-1, scores of 1e308, a 16 MiB report.json, a FIFO where a file should be.
Each command must exit 2 with one line naming the file and the key, and
leave the report folder as it was.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from balancer.cli import main
from balancer.report import model
from tests.helpers import FDC3, VARIANTS, contents, one_error_line, safety_net

JsonEdit = Callable[[dict[str, Any]], None]
TableEdit = Callable[[pl.DataFrame], pl.DataFrame]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 20-game report of fdc-3p (the heuristic bot in every seat)."""
    out = tmp_path_factory.mktemp("good") / "report"
    assert main(["run", "-q", FDC3, "-n", "20", "-w", "1", "-o", str(out)]) == 0
    return out


def damaged(
    report: Path, tmp_path: Path, edit: JsonEdit | None = None, table: TableEdit | None = None
) -> Path:
    """A copy of `report` with report.json and/or games.parquet changed by hand."""
    copy = tmp_path / "damaged"
    shutil.copytree(report, copy)
    if edit is not None:
        document = json.loads((copy / "report.json").read_text())
        edit(document)
        (copy / "report.json").write_text(json.dumps(document, indent=2))
    if table is not None:
        frame = pl.read_parquet(copy / "games.parquet")
        table(frame).write_parquet(copy / "games.parquet")
    return copy


def put(*path: str | int, value: Any) -> JsonEdit:
    def edit(document: dict[str, Any]) -> None:
        inner: Any = document
        for key in path[:-1]:
            inner = inner[key]
        inner[path[-1]] = value

    return edit


def column(name: str, values: Callable[[pl.DataFrame], pl.Series]) -> TableEdit:
    return lambda frame: frame.with_columns(values(frame).alias(name))


def _commands(folder: Path, good: Path, tmp_path: Path) -> list[list[str]]:
    return [
        ["replay", str(folder), "--game", "0"],
        ["csv", str(folder), "-o", str(tmp_path / "tables")],
        ["diff", str(folder), str(good)],
    ]


def assert_refused(
    folder: Path, good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """Every command that reads a report refuses `folder`: exit 2, one line; nothing written."""
    before = contents(folder)
    lines = []
    for command in _commands(folder, good, tmp_path):
        assert main(command) == 2, command
        lines.append(one_error_line(capsys))
        assert contents(folder) == before
        assert not (tmp_path / "tables").exists()
    assert len(set(lines)) == 1, lines  # the same reason, whichever command read it
    return lines


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


# (what the hand did, the report.json edit, the games.parquet edit, the file and key named)
CASES: list[tuple[str, JsonEdit | None, TableEdit | None, str]] = [
    ("value_events not a list", put("value_events", value=5), None, "report.json: value_events"),
    (
        "value_events of numbers",
        put("value_events", value=[1, 2]),
        None,
        "report.json: value_events[0]",
    ),
    (
        "value_events naming no event",
        put("value_events", value=["jackpot"]),
        None,
        "report.json: value_events[0]: 'jackpot' is not one of the report's events",
    ),
    (
        "a count event called a value",
        put("value_events", value=["steals"]),
        None,
        "report.json: value_events[0]: 'steals' is a count",
    ),
    ("variant.seats a string", put("variant", "seats", value="x"), None, "variant.seats"),
    ("variant.seats of numbers", put("variant", "seats", value=[1, 2, 3]), None, "seats[0]"),
    (
        "a seat's bot a number",
        put("variant", "seats", 0, "bot", value=7),
        None,
        "variant.seats[0].bot",
    ),
    (
        "a seat's params a list",
        put("variant", "seats", 0, "params", value=[1]),
        None,
        "variant.seats[0].params",
    ),
    (
        "variant.players against players",
        put("variant", "players", value=4),
        None,
        "variant.players: is 4, but the report's players is 3",
    ),
    (
        "variant.game against game",
        put("variant", "game", value="kimekimera"),
        None,
        "variant.game",
    ),
    (
        "higher_is_better flipped",
        put("higher_is_better", value=False),
        None,
        "report.json: higher_is_better: is false, but in fish-dash-cash a higher score",
    ),
    (
        "a win share made up",
        put("seats", 0, "win_share", value=0.9),
        None,
        "games.parquet: seats[0].win_share: report.json says 0.9",
    ),
    (
        "a score mean made up",
        put("seats", 1, "score", "mean", value=99.0),
        None,
        "games.parquet: seats[1].score.mean: report.json says 99.0",
    ),
    (
        "an event rate made up",
        put("events", "steals", "per_game", value=123.0),
        None,
        "games.parquet: events.steals.per_game",
    ),
    (
        "a seat relabelled in report.json",
        put("seats", 0, "bot", value="random"),
        None,
        "report.json: seats[0].bot: is 'random', but the variant seats 'heuristic' there",
    ),
    (
        "a seat relabelled in games.parquet",
        None,
        column("bot_0", lambda f: pl.Series(["random"] * f.height)),
        "games.parquet: seats[0].bot: report.json says 'heuristic'",
    ),
    (
        "games dropped from both files",
        put("games", value=19),
        lambda frame: frame.head(19),
        "games.parquet: seats[",
    ),
    (
        "a game column of 2^64-1",
        None,
        column("game", lambda f: pl.Series([2**64 - 1, *range(1, f.height)], dtype=pl.UInt64)),
        "games.parquet: does not match report.json: column game should number the games 0..19",
    ),
    (
        "scores of 1e308",
        None,
        column("score_0", lambda f: pl.Series([1e308] * f.height)),
        "games.parquet: column score_0 holds 1e+308",
    ),
    (
        "a figure of 1e308",
        put("seats", 0, "score", "sd", value=1e308),
        None,
        "report.json: seats[0].score.sd: should be a number",
    ),
    (
        "win shares the scores contradict",
        None,
        lambda f: f.with_columns(pl.col("win_1").alias("win_0"), pl.col("win_0").alias("win_1")),
        "games.parquet: win_",
    ),
    (
        "a bidi override in a seat's label",
        put("seats", 0, "bot", value="heuristic\u202e"),
        None,
        "report.json: seats[0].bot: holds the bidirectional control U+202E",
    ),
    (
        "an escape sequence in a note the headline prints",
        put("seat_advantage", "note", value="fine\x1b]0;pwned\x07"),
        None,
        "report.json: seat_advantage.note: holds the control character U+001B",
    ),
    (
        "a bidi isolate in an event's name",
        lambda d: d["events"].update({"ste\u2067als": d["events"].pop("steals")}),
        None,
        "report.json: events.ste",
    ),
    (
        "a variant nested 900 deep",
        put("variant", "rules", "deep", value=_nested(900)),
        None,
        "report.json: not a report: nested more than 72 deep",
    ),
    (
        "an escape sequence in the variant's name",
        put("variant", "name", value="fdc\x1b[2J"),
        None,
        "report.json: variant.name: holds the control character U+001B",
    ),
]


@pytest.mark.parametrize(("what", "edit", "table", "says"), CASES, ids=[c[0] for c in CASES])
def test_a_damaged_report_is_refused_by_every_command_in_one_line(
    report: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    what: str,
    edit: JsonEdit | None,
    table: TableEdit | None,
    says: str,
) -> None:
    folder = damaged(report, tmp_path, edit, table)
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert line.startswith(f"balancer: error: {folder}/"), line
    assert says in line, line
    assert "\x1b" not in line and "\u202e" not in line


def test_the_undamaged_copy_opens(report: Path, tmp_path: Path) -> None:
    # The cases above fail because of their edit, not because a copy can't be opened.
    folder = damaged(report, tmp_path, put("seats", 0, "win_share", value=0.35))
    assert model.load_report(folder).n_games == 20
    assert model.load_report(damaged(report, tmp_path / "again")).seats[0].bot == "heuristic"


def test_a_report_json_past_the_size_cap_is_not_read(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = damaged(report, tmp_path)
    text = (folder / "report.json").read_text()
    # Valid JSON, one byte past the cap: only its size is wrong.
    padding = model.MAX_REPORT_BYTES + 1 - len(text.encode())
    (folder / "report.json").write_text(text + " " * padding)
    assert (folder / "report.json").stat().st_size == model.MAX_REPORT_BYTES + 1
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert f"{folder}/report.json: is larger than any report balancer writes (16 MiB" in line


@pytest.mark.parametrize("name", ["report.json", "games.parquet"])
def test_a_fifo_or_a_folder_in_a_report_is_named_and_never_waited_on(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    folder = damaged(report, tmp_path)
    (folder / name).unlink()
    os.mkfifo(folder / name)
    with safety_net("a report holding a FIFO"):  # no writer will ever open it
        line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert f"{folder}/{name}: is a FIFO (named pipe), not" in line
    (folder / name).unlink()
    (folder / name).mkdir()
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert f"{folder}/{name}: is a folder, not" in line


def test_a_report_named_as_a_fifo_or_device_says_what_it_is(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with safety_net("a FIFO named as a report"):
        for command in (["csv", str(fifo)], ["diff", str(fifo), str(report)]):
            assert main(command) == 2
            assert f"{fifo}: is a FIFO (named pipe), not a report folder" in one_error_line(capsys)
    assert main(["csv", "/dev/zero"]) == 2
    assert "/dev/zero: is a character device, not a report folder" in one_error_line(capsys)


def test_a_report_path_with_a_256_byte_name_is_one_line(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = str(tmp_path / ("r" * 256))
    for command in (
        ["replay", long, "--game", "0"],
        ["csv", long],
        ["diff", long, str(report)],
        ["diff", str(report), long + "/v.yaml"],
    ):
        assert main(command) == 2, command
        assert "the name is too long for the file system" in one_error_line(capsys)


def test_csv_cells_a_spreadsheet_would_run_are_written_as_text(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A forged report, consistent with itself, whose seat labels are formulas.
    labels = ["=1+2", "+1", "@x"]

    def relabel(document: dict[str, Any]) -> None:
        for seat, label in enumerate(labels):
            document["variant"]["seats"][seat]["bot"] = label
            document["seats"][seat]["bot"] = label

    def table(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(pl.lit(label).alias(f"bot_{s}") for s, label in enumerate(labels))

    folder = damaged(report, tmp_path, relabel, table)
    out = tmp_path / "tables"
    assert main(["csv", str(folder), "-o", str(out)]) == 0, capsys.readouterr().err
    games = pl.read_csv(out / "games.csv")
    for seat, label in enumerate(labels):
        assert set(games[f"bot_{seat}"]) == {"'" + label}
    seats = pl.read_csv(out / "seats.csv")
    assert seats["bot"].to_list() == ["'=1+2", "'+1", "'@x"]
    # Numbers are numbers still, and a label that starts otherwise is left alone.
    plain = pl.read_parquet(report / "games.parquet")
    assert plain["bot_0"].to_list() == ["heuristic"] * 20
    assert games["score_0"].to_list() == plain["score_0"].to_list()


def test_a_value_event_passed_off_as_a_count_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Da Qi Zi's max_multiplier is a value per game: dropped from value_events, the
    # report would show a "share of games" for it that means nothing.
    good = tmp_path / "dqz"
    assert (
        main(["run", "-q", str(VARIANTS / "dqz-4p.yaml"), "-n", "4", "-w", "1", "-o", str(good)])
        == 0
    )
    assert model.load_report(good).value_events == ("max_multiplier",)
    folder = damaged(good, tmp_path, put("value_events", value=[]))
    line = assert_refused(folder, good, tmp_path, capsys)[0]
    assert "report.json: value_events: leaves out 'max_multiplier'" in line


# -- issue 32, Deliver 4: a variant that contradicts its games; a long value -----------


def test_a_report_whose_variant_can_not_have_dealt_its_games_is_refused_by_every_reader(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hand_size 10**9 over games dealt 5: replay refused it; csv, diff and cards do too,
    in the same words (one check, load_report's)."""
    folder = damaged(report, tmp_path, put("variant", "rules", "hand_size", value=10**9))
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert f"{folder / 'report.json'}: rules.hand_size: must be at most" in line, line
    before = contents(folder)
    assert main(["cards", str(folder), "-o", str(tmp_path / "cards.csv")]) == 2
    assert one_error_line(capsys) == line
    assert contents(folder) == before and not (tmp_path / "cards.csv").exists()


def test_the_same_report_with_its_variant_as_played_opens(report: Path, tmp_path: Path) -> None:
    """The control: the copy with hand_size put back at what the games were dealt."""
    folder = damaged(report, tmp_path, put("variant", "rules", "hand_size", value=5))
    assert model.load_report(folder).n_games == 20
    assert main(["cards", str(folder), "-o", str(tmp_path / "cards.csv")]) == 0


def every_seat_held(mask: int) -> TableEdit:
    """Every seat of every game of fdc-3p held exactly the card kinds of `mask`."""
    return lambda frame: frame.with_columns(
        pl.lit(mask, dtype=pl.UInt64).alias(f"held_{s}_0") for s in range(3)
    )


# fdc-3p's deck: 2 colours x 3 roles x numbers 0..9 = 60 card kinds, one 64-bit word a
# seat. Numbers 0..3 make it 24 kinds; 0..30 make it 186, three words a seat.
SMALLER_DECK = put("variant", "rules", "deck", "numbers", value=[0, 3])


def test_a_deck_edited_smaller_than_the_hands_dealt_is_refused_by_every_reader(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Card kind 30 held, a deck of 24 kinds in report.json: csv and cards would read
    past the card tally's arrays (a crash, before this check), diff and replay would
    trust a variant that did not deal these games."""
    folder = damaged(report, tmp_path, SMALLER_DECK, every_seat_held(1 << 30))
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert line == (
        f"balancer: error: {folder / 'games.parquet'}: held_0_0: game 0: seat 0 held card "
        "kind 30, but the deck in report.json's variant has 24 kinds (0..23): not the deck "
        "these games were dealt from"
    ), line
    assert main(["cards", str(folder), "-o", str(tmp_path / "cards.csv")]) == 2
    assert one_error_line(capsys) == line


def test_the_same_smaller_deck_over_hands_inside_it_opens(report: Path, tmp_path: Path) -> None:
    """The control: every hand within kinds 0..23 (kind 23 the last), so nothing contradicts."""
    folder = damaged(report, tmp_path, SMALLER_DECK, every_seat_held(1 << 23))
    assert model.load_report(folder).n_games == 20
    assert main(["cards", str(folder), "-o", str(tmp_path / "cards.csv")]) == 0


def test_a_deck_edited_larger_than_the_table_has_words_for_is_refused(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = damaged(report, tmp_path, put("variant", "rules", "deck", "numbers", value=[0, 30]))
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert (
        "games.parquet: the deck in report.json's variant has 186 card kinds (3 words per "
        "seat), but the file has no column held_0_1: not the deck these games were dealt from"
    ) in line, line


def test_hands_held_as_text_are_refused_not_read(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = damaged(report, tmp_path, table=column("held_1_0", lambda f: pl.lit("7")))
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert line.endswith("games.parquet: column held_1_0 should hold card bit masks"), line


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """fdc-3p with heuristic in seat 0 and random in seats 1 and 2, seats not rotated."""
    out = tmp_path_factory.mktemp("mixed") / "report"
    args = ["run", "-q", FDC3, "-n", "6", "-w", "1", "--bots", "heuristic,random,random"]
    assert main([*args, "-o", str(out)]) == 0
    return out


def test_a_report_edited_to_rotate_seats_its_games_did_not_rotate_is_refused(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With rotation, game 1's seat 0 holds slot (0 + 1) % 3 = 1, a random bot; the
    table has heuristic there in every game."""
    folder = damaged(mixed, tmp_path, put("variant", "seat_rotation", value=True))
    line = assert_refused(folder, mixed, tmp_path, capsys)[0]
    assert line == (
        f"balancer: error: {folder / 'games.parquet'}: bot_0: game 1: seat 0 holds "
        "'heuristic', but report.json's variant (seat_rotation: true) seats 'random' there: "
        "not the seating these games were played in"
    ), line


def test_the_mixed_report_as_played_opens(mixed: Path) -> None:
    """The control: the same report, unedited, with the bots it names in their seats."""
    assert [seat.bot for seat in model.load_report(mixed).seats] == [
        "heuristic",
        "random",
        "random",
    ]


@pytest.mark.parametrize(("games", "says"), [(5, "plays 5 games"), (7, "plays 7 games")])
def test_a_report_whose_variant_plays_another_number_of_games_is_refused(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], games: int, says: str
) -> None:
    folder = damaged(mixed, tmp_path, put("variant", "games", value=games))
    line = assert_refused(folder, mixed, tmp_path, capsys)[0]
    assert line == (
        f"balancer: error: {folder / 'report.json'}: variant.games: {says}, but "
        "games.parquet holds 6: not the variant these games were played under"
    ), line


def test_a_run_stopped_early_may_have_played_fewer_games_than_its_variant_allows(
    mixed: Path, tmp_path: Path
) -> None:
    """`until` set: 6 games played of the 7 allowed is a run its rule stopped."""
    edit = put("variant", "games", value=7)

    def stopped_early(document: dict[str, Any]) -> None:
        edit(document)
        document["until"], document["stopped_at"] = "win_ci<=0.5", 6

    folder = damaged(mixed, tmp_path, stopped_early)
    assert model.load_report(folder).n_games == 6


def test_a_seat_number_of_991_digits_is_cut_in_the_message(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = damaged(report, tmp_path, put("seats", 0, "seat", value=10**990))
    line = assert_refused(folder, report, tmp_path, capsys)[0]
    assert "seats[0].seat: should be 0, not a number of about 991 digits" in line, line
    assert len(line) < 400
