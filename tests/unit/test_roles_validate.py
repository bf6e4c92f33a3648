"""A bad game file: every mistake at once from `validate`, one line naming file:line: key.

And before any game is played: a variant naming a bad game file fails with one
line and exit 2, and writes no report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer.cli import cli
from balancer.games.roles import check_file, gamefile, is_game_file

BAD = """\
name: bad-race
short: bad
players: [2, 6]
deck:
  colours: [red, blue]
  roles: [speed, crash, block]
  numbers: [1, 3]
hand_size: 5
zones:
  track: {face: up}
  garage: {face: sideways}
counters:
  position: {max: 100}
flags:
  shield: {}
  position: {}
knobs:
  boost: {default: 9, range: [0, 5]}
roles:
  speed:
    - add: {counter: positon, by: 2}
    - plase: {zone: track}
  crash:
    - choose:
        - add: {counter: position, by: -1, target: rival, unles: shield}
        - choose:
            - guard: {flag: shield}
  blocker:
    - guard: {flag: sheild, target: nobody}
    - place: {zone: track}
score:
  - {zone: track}
  - {counter: position, times: fast}
end:
  - {counter: position, reaches: 1000}
events:
  crashes:
    meaning: a crash
"""

# (line, key, a piece of the message): every mistake of BAD, worked out by reading it.
EXPECTED = [
    (6, "deck.roles[2]", "role 'block' has no definition under roles: (did you mean 'blocker'?)"),
    (8, "hand_size", "the deck holds 18 cards, too few to deal 5 to each of 6 players"),
    (11, "zones.garage.face", "expected up or down"),
    (11, "zones.garage", "nothing fills this zone"),
    (16, "flags.position", "declared twice (also a counter at counters.position)"),
    (18, "knobs.boost.default", "must be in 0..5"),
    (21, "roles.speed[0].add.counter", "unknown counter 'positon' (did you mean 'position'?)"),
    (22, "roles.speed[1].plase", "unknown primitive (did you mean 'place'?)"),
    (25, "roles.crash[0].choose[0].add.unles", "unknown parameter of add (did you mean 'unless'?)"),
    (26, "roles.crash[0].choose[1].choose", "choose inside choose"),
    (29, "roles.blocker[0].guard.flag", "unknown flag 'sheild' (did you mean 'shield'?)"),
    (29, "roles.blocker[0].guard.target", "unknown target 'nobody'"),
    (33, "score[1].times", "expected a whole number or a knob"),
    # With effects broken, only the counter's own bound is known: max 100.
    (35, "end[0].reaches", "the deck can never bring position to 1000 (at most 100)"),
]


def copy_of_mega_racer() -> str:
    """The shipped MEGA RACER under a name of its own (a copy keeping it is refused)."""
    text = gamefile.shipped_path("mega-racer").read_text(encoding="utf-8")  # type: ignore[union-attr]
    return text.replace("name: mega-racer", "name: my-racer").replace("short: mr", "short: myr")


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_mistake_of_a_bad_file_is_reported_once_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, BAD)
    game, problems = check_file(path)
    assert game is None
    found = [(p.line, p.key, p.message) for p in problems]
    assert len(found) == len(EXPECTED), "\n".join(p.message for p in problems)
    for (line, key, piece), (got_line, got_key, message) in zip(EXPECTED, found, strict=True):
        assert (got_line, got_key) == (line, key), message
        assert message.startswith(f"{path}:{line}: {key}: ") and piece in message


def test_the_shipped_files_are_valid() -> None:
    """The control: a good file has no problem (so the checks above can pass a file)."""
    for name in gamefile.shipped_names():
        game, problems = check_file(gamefile.shipped_path(name))  # type: ignore[arg-type]
        assert problems == [] and game is not None and game.name == name


def test_validate_prints_every_mistake_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, BAD)
    assert is_game_file(path)
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == len(EXPECTED) and "Traceback" not in result.stderr
    assert all(line.startswith(f"balancer: error: {path}:") for line in lines)


def test_a_variant_on_a_bad_game_file_fails_before_playing(tmp_path: Path) -> None:
    write(tmp_path, BAD)
    variant = write(tmp_path, "game: ./game.yaml\nplayers: 3\nbots: random\n", "v.yaml")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["run", "-q", "-w", "1", str(variant), "-o", str(out)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"balancer: error: {tmp_path / 'game.yaml'}:6: deck.roles[2]: role 'block' "
        "has no definition under roles: (did you mean 'blocker'?)"
    ]
    assert not out.exists()


GOOD_CHILD = """\
extends: mega-racer
name: slow-racer
short: slow
knobs:
  goal: {default: 12, range: [1, 1000], meaning: the position that ends the race}
roles:
  speed:
    - add: {counter: position, by: 1, event: moves}
"""


def test_a_child_changes_one_role_and_keeps_the_rest(tmp_path: Path) -> None:
    game, problems = check_file(write(tmp_path, GOOD_CHILD))
    assert problems == [] and game is not None
    assert game.name == "slow-racer" and set(game.roles) == {"speed", "accident", "block"}
    assert game.roles["speed"].resolve[0].params["by"] == ("int", 1)  # type: ignore[union-attr]
    assert {k.name: k.default for k in game.knobs}["goal"] == 12


def test_a_childs_mistake_is_blamed_on_the_child_and_a_parents_on_the_parent(
    tmp_path: Path,
) -> None:
    parent = write(
        tmp_path,
        gamefile.shipped_path("mega-racer")
        .read_text(encoding="utf-8")  # type: ignore[union-attr]
        .replace("event: blocks", "event: blokcs"),
        "parent.yaml",
    )
    child = write(
        tmp_path,
        GOOD_CHILD.replace("extends: mega-racer", "extends: parent.yaml").replace(
            "by: 1,", "by: fast,"
        ),
    )
    _, problems = check_file(child)
    where = sorted((p.file, p.key) for p in problems)
    assert where == [
        (str(child), "roles.speed[0].add.by"),
        (str(parent), "roles.block[0].guard.event"),
    ]


@pytest.mark.parametrize(
    ("text", "key", "piece"),
    [
        ("players: [2, six]", "players[1]", "expected a whole number"),
        ("players: [5, 2]", "players", "fewest (5) is more than most (2)"),
        ("win: most", "win", "expected highest or lowest"),
        ("extends: no-such-game", "extends", "no shipped game or game file"),
    ],
)
def test_wrong_types_and_ranges_name_their_key(
    tmp_path: Path, text: str, key: str, piece: str
) -> None:
    base = copy_of_mega_racer()
    top = text.split(":")[0]
    lines = [line for line in base.splitlines() if not line.startswith(f"{top}:")]
    _, problems = check_file(write(tmp_path, "\n".join([*lines, text]) + "\n"))
    assert [p.key for p in problems] == [key] and piece in problems[0].message


# Every effect is right here: what they add up to is checked too.
UNREACHABLE = """\
name: short-race
short: sr
players: [2, 4]
deck: {colours: [red], roles: [step, stash], numbers: [1, 2], copies: 1}
hand_size: 1
zones:
  pocket: {face: down}
  shelf: {face: up}
counters:
  lap: {}
roles:
  step:
    - add: {counter: lap, by: number, event: steps}
    - place: {zone: pocket}
  stash:
    - move_all: {from: pocket, to: shelf, event: stashes}
score:
  - {counter: lap}
end:
  - {counter: lap, reaches: 5}
events:
  steps: {meaning: a step}
  stashes: {meaning: a stash}
  idles: {meaning: never counted}
"""


def test_what_the_effects_add_up_to_is_checked(tmp_path: Path) -> None:
    # The two steps (numbers 1 and 2) bring a lap counter to 3 at most; the pocket
    # feeds the shelf, which nothing scores, so neither scores; idles is counted by
    # nothing.
    _, problems = check_file(write(tmp_path, UNREACHABLE))
    found = [(p.line, p.key) for p in problems]
    assert found == [
        (7, "zones.pocket"),
        (8, "zones.shelf"),
        (20, "end[0].reaches"),
        (24, "events.idles"),
    ]
    messages = [p.message for p in problems]
    assert "nothing scores this zone" in messages[0] and "nothing scores" in messages[1]
    assert "the deck can never bring lap to 3" not in messages[2]
    assert "the deck can never bring lap to 5 (at most 3)" in messages[2]
    assert "no effect counts it" in messages[3]


def test_the_same_file_made_right_passes(tmp_path: Path) -> None:
    """The control: score the shelf, aim at 3, drop idles: no problem left."""
    fixed = (
        UNREACHABLE.replace("  - {counter: lap}\n", "  - {counter: lap}\n  - {zone: shelf}\n")
        .replace("reaches: 5", "reaches: 3")
        .replace("  idles: {meaning: never counted}\n", "")
    )
    game, problems = check_file(write(tmp_path, fixed))
    assert problems == [] and game is not None


@pytest.mark.parametrize(
    ("old", "new", "key", "piece"),
    [
        (
            "event: moves",
            "event: movs",
            "roles.speed[0].add.event",
            "unknown event 'movs' (did you mean 'moves'?)",
        ),
        (
            "knobs:\n",
            "knobs:\n  hand_size: {default: 3}\n",
            "knobs.hand_size",
            "'hand_size' is a name the engine already uses",
        ),
        (
            "  blocking: {lasts: trick}",
            "  blocking: {lasts: round}",
            "flags.blocking.lasts",
            "expected trick or game",
        ),
        ("ja: MEGA RACER", "ja: [MEGA, RACER]", "names.ja", "expected the title as text"),
        # A key left empty (YAML's null) is said to be empty, not missing.
        ("players: [2, 6]", "players: null", "players", "is empty (null); expected [fewest, most]"),
        ("hand_size: 5", "hand_size:", "hand_size", "is empty (null); expected a whole number"),
        ("short: myr", "short: ~", "short", "is empty (null); expected a plain name"),
        # Text that reads other than it is, refused as in a variant's name.
        (
            "ja: MEGA RACER",
            'ja: "MEGA\\u200dRACER"',
            "names.ja",
            "must not hold the invisible format character U+200D",
        ),
        (
            "colours: [red, blue]",
            'colours: [red, "bl\\u00adue"]',
            "deck.colours[1]",
            "must not hold the invisible format character U+00AD",
        ),
        (
            "ja: MEGA RACER",
            'ja: "MEGA\\u202eRACER"',
            "names.ja",
            "must not hold the bidirectional control U+202E",
        ),
    ],
)
def test_one_mistake_in_a_good_file_is_the_only_problem(
    tmp_path: Path, old: str, new: str, key: str, piece: str
) -> None:
    base = copy_of_mega_racer()
    assert old in base
    _, problems = check_file(write(tmp_path, base.replace(old, new, 1)))
    assert [p.key for p in problems] == [key], [p.message for p in problems]
    assert piece in problems[0].message


def test_knobs_of_a_game_file_lists_its_own_and_of_a_bad_one_fails_in_one_line(
    tmp_path: Path,
) -> None:
    from balancer import games

    good = write(tmp_path, GOOD_CHILD, "slow.yaml")
    try:
        result = CliRunner().invoke(cli, ["knobs", str(good)])
        assert result.exit_code == 0, result.output
        assert "goal: 12" in result.output and "hand_size: 5" in result.output
    finally:
        if games.registered("slow-racer"):
            games.unregister("slow-racer")
    bad = write(tmp_path, BAD)
    result = CliRunner().invoke(cli, ["knobs", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"balancer: error: {bad}:6: deck.roles[2]: role 'block' has no definition under "
        "roles: (did you mean 'blocker'?)"
    ]


def test_place_only_where_a_resolved_card_is(tmp_path: Path) -> None:
    """A cancelled card is already in the discard, and on_trick_end has no card: a
    place there would put one card in two places."""
    fixed = (
        UNREACHABLE.replace("  - {counter: lap}\n", "  - {counter: lap}\n  - {zone: shelf}\n")
        .replace("reaches: 5", "reaches: 3")
        .replace("  idles: {meaning: never counted}\n", "")
    )
    hooked = fixed.replace(
        "score:\n", "hooks:\n  on_trick_end:\n    - place: {zone: pocket}\nscore:\n"
    )
    _, problems = check_file(write(tmp_path, hooked))
    assert [(p.line, p.key) for p in problems] == [(19, "hooks.on_trick_end[0].place")]
    assert "only a role's resolve steps" in problems[0].message


def test_init_from_a_shipped_game_writes_a_valid_game_file_named_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["init", "--from", "fish-dash-cash", "my-game.yaml"])
    assert result.exit_code == 0, result.output
    game, problems = check_file(tmp_path / "my-game.yaml")
    assert problems == [] and game is not None and game.name == "my-game"
    assert set(game.roles) == {"fish", "dash", "cash"}
    again = CliRunner().invoke(cli, ["init", "--from", "fish-dash-cash", "my-game.yaml"])
    assert again.exit_code == 2 and "init never overwrites" in again.stderr
    unknown = CliRunner().invoke(cli, ["init", "--from", "no-such", "x.yaml"])
    assert unknown.exit_code == 2 and "no shipped game file 'no-such'" in unknown.stderr
    assert not (tmp_path / "x.yaml").exists()


@pytest.mark.parametrize(
    "name",
    ["a" * 300 + ".yaml", "./" + "b" * 5000 + ".yaml", "missing.yaml", "..", "./"],
)
def test_a_game_name_no_file_can_have_is_one_line_exit_2(tmp_path: Path, name: str) -> None:
    """In a variant's game: and in a game file's extends: never a traceback."""
    variant = write(tmp_path, f"game: '{name}'\nplayers: 3\nbots: random\n", "v.yaml")
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    game = write(tmp_path, f"extends: '{name}'\nname: x\nshort: y\n", "g.yaml")
    result = CliRunner().invoke(cli, ["validate", str(game)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{game}:1: extends: " in lines[0], result.stderr


def test_a_designer_starts_from_fish_dash_cash_by_its_name(tmp_path: Path) -> None:
    """`extends: fish-dash-cash` is Fish! Dash! Cash!'s game file; one role changed."""
    child = write(
        tmp_path,
        "extends: fish-dash-cash\nname: no-steals\nshort: ns\nroles:\n"
        "  dash:\n    - guard: {flag: protected, event: protects}\n"
        "events:\n  steals: {meaning: none now, at_end: {zone: bank, per_card: 0}}\n",
    )
    game, problems = check_file(child)
    assert problems == [] and game is not None
    assert (
        set(game.zones) == {"territory", "bank"} and game.roles["dash"].resolve[0].kind == "guard"
    )  # type: ignore[union-attr]


def test_a_zone_terms_bound_is_every_cards_number_summed() -> None:
    """A zone that could hold the whole deck: numbers 1-6 in 2 colours × 3 roles × 1
    copy is 36 cards, each number 6 times, so the numbers sum to 6 × (1 + … + 6) = 126.
    Per card 2 and per number 1 bound the term at 2 × 36 + 126 = 198 (validate's overflow
    check adds these bounds up; a bound too small would let a sum overflow)."""
    from balancer.games.roles.bounds import term_most
    from balancer.games.roles.model import Term

    deck = {"numbers": [1, 6], "colours": ["red", "blue"], "roles": ["a", "b", "c"], "copies": 1}
    term = Term(zone="bank", per_card=("int", 2), per_number=("int", 1))
    assert term_most(term, deck, (), ()) == 198


def made_right() -> str:
    """UNREACHABLE with its three mistakes fixed (test_the_same_file_made_right_passes)."""
    return (
        UNREACHABLE.replace("  - {counter: lap}\n", "  - {counter: lap}\n  - {zone: shelf}\n")
        .replace("reaches: 5", "reaches: 3")
        .replace("  idles: {meaning: never counted}\n", "")
    )


@pytest.mark.parametrize("key", ["per_card", "per_number"])
def test_a_zone_terms_factor_that_is_no_number_names_its_key(tmp_path: Path, key: str) -> None:
    """The shelf term (score[1], line 19 of the file made right) given a factor that is
    neither a number nor a knob: refused at that term's line and factor. (The term is
    then dropped, so the zones are said to score nothing as well.)"""
    text = made_right().replace("{zone: shelf}", f"{{zone: shelf, {key}: fast}}")
    path = write(tmp_path, text)
    _, problems = check_file(path)
    found = [p for p in problems if p.key not in ("zones.pocket", "zones.shelf")]
    assert [(p.line, p.key) for p in found] == [(19, f"score[1].{key}")]
    assert found[0].message.startswith(
        f"{path}:19: score[1].{key}: expected a whole number or a knob, got 'fast'"
    )


def test_an_empty_roles_block_says_what_it_should_hold(tmp_path: Path) -> None:
    """MEGA RACER with `roles: {}`: the block is refused as empty, at its line, saying what
    it should hold. (Nothing then moves a machine: its roles, goal and events are said to
    be unmet too.)"""
    base = copy_of_mega_racer()
    start, end = base.index("roles:\n  speed:"), base.index("score:\n")
    path = write(tmp_path, base[:start] + "roles: {}\n\n" + base[end:])
    _, problems = check_file(path)
    line = base[:start].count("\n") + 1
    assert [p.message for p in problems if p.key == "roles"] == [
        f"{path}:{line}: roles: is empty; expected role: effects, for each of deck.roles"
    ]


# One role adding `by` to a lap counter: the deck's three cards (numbers 1-3, one colour,
# one copy) add 3 * by at most, from the counter's start and never past its max.
LAPS = """\
name: laps
short: lp
players: [2, 3]
deck: {colours: [red], roles: [step], numbers: [1, 3], copies: 1}
hand_size: 1
counters:
  lap: {start: START, max: MAX}
roles:
  step:
    - add: {counter: lap, by: BY}
score:
  - {counter: lap}
end:
  - {counter: lap, reaches: GOAL}
"""


@pytest.mark.parametrize(
    ("start", "most", "by", "goal", "refused"),
    [
        (5, 100, 1, 8, None),  # 5 + 3 * 1 = 8: just reached
        (5, 100, 1, 9, "the deck can never bring lap to 9 (at most 8)"),
        (0, 6, 3, 6, None),  # 3 * 3 = 9, held at the max 6
        (0, 6, 3, 7, "the deck can never bring lap to 7 (at most 6)"),
    ],
)
def test_an_end_goal_counts_from_the_counters_start_and_stops_at_its_max(
    tmp_path: Path, start: int, most: int, by: int, goal: int, refused: str | None
) -> None:
    text = LAPS.replace("START", str(start)).replace("MAX", str(most))
    path = write(tmp_path, text.replace("BY", str(by)).replace("GOAL", str(goal)))
    _, problems = check_file(path)
    if refused is None:
        assert problems == []
    else:
        assert [(p.line, p.key) for p in problems] == [(14, "end[0].reaches")]
        assert refused in problems[0].message


def test_a_reports_kept_game_file_is_validated_again(tmp_path: Path) -> None:
    """A report keeps its game file's content (its chain merged) and the path it came
    from; read back (the file may since have changed or gone), it is the same game, at
    that path. A kept content with a mistake is refused with that mistake, at that path;
    a report holding one is damaged, and its game is not known (no traceback)."""
    from balancer import games
    from balancer.errors import UserError
    from balancer.games.roles import game_of_description

    kept = str(tmp_path / "gone.yaml")
    content = gamefile.read(write(tmp_path, copy_of_mega_racer())).data
    game = game_of_description(content, kept)
    assert (game.name, game.path, game.description) == ("my-racer", kept, content)
    damaged = {**content, "win": "most"}
    with pytest.raises(UserError) as refused:
        game_of_description(damaged, kept)
    assert (refused.value.file, refused.value.key) == (kept, "win")
    assert "expected highest or lowest, got 'most'" in refused.value.message
    assert games.game_kept_by_report("my-racer", {"path": kept, "content": damaged}) is None
