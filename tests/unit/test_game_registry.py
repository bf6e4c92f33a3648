"""The game registry: a game is one registered GameDefinition, found by name and nothing else.

The proof that nothing is looked up by module name: a tiny game defined here,
with no package of its own, is registered and then validated, run and
reported on, its events explained, exactly as a shipped game is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import balancer
from balancer import games, knobs
from balancer.bot import RANDOM
from balancer.games.api import Bounds, GameRecord, GameSpec
from balancer.games.definition import GameDefinition, LocalNames
from balancer.rng import Stream


@dataclass(frozen=True)
class TakeView:
    pile: int


class TakeLast:
    """Take 1 or 2 from a pile in turn; whoever takes the last counter scores 1."""

    def __init__(self, pile: int, players: int) -> None:
        self.pile, self.players = pile, players
        self.turn = 0
        self.moves = 0
        self.trace: list[Any] | None = None

    def current_player(self) -> int:
        return self.turn % self.players

    def legal_actions(self) -> list[int]:
        return [n for n in (1, 2) if n <= self.pile]

    def apply_action(self, action: int) -> None:
        self.pile -= action
        self.moves += 1
        if self.pile:
            self.turn += 1

    def is_terminal(self) -> bool:
        return self.pile == 0

    def view(self, seat: int) -> TakeView:
        return TakeView(self.pile)

    def record(self) -> GameRecord:
        scores = tuple(1.0 if s == self.current_player() else 0.0 for s in range(self.players))
        return GameRecord(scores, self.moves, {"took_two_at_the_end": 0.0})

    def check_invariants(self) -> None:
        assert self.pile >= 0

    def clone(self) -> TakeLast:
        copy = TakeLast(self.pile, self.players)
        copy.turn, copy.moves = self.turn, self.moves
        return copy


def _new_state(rules: Mapping[str, Any], players: int, rng: Stream) -> TakeLast:
    return TakeLast(rules["pile"], players)


def _bounds(rules: Mapping[str, Any], players: int) -> Bounds:
    return Bounds(moves=rules["pile"], length=(1, rules["pile"]), score=(0.0, 1.0))


SPEC = GameSpec(
    name="take-last",
    short="tl",
    min_players=2,
    max_players=3,
    knobs=(knobs.integer("pile", "rules", 7, "counters on the pile at the start", low=1),),
    events=("took_two_at_the_end",),
    higher_is_better=True,
    length_unit="moves",
    rules_version=1,
    new_state=_new_state,
    unplayable=lambda rules, players: None,
    bounds=_bounds,
    resample_hidden=None,
)

DEFINITION = GameDefinition(
    spec=SPEC,
    bots=lambda: {"random": RANDOM},
    event_meanings={"took_two_at_the_end": "never counted: the test's game has no such rule"},
    languages={"ja": lambda: LocalNames("最後取り", {"moves": "手"}, {})},
)


@pytest.fixture()
def take_last() -> Iterator[GameDefinition]:
    games.register(DEFINITION)
    try:
        yield DEFINITION
    finally:
        games.unregister("take-last")


def test_a_registered_game_is_found_by_either_name_and_gone_when_unregistered(
    take_last: GameDefinition,
) -> None:
    assert games.definition("tl") is take_last
    assert games.get("take-last") is SPEC
    assert "take-last" in games.names()
    games.unregister("tl")
    assert games.canonical("take-last") is None
    with pytest.raises(KeyError):
        games.definition("take-last")
    games.register(take_last)  # for the fixture's own unregister


def test_a_name_is_registered_once(take_last: GameDefinition) -> None:
    with pytest.raises(ValueError, match="already registered"):
        games.register(take_last)
    with pytest.raises(ValueError, match="'fdc' is already registered"):
        games.register(
            GameDefinition(spec=_renamed("fish-dash-fake", "fdc"), bots=dict, event_meanings={})
        )


def _renamed(name: str, short: str) -> GameSpec:
    from dataclasses import replace

    return replace(SPEC, name=name, short=short)


def test_a_game_with_no_package_is_run_and_reported_like_a_shipped_one(
    take_last: GameDefinition, tmp_path: Path
) -> None:
    variant_file = tmp_path / "take.yaml"
    variant_file.write_text(
        "game: take-last\nplayers: 2\ngames: 40\nseed: 3\nrules:\n  pile: 1\n"
        "seats:\n  - bot: random\n  - bot: random\n",
        encoding="utf-8",
    )
    variant = balancer.load_variant(variant_file)
    report = balancer.run(variant)
    # With one counter, seat 0 moves first and takes it: every game, one move.
    assert report.n_games == 40
    assert [s.win_share for s in report.seats] == [1.0, 0.0]
    assert report.length is not None and report.length.mean == 1
    assert list(report.events) == ["took_two_at_the_end"]


def test_its_words_come_from_its_definition(take_last: GameDefinition) -> None:
    from balancer import i18n
    from balancer.cli.events import event_meanings

    assert event_meanings("tl") == dict(take_last.event_meanings)
    texts = i18n.game_texts("take-last", "ja")
    assert texts.title == "最後取り" and texts.length_unit == "手"
    assert take_last.kernel() is None  # no kernel: it plays step by step


def test_compile_fixes_knobs_and_players_once() -> None:
    game = games.definition("fdc").compile(knobs.defaults(games.get("fdc").knobs), 5)
    assert game.players == 5 and game.events == games.get("fdc").events
    assert game.bounds == games.get("fdc").bounds(game.rules, 5)
    with pytest.raises(TypeError):
        game.rules["hand_size"] = 1  # type: ignore[index]
    state = game.new_state(Stream(1, 0, 0))
    assert state.current_player() in range(5)
    with pytest.raises(ValueError):
        games.definition("dqz").compile(knobs.defaults(games.get("dqz").knobs), 3)
