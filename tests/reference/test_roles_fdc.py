"""Fish! Dash! Cash! from its game file plays game for game as the hand-written engine.

The shipped game file (games/roles/shipped/fish-dash-cash-roles.yaml) and
games/fdc/engine.py are dealt the same seed and played by the same `random`
bot stream: every decision (seat, legal moves in order, move) and every
record (scores, length, events) must be equal, at the default knobs and at
each knob the file expresses (`cash_value` maps onto two number knobs).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from balancer import games, knobs
from balancer.cli import cli
from balancer.games.api import GameRecord
from balancer.games.roles import gamefile
from balancer.games.roles.definition import build
from balancer.games.roles.validate import check
from balancer.rng import CHANCE, Stream, bot_stream

FDC = games.definition("fish-dash-cash")
ROLES = build(check(gamefile.read(gamefile.shipped_path("fish-dash-cash-roles")))[0])  # type: ignore[arg-type]

# cash_value of the hand-written engine -> (cash_per_card, cash_per_number) of the file
CASH_VALUE = {"count": (1, 0), "face": (0, 1), "face_plus_one": (1, 1)}


def role_rules(fdc_rules: Mapping[str, Any]) -> dict[str, Any]:
    """The file's knobs for the hand-written engine's (same deck, same trick knobs)."""
    out = knobs.defaults(ROLES.spec.knobs)
    for name in out:
        if name in fdc_rules:
            out[name] = fdc_rules[name]
    out["cash_per_card"], out["cash_per_number"] = CASH_VALUE[fdc_rules["cash_value"]]
    return out


def play(
    definition: Any, rules: Mapping[str, Any], players: int, seed: int, index: int
) -> tuple[GameRecord, list[tuple[int, tuple[int, ...], int]]]:
    state = definition.compile(rules, players).new_state(Stream(seed, index, CHANCE))
    bots = [Stream(seed, index, bot_stream(seat)) for seat in range(players)]
    moves = []
    while not state.is_terminal():
        seat, legal = state.current_player(), tuple(state.legal_actions())
        move = legal[bots[seat].randrange(len(legal))]
        moves.append((seat, legal, move))
        state.apply_action(move)
    state.check_invariants()
    return state.record(), moves


def assert_same_games(overrides: Mapping[str, Any], players: int, games_: int, seed: int) -> None:
    fdc_rules = {**knobs.defaults(FDC.spec.knobs), **overrides}
    rules = role_rules(fdc_rules)
    for index in range(games_):
        expected = play(FDC, fdc_rules, players, seed, index)
        found = play(ROLES, rules, players, seed, index)
        assert found == expected, f"{players} players, game {index}"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_default_knobs_play_every_game_as_the_hand_written_engine(players: int) -> None:
    assert_same_games({}, players, 1000, seed=20261203)


KNOB_SETTINGS = [
    {"cash_value": "face"},
    {"cash_value": "face_plus_one", "uncashed_value": -2},
    {"neko_ni_koban": False},
    {"neko_min_followers": 1, "neko_cancel_duplicates": False},
    {"leader_if_nothing_resolves": "next", "first_leader": "random"},
    {"hand_size": 3},
    {
        "deck": {
            "colours": ["red", "blue", "green"],
            "roles": ["cash", "fish", "dash"],
            "numbers": [1, 5],
            "copies": 2,
        }
    },
]


@pytest.mark.parametrize("overrides", KNOB_SETTINGS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("players", [2, 5])
def test_each_knob_plays_every_game_as_the_hand_written_engine(
    overrides: Mapping[str, Any], players: int
) -> None:
    assert_same_games(overrides, players, 150, seed=7)


def test_a_different_seed_is_caught() -> None:
    """The control: the comparison can fail (another seed, another game)."""
    fdc_rules = knobs.defaults(FDC.spec.knobs)
    assert play(FDC, fdc_rules, 4, 1, 0) != play(ROLES, role_rules(fdc_rules), 4, 2, 0)


def test_a_role_changed_by_one_step_is_caught() -> None:
    """Another control: a dash that only protects no longer plays fdc's games."""
    source = gamefile.read(gamefile.shipped_path("fish-dash-cash-roles"))  # type: ignore[arg-type]
    source.data["roles"]["dash"] = [{"guard": {"flag": "protected", "event": "protects"}}]
    source.data["events"].pop("steals")
    changed = build(check(source)[0])  # type: ignore[arg-type]
    fdc_rules = knobs.defaults(FDC.spec.knobs)
    rules = role_rules(fdc_rules)
    assert any(play(FDC, fdc_rules, 3, 5, i) != play(changed, rules, 3, 5, i) for i in range(20))


def test_balancer_run_of_a_designers_copy_writes_fdcs_report(tmp_path: Path) -> None:
    """`game: ./my-fdc.yaml` (the shipped file renamed) through `balancer run`: the
    same scores, seats and events as `game: fish-dash-cash`, one seed, the heuristic
    (the hand-written one, through the file's view) in every seat."""
    shipped = gamefile.shipped_path("fish-dash-cash-roles")
    assert shipped is not None
    text = shipped.read_text(encoding="utf-8")
    text = text.replace("name: fish-dash-cash-roles", "name: my-fdc-copy")
    (tmp_path / "my-fdc.yaml").write_text(text.replace("short: fdc-roles", "short: myfdcc"))
    common = "players: 4\ngames: 200\nseed: 9\nbots: heuristic\n"
    (tmp_path / "file.yaml").write_text("game: ./my-fdc.yaml\n" + common)
    (tmp_path / "fdc.yaml").write_text("game: fish-dash-cash\n" + common)
    try:
        for name in ("file", "fdc"):
            variant = str(tmp_path / f"{name}.yaml")
            result = CliRunner().invoke(
                cli, ["run", "-q", "-w", "1", variant, "-o", str(tmp_path / name)]
            )
            assert result.exit_code == 0, result.output
    finally:  # the registry is the process's: leave it as other tests expect it
        if games.registered("my-fdc-copy"):
            games.unregister("my-fdc-copy")
    for csv in ("scores.csv", "seats.csv", "events.csv"):
        assert (tmp_path / "file" / csv).read_bytes() == (tmp_path / "fdc" / csv).read_bytes()
    summary = (tmp_path / "file" / "summary.md").read_text(encoding="utf-8")
    assert "my-fdc-copy, 4 players, 200 games, seed 9" in summary
    # The report names the file by its path: a later process replays from it, as
    # this one does once the game is out of the registry again.
    assert (
        f'"game": "{tmp_path / "my-fdc.yaml"}"' in (tmp_path / "file" / "report.json").read_text()
    )
    try:
        result = CliRunner().invoke(cli, ["replay", str(tmp_path / "file"), "--game", "3"])
        assert result.exit_code == 0, result.output
        assert "my-fdc-copy" in result.output and "steals" in result.output
    finally:
        if games.registered("my-fdc-copy"):
            games.unregister("my-fdc-copy")


# -- the hand-written `heuristic` on the file -------------------------------


def play_seated(
    definition: Any,
    rules: Mapping[str, Any],
    seating: tuple[str, ...],
    seed: int,
    index: int,
) -> tuple[GameRecord, list[tuple[int, tuple[int, ...], int]]]:
    """One game with the game's own bots in the seats (`seating`: bot names)."""
    from balancer.bot import bot_params_with_defaults

    offered = definition.bots()
    seated = [
        offered[name].factory(**bot_params_with_defaults(offered[name], {})) for name in seating
    ]
    players = len(seating)
    state = definition.compile(rules, players).new_state(Stream(seed, index, CHANCE))
    streams = [Stream(seed, index, bot_stream(seat)) for seat in range(players)]
    moves = []
    while not state.is_terminal():
        seat, legal = state.current_player(), tuple(state.legal_actions())
        move = seated[seat].act(state.view(seat), legal, streams[seat])
        moves.append((seat, legal, move))
        state.apply_action(move)
    return state.record(), moves


SEATINGS = [
    ("heuristic", "heuristic"),
    ("heuristic", "random", "heuristic"),
    ("heuristic",) * 4,
    ("random", "heuristic", "heuristic", "random", "heuristic"),
    ("heuristic",) * 6,
]


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: f"{len(s)}p")
def test_the_heuristic_plays_the_file_as_it_plays_the_hand_written_engine(
    seating: tuple[str, ...],
) -> None:
    fdc_rules = knobs.defaults(FDC.spec.knobs)
    rules = role_rules(fdc_rules)
    for index in range(200):
        expected = play_seated(FDC, fdc_rules, seating, 20261203, index)
        found = play_seated(ROLES, rules, seating, 20261203, index)
        assert found == expected, f"{seating}, game {index}"


@pytest.mark.parametrize("overrides", KNOB_SETTINGS, ids=lambda o: ",".join(o))
def test_the_heuristic_plays_each_knob_as_on_the_hand_written_engine(
    overrides: Mapping[str, Any],
) -> None:
    fdc_rules = {**knobs.defaults(FDC.spec.knobs), **overrides}
    rules = role_rules(fdc_rules)
    seating = ("heuristic", "random", "heuristic", "heuristic")
    for index in range(60):
        assert play_seated(ROLES, rules, seating, 11, index) == play_seated(
            FDC, fdc_rules, seating, 11, index
        ), f"{overrides}, game {index}"


def test_a_game_whose_roles_differ_offers_no_heuristic() -> None:
    """The heuristic's values are Fish! Dash! Cash!'s: a dash that only protects is
    another game (the control: the shipped file, and a copy with another deck and
    scoring, offer it)."""
    source = gamefile.read(gamefile.shipped_path("fish-dash-cash-roles"))  # type: ignore[arg-type]
    source.data["deck"]["copies"] = 2
    source.data["knobs"]["uncashed_value"]["default"] = -1
    assert "heuristic" in build(check(source)[0]).bots()  # type: ignore[arg-type]
    assert "heuristic" in ROLES.bots()
    source.data["roles"]["dash"] = [{"guard": {"flag": "protected", "event": "protects"}}]
    source.data["events"].pop("steals")
    assert set(build(check(source)[0]).bots()) == {"random", "lookahead"}  # type: ignore[arg-type]


@pytest.mark.parametrize("dropped", ["to_resolve", "protected", "played_this_trick"])
def test_a_view_that_loses_part_of_the_position_is_caught(
    dropped: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: the comparison sees each part of the view the heuristic reads."""
    import dataclasses

    from balancer.games.roles import fdc_heuristic

    whole = fdc_heuristic.fdc_view
    empty = frozenset() if dropped == "played_this_trick" else ()
    monkeypatch.setattr(
        fdc_heuristic, "fdc_view", lambda view: dataclasses.replace(whole(view), **{dropped: empty})
    )
    fdc_rules = knobs.defaults(FDC.spec.knobs)
    rules = role_rules(fdc_rules)
    seating = ("heuristic",) * 4
    assert any(
        play_seated(ROLES, rules, seating, 20261203, i)
        != play_seated(FDC, fdc_rules, seating, 20261203, i)
        for i in range(200)
    )
