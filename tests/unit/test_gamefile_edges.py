"""A game file's sharp edges (issue 36): each refused in one line naming file:line: key,
or made to work, with the file that holds it worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer import games
from balancer.cli import cli
from balancer.config.variant import TOP_KEYS
from balancer.games.roles import check_file, gamefile
from balancer.games.roles.gamefile import SHIPPED
from balancer.games.roles.validate import VARIANT_KEYS


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def mega_racer() -> str:
    return gamefile.shipped_path("mega-racer").read_text(encoding="utf-8")  # type: ignore[union-attr]


def own_racer() -> str:
    """MEGA RACER copied under a name and short name of its own."""
    return (
        mega_racer()
        .replace("name: mega-racer", "name: my-racer")
        .replace("short: mr", "short: myr")
    )


def test_the_validators_variant_keys_are_the_variants_own() -> None:
    assert VARIANT_KEYS == TOP_KEYS


@pytest.mark.parametrize("name", ["seed", "players", "games", "seats", "expect", "lang"])
def test_a_knob_cannot_take_a_variant_keys_name(tmp_path: Path, name: str) -> None:
    text = own_racer().replace("knobs:\n", f"knobs:\n  {name}: {{default: 3, range: [0, 9]}}\n")
    game, problems = check_file(write(tmp_path, text))
    assert game is None
    assert [(p.line, p.key) for p in problems] == [(30, f"knobs.{name}")]
    assert f"{name!r} is a key of a variant file" in problems[0].message


def test_a_knob_of_another_name_is_taken(tmp_path: Path) -> None:
    """The control: the same knob under a name of its own is a knob of the game."""
    text = own_racer().replace("knobs:\n", "knobs:\n  seeds: {default: 3, range: [0, 9]}\n")
    game, problems = check_file(write(tmp_path, text))
    assert problems == [] and game is not None and "seeds" in {k.name for k in game.knobs}


def test_validate_variant_lists_every_mistake_of_its_game_file(tmp_path: Path) -> None:
    """Two mistakes in the game file the variant names (lines 27 and 49): both said."""
    text = (
        own_racer()
        .replace("  blocking: {lasts: trick}", "  blocking: {lasts: round}")
        .replace("event: blocks", "event: blokcs")
    )
    game = write(tmp_path, text)
    variant = write(tmp_path, "game: ./game.yaml\nplayers: 3\nbots: random\n", "v.yaml")
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert [line.split(": expected")[0].split(": unknown")[0] for line in lines] == [
        f"balancer: error: {game}:27: flags.blocking.lasts",
        f"balancer: error: {game}:49: roles.block[0].guard.event",
    ], lines


@pytest.mark.parametrize(
    ("old", "new", "line", "key", "piece"),
    [
        ("name: my-racer", "name: mega-racer", 12, "name", "shipped game file mega-racer.yaml"),
        ("short: myr", "short: mr", 13, "short", "shipped game file mega-racer.yaml"),
        ("name: my-racer", "name: zodiac-race", 12, "name", "shipped game file zodiac-race"),
        ("short: myr", "short: zr", 13, "short", "shipped game file zodiac-race.yaml"),
        ("name: my-racer", "name: fish-dash-cash", 12, "name", "of the game fish-dash-cash"),
        ("short: myr", "short: fdc", 13, "short", "of the game fish-dash-cash"),
    ],
)
def test_a_copy_keeping_another_games_name_is_refused_naming_both_files(
    tmp_path: Path, old: str, new: str, line: int, key: str, piece: str
) -> None:
    copy = write(tmp_path, own_racer().replace(old, new), "copy.yaml")
    game, problems = check_file(copy)
    assert game is None
    assert [(p.file, p.line, p.key) for p in problems] == [(str(copy), line, key)]
    assert piece in problems[0].message


def test_a_copy_under_a_name_of_its_own_is_a_game_and_a_run_of_a_clash_writes_nothing(
    tmp_path: Path,
) -> None:
    """The control: renamed (name and short), the copy is valid; and a variant on the
    copy that keeps the name fails its run in one line, before any report."""
    own = (
        mega_racer()
        .replace("name: mega-racer", "name: my-racer")
        .replace("short: mr", "short: myr")
    )
    game, problems = check_file(write(tmp_path, own, "own.yaml"))
    assert problems == [] and game is not None and game.name == "my-racer"
    write(tmp_path, mega_racer(), "copy.yaml")
    variant = write(tmp_path, "game: ./copy.yaml\nplayers: 3\nbots: random\n", "v.yaml")
    result = CliRunner().invoke(cli, ["run", "-q", str(variant), "-o", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"balancer: error: {tmp_path / 'copy.yaml'}:12: name: 'mega-racer' is the name of the "
        "shipped game file mega-racer.yaml: a game file needs a name of its own (a copy would "
        "stand in for the shipped game)"
    ]
    assert not (tmp_path / "r").exists()


# 2**63 - 1 = 9_223_372_036_854_775_807. Nine terms of 10**9 × a counter up to 10**9 make
# 9 × 10**18; a tenth term of T × 10**9 fits while T <= 223_372_036.
NINE = "".join("  - {counter: position, times: 1000000000}\n" for _ in range(9))


def far_race(last: str, *, place: str = "score") -> str:
    """my-racer with position up to 10**9, and nine terms of 10**9 then `last` summed in
    the score (or in an at_end event's sum, `place`)."""
    text = own_racer().replace("max: 1000}", "max: 1000000000}")
    terms = NINE + f"  - {last}\n"
    if place == "score":
        return text.replace("  - {counter: position}\n", terms)
    return text.replace(
        "    lead_changes: {counter: position}\n",
        "    lead_changes:\n" + terms.replace("  -", "      -"),
    )


@pytest.mark.parametrize("place", ["score", "lead_changes"])
def test_a_sum_of_terms_that_could_pass_64_bits_is_refused_at_the_term(
    tmp_path: Path, place: str
) -> None:
    key = {"score": "score[9]", "lead_changes": "events.lead_changes.lead_changes[9]"}[place]
    inside = far_race("{counter: position, times: 223372036}", place=place)
    game, problems = check_file(write(tmp_path, inside, "inside.yaml"))
    assert problems == [] and game is not None
    outside = far_race("{counter: position, times: 223372037}", place=place)
    # The line of the tenth term, the first that could pass 64 bits.
    line = 1 + outside.splitlines().index(
        next(t for t in outside.splitlines() if "times: 223372037" in t)
    )
    game, problems = check_file(write(tmp_path, outside, "outside.yaml"))
    assert [(p.line, p.key) for p in problems] == [(line, key)]
    assert "could reach 9223372037000000000, past 9223372036854775807" in problems[0].message


def test_a_knob_in_a_term_counts_at_the_end_of_its_range(tmp_path: Path) -> None:
    """times: a knob whose default fits but whose range's end does not: refused; the
    range ends just inside: accepted. A range past ±10**9 is refused as every number is."""
    knob = "knobs:\n  boost: {default: 1, range: [-223372037, 5]}\n"
    text = far_race("{counter: position, times: boost}").replace("knobs:\n", knob)
    _, problems = check_file(write(tmp_path, text))
    assert [p.key for p in problems] == ["score[9]"]
    fits = text.replace("[-223372037, 5]", "[-223372036, 5]")
    assert check_file(write(tmp_path, fits))[1] == []
    wide = own_racer().replace(
        "knobs:\n", "knobs:\n  boost: {default: 1, range: [0, 1000000001]}\n"
    )
    _, problems = check_file(write(tmp_path, wide))
    assert [p.key for p in problems] == ["knobs.boost.range"]


def test_a_variants_deck_that_would_make_a_zone_term_overflow_is_refused(tmp_path: Path) -> None:
    """A zone scored per number: fine on the file's deck (numbers 1..6); a variant's deck
    of numbers up to 10**9 (36 cards, their numbers summing to about 3.6 × 10**10) times
    per_number 10**9 passes 2**63 - 1; numbers up to 10**6 fit."""
    text = (
        own_racer()
        .replace("flags:\n", "zones:\n  garage: {face: up}\nflags:\n")
        .replace("  speed:\n", "  speed:\n    - place: {zone: garage}\n")
        .replace(
            "  - {counter: position}\n",
            "  - {counter: position}\n  - {zone: garage, per_number: 1000000000}\n",
        )
    )
    assert check_file(write(tmp_path, text))[1] == []
    try:
        for high, code in ((1_000_000, 0), (1_000_000_000, 2)):
            deck = f"deck: {{numbers: [{high - 5}, {high}]}}\n"
            text = f"game: ./game.yaml\nplayers: 3\nbots: random\n{deck}"
            result = CliRunner().invoke(cli, ["validate", str(write(tmp_path, text, "v.yaml"))])
            assert result.exit_code == code, result.output
    finally:  # the registry is the process's: leave it as other tests expect it
        if games.registered("my-racer"):
            games.unregister("my-racer")
    assert "with this deck, the sum up to this term could reach" in result.stderr


# The guide's advice: extend a shipped game and replace one role. MEGA RACER's block
# counted `blocks` (declared at BLOCKS_LINE of mega-racer.yaml); this block counts nothing.
BLOCKS_LINE = 1 + next(
    i
    for i, line in enumerate((SHIPPED / "mega-racer.yaml").read_text().splitlines())
    if line == "  blocks:"
)
DROPPED = f"mega-racer.yaml:{BLOCKS_LINE}: events.blocks: dropped"
ONE_ROLE = """\
extends: mega-racer
name: slow-racer
short: slow
roles:
  block:
    - add: {counter: position, by: 2}
"""


def test_an_inherited_event_nothing_counts_any_more_is_dropped_with_a_note(
    tmp_path: Path,
) -> None:
    game, problems = check_file(write(tmp_path, ONE_ROLE))
    assert problems == [] and game is not None
    assert "blocks" not in {e.name for e in game.events} and "moves" in {
        e.name for e in game.events
    }
    assert len(game.notes) == 1
    assert game.notes[0].startswith(DROPPED)
    result = CliRunner().invoke(cli, ["validate", str(write(tmp_path, ONE_ROLE))])
    assert result.exit_code == 0
    assert result.stderr.startswith(
        f"balancer: note: mega-racer.yaml:{BLOCKS_LINE}: events.blocks: dropped"
    )
    # And validating a variant on it says the same.
    variant = write(tmp_path, "game: ./game.yaml\nplayers: 3\nbots: random\n", "v.yaml")
    try:
        result = CliRunner().invoke(cli, ["validate", str(variant)])
    finally:
        if games.registered("slow-racer"):
            games.unregister("slow-racer")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        f"balancer: note: mega-racer.yaml:{BLOCKS_LINE}: events.blocks: dropped"
    )


def test_an_event_the_replaced_role_still_counts_is_kept_without_a_note(tmp_path: Path) -> None:
    """The control: the replaced block counts blocks itself, so the event stays."""
    text = ONE_ROLE.replace("by: 2}", "by: 2, event: blocks}")
    game, problems = check_file(write(tmp_path, text))
    assert problems == [] and game is not None
    assert "blocks" in {e.name for e in game.events} and game.notes == ()


def test_null_removes_an_inherited_key_and_the_shipped_file_is_named_by_its_name(
    tmp_path: Path,
) -> None:
    """`events: {blocks: null}` drops the event (no note: the designer said so);
    `flags: {blocking: null}` drops the flag, which mega-racer's own roles use: those
    mistakes are the shipped file's lines, named `mega-racer.yaml`, not where it lies."""
    dropped = ONE_ROLE + "events:\n  blocks: null\n"
    game, problems = check_file(write(tmp_path, dropped))
    assert problems == [] and game is not None and game.notes == ()
    assert "blocks" not in {e.name for e in game.events}
    no_flag = dropped + "flags:\n  blocking: null\n"
    _, problems = check_file(write(tmp_path, no_flag))
    assert [(p.file, p.line, p.key) for p in problems] == [
        ("mega-racer.yaml", 46, "roles.accident[0].add.unless")
    ]
    assert problems[0].message.startswith("mega-racer.yaml:46: roles.accident[0].add.unless: ")


@pytest.mark.parametrize("command", ["run", "knobs", "events"])
def test_every_command_that_reads_the_file_says_the_inherited_event_is_dropped(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not only `validate`: a run, or the knobs and events listed, leave `blocks` out,
    and say why, once, even for two variants on the game."""
    game_file = write(tmp_path, ONE_ROLE)
    if command == "run":
        one = write(tmp_path, "game: ./game.yaml\nplayers: 3\ngames: 4\nbots: random\n", "a.yaml")
        two = write(tmp_path, "game: ./game.yaml\nplayers: 4\ngames: 4\nbots: random\n", "b.yaml")
        monkeypatch.chdir(tmp_path)  # the reports go to reports/ here
        args = ["run", str(one), str(two), "-q"]
    else:
        args = [command, str(game_file)]
    try:
        result = CliRunner().invoke(cli, args)
    finally:
        if games.registered("slow-racer"):
            games.unregister("slow-racer")
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if "balancer: note:" in line]
    assert len(notes) == 1 and notes[0].startswith(
        f"balancer: note: mega-racer.yaml:{BLOCKS_LINE}: events.blocks: dropped"
    ), result.stderr
