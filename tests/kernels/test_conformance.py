"""Every registered game and every shipped variant against sim/conformance.py.

Games come from the registry (`games.names()`) and variants from variants/,
so a new game or variant is tested by being there. Below that: the bounds
and resamplers worked out by hand, and a tiny game broken on purpose in each
way the checks look for, to show each check can fail.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from balancer import games, knobs
from balancer.bots import registry as bots
from balancer.config.variant import load
from balancer.errors import InvariantError
from balancer.games.api import Bounds, GameRecord, GameSpec
from balancer.rng import CHANCE, Stream
from balancer.sim.conformance import check_game
from balancer.sim.runner import build_seats

ROOT = Path(__file__).parents[2]
PLAYABLE = [
    p for p in sorted((ROOT / "variants").glob("*.yaml")) if not p.name.endswith("-base.yaml")
]


# -- every game, every variant ----------------------------------------------------


@pytest.mark.parametrize("name", games.names())
def test_every_game_at_its_least_and_most_players(name: str) -> None:
    spec = games.get(name)
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    for players in sorted({spec.min_players, spec.max_players}):
        check_game(spec, rules, players, seed=3, games=2)


@pytest.mark.parametrize("path", PLAYABLE, ids=[p.stem for p in PLAYABLE])
def test_every_shipped_variant_with_its_own_bots(path: Path) -> None:
    variant = load(path)
    seats = build_seats(variant, 10.0)
    check_game(
        variant.spec,
        variant.rules,
        variant.players,
        seed=7,
        games=2,
        bots=lambda index: [s.bot for s in variant.seated(seats, index)],
    )


@pytest.mark.parametrize("name", games.names())
def test_game_module_contract(name: str) -> None:
    spec = games.get(name)
    assert games.canonical(spec.short) == name
    assert 1 <= spec.min_players <= spec.max_players
    assert spec.rules_version >= 1
    assert set(spec.value_events) <= set(spec.events)
    assert len(set(spec.events)) == len(spec.events)
    defaults = knobs.defaults(spec.knobs)
    for knob in spec.knobs:
        assert knob.check(knob.default) == knob.default or knob.default is None, knob.name
        assert knob.meaning and knob.section in knobs.SECTIONS
    assert len({k.name for k in spec.knobs}) == len(spec.knobs)
    assert spec.unplayable(defaults, spec.max_players) is None
    registry = bots.builtin(name)
    assert "random" in registry
    state = spec.new_state(defaults, spec.min_players, Stream(1, 0, CHANCE))
    view = state.view(state.current_player())
    assert dataclasses.is_dataclass(view)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(view, "seat", 99)  # noqa: B010 (a frozen dataclass refuses it)


def _mappings(value: Any) -> list[Mapping[Any, Any]]:
    """`value` if it is a mapping, with every mapping inside it."""
    if not isinstance(value, Mapping):
        return []
    return [value, *(m for v in value.values() for m in _mappings(v))]


@pytest.mark.parametrize("name", games.names())
def test_a_bot_cannot_rewrite_the_rules_through_its_view(name: str) -> None:
    spec = games.get(name)
    # Frozen as a loaded variant's rules are (config/variant.py): what a run hands the game.
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    state = spec.new_state(rules, spec.max_players, Stream(1, 0, CHANCE))
    view = state.view(state.current_player())
    found = [m for f in dataclasses.fields(view) for m in _mappings(getattr(view, f.name))]
    for mapping in found:
        if not mapping:
            continue
        key = next(iter(mapping))
        before = dict(mapping)
        for change in (
            lambda m=mapping, k=key: m.__setitem__(k, 0),
            lambda m=mapping, k=key: m.__delitem__(k),
            lambda m=mapping, k=key: m.update({k: 0}),
            lambda m=mapping, k=key: m.pop(k),
            lambda m=mapping: m.clear(),
        ):
            with pytest.raises((TypeError, AttributeError)):
                change()
        assert dict(mapping) == before
    if hasattr(view, "rules"):  # the rules themselves, and the mappings inside them
        assert any(m is view.rules for m in found)


# -- the declared bounds, by hand -------------------------------------------------


def test_fdc_bounds_by_hand() -> None:
    spec = games.get("fdc")
    rules = knobs.defaults(spec.knobs)
    # 2 colours × 3 roles × 10 numbers: 60 cards, 20 of them fish and 20 dashes.
    assert spec.bounds(rules, 4) == Bounds(moves=80, length=(1, 60), score=(0.0, 20.0))
    # Face value: fish 0..9 in 2 colours is 90 money; 2 points uncashed beats a 0 or a 1.
    face = {**rules, "cash_value": "face", "uncashed_value": 2}
    assert spec.bounds(face, 4).score == (0.0, 90.0 + 2 * (2 + 1))
    assert spec.bounds({**rules, "uncashed_value": -3}, 4).score == (-60.0, 20.0)


def test_kk_bounds_by_hand() -> None:
    spec = games.get("kk")
    rules = knobs.defaults(spec.knobs)
    # 5 rounds; a round scores 24 at worst, 0 - 7 (two colour matches) at best.
    assert spec.bounds(rules, 3) == Bounds(moves=15, length=(5, 5), score=(-35, 120))
    floored = {**rules, "floor_at_zero": True, "colour_bonus": {1: -2, 2: 4}}
    assert spec.bounds(floored, 1).score == (0, 5 * 26)


def test_dqz_bounds_by_hand() -> None:
    spec = games.get("dqz")
    rules = knobs.defaults(spec.knobs)
    # Multiplier at most 1 + 15 = 16; a loser owes -4×16 .. 5×16; a deal moves a
    # seat's chips by -192 .. +240; before the last deal it holds 1 .. 80 - 3.
    assert spec.bounds(rules, 4) == Bounds(moves=512, length=(1, 16), score=(-191, 317))
    capped = {**rules, "multiplier_cap": 2, "max_deals": 3}
    # Owed -8 .. 10: a deal moves -24 .. +30; the bust bound 1 - 24 is above
    # 20 - 3×24, and 80 - 3 + 30 below 20 + 3×30.
    assert spec.bounds(capped, 4).score == (-23, 107)


# -- the resamplers, by hand ------------------------------------------------------


def test_fdc_resample_keeps_what_the_seat_sees_and_every_cashed_fish() -> None:
    """Cashed fish were face up before they were cashed: a redeal leaves them where they are."""
    from balancer.games.fdc.engine import State, parse, resample_hidden

    spec = games.get("fdc")
    rules = knobs.defaults(spec.knobs)
    cards = [parse(t) for t in ("red fish 1", "red dash 2", "blue cash 3", "blue fish 4")]
    state = State.arranged(
        rules,
        [[cards[0]], [cards[1], cards[2]], [cards[3]]],
        pile=[parse("red cash 5")],
        cashed=[[], [parse("red fish 7")], [parse("blue fish 8")]],
    )
    seen = state.view(0)
    hands_before = [list(h) for h in state.hands]
    moved = False
    for k in range(20):
        other = resample_hidden(state, 0, Stream(k, 0, 99))
        other.check_invariants()
        assert other.view(0) == seen and other.hands[0] == [cards[0]]
        assert [len(h) for h in other.hands] == [1, 2, 1] and len(other.pile) == 1
        assert other.cashed == state.cashed
        hidden = {c for s in (1, 2) for c in other.hands[s]} | set(other.pile)
        assert hidden == {cards[1], cards[2], cards[3], parse("red cash 5")}
        moved = moved or other.hands[1:] != hands_before[1:]
    assert state.hands == hands_before  # the state itself is untouched
    assert moved


def test_dqz_resample_keeps_the_seat_hand_and_every_count() -> None:
    from balancer.games.daqizi.engine import resample_hidden

    spec = games.get("dqz")
    state = spec.new_state(knobs.defaults(spec.knobs), 4, Stream(5, 0, CHANCE))
    for _ in range(6):  # into the second trick, with face-down discards likely
        legal = state.legal_actions()
        state.apply_action(legal[-1])
    other = resample_hidden(state, 2, Stream(1, 1, 99))
    other.check_invariants()
    assert other.view(2) == state.view(2)
    assert other.sizes == state.sizes and other.hands[2] == state.hands[2]


# -- each check fails on an engine broken that way --------------------------------


_GAMES_MADE = itertools.count()


class _Toy:
    """Two seats, cards 0..5, two each; two tricks, seat 0 first; the higher card wins."""

    def __init__(self, rules: Mapping[str, Any], players: int, rng: Stream) -> None:
        self.flaw = rules["flaw"]
        self.trace: list[Any] | None = None
        cards = list(range(6))
        rng.shuffle(cards)
        self.hands = [cards[0:2], cards[2:4]]
        self.rest = cards[4:]
        self.trick: list[int] = []
        self.won = [0, 0]
        # A game that reads something outside its streams (here: how many games came before).
        self.ties = next(_GAMES_MADE) % 2 if self.flaw == "nondeterministic" else 0

    def current_player(self) -> int:
        return len(self.trick)

    def legal_actions(self) -> list[int]:
        if self.flaw == "stuck" and self.won == [0, 0] and len(self.hands[0]) == 1:
            return []
        return [] if self.is_terminal() else sorted(self.hands[len(self.trick)])

    def apply_action(self, card: int) -> None:
        self.hands[len(self.trick)].remove(card)
        self.trick.append(card)
        if len(self.trick) == 2:
            self.won[0 if self.trick[0] > self.trick[1] else 1] += 1
            self.trick = []

    def is_terminal(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def view(self, seat: int) -> tuple[Any, ...]:
        if self.flaw == "leaky_view":
            return (seat, tuple(self.hands[seat]), tuple(self.trick), tuple(self.hands[1 - seat]))
        return (seat, tuple(self.hands[seat]), tuple(self.trick), tuple(self.won))

    def record(self) -> GameRecord:
        bonus = 5 if self.flaw == "over_bound" else 0
        return GameRecord((float(self.won[0] + bonus), float(self.won[1])), 2, {"ties": self.ties})

    def check_invariants(self) -> None:
        held = sorted(self.hands[0] + self.hands[1] + self.rest + self.trick)
        if len(held) + 2 * sum(self.won) != 6:
            raise InvariantError("cards not conserved")

    def clone(self) -> _Toy:
        other = _Toy.__new__(_Toy)
        other.__dict__.update(self.__dict__)
        if self.flaw != "shared_clone":
            other.hands = [list(h) for h in self.hands]
            other.trick = list(self.trick)
            other.won = list(self.won)
        return other


def _toy_resample(state: _Toy, seat: int, rng: Stream) -> _Toy:
    other = copy.deepcopy(state)  # not clone(): the clone check is tested on its own
    if state.flaw == "idle_resampler":
        return other
    pool = other.hands[1 - seat] + other.rest
    rng.shuffle(pool)
    size = len(state.hands[1 - seat])
    other.hands[1 - seat], other.rest = pool[:size], pool[size:]
    return other


def _toy_determinizer(flaw: str) -> Callable[[Any, Stream], _Toy]:
    """The toy's determinize: the other hand and the rest dealt from the cards the view
    doesn't show (the toy's view has no recall of won cards, so the rest is short by them)."""

    def determinize(view: tuple[Any, ...], rng: Stream) -> _Toy:
        seat, hand, trick, won = view
        world = _Toy.__new__(_Toy)
        world.flaw, world.trace, world.ties, world.won = flaw, None, 0, list(won)
        world.trick = list(trick)
        other_size = 2 - sum(won) - (1 if seat == 1 and trick else 0)
        pool = [c for c in range(6) if c not in hand and c not in trick]
        rng.shuffle(pool)
        rest_size = 6 - 2 * sum(won) - len(hand) - other_size - len(trick)
        world.hands = [[], []]
        world.hands[seat] = list(hand)
        world.hands[1 - seat] = pool[:other_size]
        if flaw == "lying_world" and other_size == len(hand):  # the seat's hand swapped away
            world.hands.reverse()
        world.rest = pool[other_size : other_size + rest_size]
        return world

    return determinize


def _toy(flaw: str) -> tuple[GameSpec, dict[str, Any]]:
    spec = GameSpec(
        name="toy",
        short="toy",
        min_players=2,
        max_players=2,
        knobs=(),
        events=("ties",),
        higher_is_better=True,
        length_unit="tricks",
        rules_version=1,
        new_state=_Toy,
        unplayable=lambda rules, players: None,
        bounds=lambda rules, players: Bounds(moves=4, length=(2, 2), score=(0.0, 2.0)),
        resample_hidden=_toy_resample,
        determinize=_toy_determinizer(flaw),
    )
    return spec, {"flaw": flaw}


def test_the_toy_game_passes_as_it_is() -> None:
    spec, rules = _toy("none")
    assert len(check_game(spec, rules, 2, seed=1, games=4)) == 4


@pytest.mark.parametrize(
    ("flaw", "message"),
    [
        ("leaky_view", "the view shows a hidden card"),
        ("shared_clone", "changed the original"),
        ("over_bound", "outside the declared 0.0..2.0"),
        ("idle_resampler", "resample_hidden never changed"),
        ("stuck", "no legal move before the end"),
        ("lying_world", "view shows it another view"),
    ],
)
def test_each_check_fails_on_an_engine_broken_that_way(flaw: str, message: str) -> None:
    spec, rules = _toy(flaw)
    with pytest.raises(AssertionError, match=message) as failure:
        check_game(spec, rules, 2, seed=1, games=4)
    assert str(failure.value).startswith("toy: seed 1, game ")


def test_nondeterminism_is_caught() -> None:
    spec, rules = _toy("nondeterministic")
    with pytest.raises(AssertionError, match="the same seed played twice gives another game"):
        check_game(spec, rules, 2, seed=1, games=2)


def test_bots_per_game_follow_the_given_function() -> None:
    asked: list[int] = []

    def bots(index: int) -> Sequence[Any]:
        asked.append(index)
        from balancer.bot import RandomBot

        return [RandomBot(), RandomBot()]

    spec, rules = _toy("none")
    check_game(spec, rules, 2, seed=2, games=3, bots=bots)
    assert asked == [0, 1, 2]


# -- perfect recall of face-down zones (role games) ------------------------------------


def _recall_spec(game: str) -> GameSpec:
    """A role game's spec: a shipped file's, or tests/kernels/recall.yaml's (its steals
    move cards between face-down zones)."""
    from balancer.games.roles import gamefile, load_file
    from balancer.games.roles.definition import build

    path = gamefile.shipped_path(game) or Path(__file__).parent / f"{game}.yaml"
    return build(load_file(path)).spec


def _forgets(spec: GameSpec) -> GameSpec:
    """The spec with a determinize that forgets what the seat saw go face down (the
    control): it draws its worlds from the view with nothing recalled."""
    assert spec.determinize is not None
    draw = spec.determinize

    def determinize(view: Any, rng: Stream) -> Any:
        players = len(view.hand_sizes)
        nothing = {name: ((),) * players for name in view.recalled}
        return draw(dataclasses.replace(view, recalled=nothing), rng)

    return dataclasses.replace(spec, determinize=determinize)


@pytest.mark.parametrize("game", ["fish-dash-cash-roles", "recall"])
def test_worlds_keep_the_cards_seen_going_face_down_and_a_forgetful_one_is_caught(
    game: str,
) -> None:
    spec = _recall_spec(game)
    rules = knobs.defaults(spec.knobs)
    check_game(spec, rules, 4, seed=3, games=3)
    with pytest.raises(AssertionError, match="view shows it another view"):
        check_game(_forgets(spec), rules, 4, seed=3, games=3)
