"""events, init, variants and show: what a new user types first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from balancer import games, knobs
from balancer.cli import cli
from balancer.config import variant
from tests.helpers import VARIANTS, variant_file, write_file


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("game", games.names())
def test_every_event_has_a_meaning_and_events_prints_them_in_report_order(game: str) -> None:
    spec = games.get(game)
    result = invoke("events", spec.short)
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()[1:]]
    assert listed == list(spec.events)
    rows = json.loads(invoke("events", game, "--json").stdout)
    assert [row["name"] for row in rows] == list(spec.events)
    assert all(row["meaning"] for row in rows)
    assert [row["name"] for row in rows if row["value"]] == list(spec.value_events)


def test_events_meanings_are_keyed_exactly_by_the_specs_events() -> None:
    for game in games.names():
        meanings = games.definition(game).event_meanings
        assert list(meanings) == list(games.get(game).events)


def test_events_of_an_unknown_game_is_one_line_exit_2() -> None:
    result = invoke("events", "fdcc")
    assert result.exit_code == 2
    # The hand-written games, then the shipped game files: the same list in every
    # process, whatever game files an earlier test registered.
    assert result.stderr == (
        "balancer: error: unknown game 'fdcc' (known: fish-dash-cash, kimekimera, da-qi-zi, "
        "fish-dash-cash-roles, fish-market, mega-racer, zodiac-race)\n"
    )


@pytest.mark.parametrize("game", games.names())
def test_init_writes_a_valid_variant_with_every_knob_at_its_default(
    tmp_path: Path, game: str
) -> None:
    spec = games.get(game)
    path = tmp_path / "new.yaml"
    result = invoke("init", game, str(path))
    assert result.exit_code == 0, result.output
    assert str(path) in result.stdout
    text = path.read_text(encoding="utf-8")
    loaded = variant.load(path)
    assert loaded.rules == knobs.freeze(knobs.defaults(spec.knobs))
    assert loaded.name == "new"
    for knob in spec.knobs:
        # Each knob is written out, its meaning on the comment line above it.
        lines = text.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  {knob.name}:"))
        assert lines[at - 1].strip().startswith("#")
        assert " ".join(knob.meaning.split()) in lines[at - 1]


@pytest.mark.parametrize("game", games.names())
def test_init_keeps_the_seed_and_games_of_the_shipped_base_so_diffs_are_paired(
    tmp_path: Path, game: str
) -> None:
    spec = games.get(game)
    path = tmp_path / "mine.yaml"
    assert invoke("init", game, str(path)).exit_code == 0
    base = variant.load(VARIANTS / f"{spec.short}-base.yaml")
    mine = variant.load(path)
    assert (mine.seed, mine.games) == (base.seed, base.games)
    # Not the old 1 and 1000, which no shipped variant uses.
    assert mine.seed != 1 and mine.games != 1000


def test_init_never_overwrites_a_file(tmp_path: Path) -> None:
    path = write_file(tmp_path, "mine\n", "mine.yaml")
    result = invoke("init", "fdc", str(path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "already exists" in result.stderr
    assert str(path) in result.stderr
    assert path.read_text() == "mine\n"


def test_init_defaults_to_my_short_yaml_and_dash_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert invoke("init", "kk").exit_code == 0
    assert variant.load(tmp_path / "my-kk.yaml").game == "kimekimera"
    assert invoke("init", "kk").exit_code == 2
    printed = invoke("init", "dqz", "-")
    assert printed.exit_code == 0 and printed.stdout.startswith("# A da-qi-zi variant")
    assert "players: 4    # exactly 4" in printed.stdout


def test_variants_lists_each_shipped_file_with_its_first_comment() -> None:
    result = invoke("variants")
    assert result.exit_code == 0
    shipped = sorted(VARIANTS.glob("*.yaml"))
    lines = result.stdout.splitlines()
    assert len(lines) == 1 + len(shipped)
    by_name = {line.split()[0]: line for line in lines[1:]}
    assert set(by_name) == {p.stem for p in shipped}
    # The leading comment block, joined into one line.
    assert by_name["fdc-5p-vs-random"].split(None, 3)[1:] == [
        "fdc",
        "5p",
        "One heuristic bot against four random bots, seats rotated game by game so that "
        "the bot's strength is not confused with a seat's advantage.",
    ]
    rows = json.loads(invoke("variants", "--json").stdout)
    assert {row["name"] for row in rows} == {p.stem for p in shipped}
    assert all(row["description"] for row in rows)


@pytest.mark.parametrize("where", ["inside", "elsewhere"])
def test_variants_hint_names_what_show_accepts_from_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # A new user copies the hint: a shipped variant by its bare name, from any folder.
    monkeypatch.chdir(VARIANTS.parent.parent if where == "inside" else tmp_path)
    header = invoke("variants").stdout.splitlines()[0]
    hint = header.split("(balancer show ", 1)[1].split(" ", 1)[0]
    assert hint == "NAME"
    shown = invoke("show", "fdc-5p")
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.splitlines()[1] == "name: fdc-5p"
    # Another folder's variants: by their path, which show accepts from here.
    (tmp_path / "mine").mkdir()
    write_file(tmp_path / "mine", "# Mine.\ngame: fdc\nplayers: 3\nbots: random\n", "a.yaml")
    header = invoke("variants", str(tmp_path / "mine")).stdout.splitlines()[0]
    hint = header.split("(balancer show ", 1)[1].split(" ", 1)[0]
    assert hint.endswith("/NAME.yaml")
    assert invoke("show", hint.replace("NAME", "a")).exit_code == 0


def test_variants_of_a_folder_marks_a_broken_file(tmp_path: Path) -> None:
    write_file(tmp_path, "# Mine: 3 players.\ngame: fdc\nplayers: 3\nbots: random\n", "a.yaml")
    write_file(tmp_path, "game: fdc\nplayers: 30\nbots: random\n", "b.yaml")
    result = invoke("variants", str(tmp_path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()[1:]
    assert lines[0].split() == ["a", "fdc", "3p", "Mine:", "3", "players."]
    assert lines[1].split()[:2] == ["b", "invalid"] and "between 2 and 6" in lines[1]
    missing = invoke("variants", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "no such directory" in missing.stderr


@pytest.mark.parametrize("name", sorted(p.name for p in VARIANTS.glob("*.yaml")))
def test_show_prints_the_merged_variant_that_reads_back_the_same(tmp_path: Path, name: str) -> None:
    result = invoke("show", str(VARIANTS / name))
    assert result.exit_code == 0
    assert "extends" not in result.stdout.split("\n", 1)[1]
    again = variant.load(write_file(tmp_path, result.stdout, "shown.yaml"))
    original = variant.load(VARIANTS / name)
    assert again.resolved() == original.resolved()


def test_show_spells_out_every_knob_and_the_childs_values(tmp_path: Path) -> None:
    child = variant_file(tmp_path, "kk-4p.yaml", "scoring:\n  colour_bonus: {1: 1}\nrounds: 2\n")
    shown = invoke("show", str(child)).stdout
    assert "  colour_bonus: {1: 1, 2: 7}\n" in shown
    assert "  rounds: 2\n" in shown
    assert "bots: expected\n" in shown
    for knob in games.get("kk").knobs:
        assert f"\n  {knob.name}: " in shown


def test_show_of_a_bad_variant_is_one_line_exit_2(tmp_path: Path) -> None:
    result = invoke("show", str(write_file(tmp_path, "game: fdc\n")))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "missing key 'players'" in result.stderr
