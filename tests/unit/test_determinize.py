"""determinize(view, rng): a world sampled from what one seat has seen (docs/determinize.md).

For every registered game: a world keeps the seat's view and legal moves and
keeps every invariant; it reads the view alone (two true states that differ
only in what the seat can't see give the same world from the same stream,
and a determinizer that peeks at the true state fails that very check);
successive calls give different worlds; where nothing constrains the deal,
cards land uniformly (a χ² test, seeded, at α = 1e-6, with a biased control);
and Da Qi Zi's must-beat revelations hold, exactly for singles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from scipy import stats

from balancer import games, knobs
from balancer.games.api import GameSpec
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import engine as daqizi
from balancer.games.worlds import reseeded_chance
from balancer.rng import Stream
from tests.unit.test_daqizi import arrange, combo, hand_of, kind

ALPHA = 1e-6  # strict: a seeded test at this level never flakes, a biased sampler still fails

# Per game, rule changes that reach other corners of the state (decks with copies,
# 猫に小判 off; a free leftover, optional breeding, no reshuffle, robots replaced
# after scoring; mixed combinations, discards allowed when able) and player counts.
CASES: dict[str, list[tuple[dict[str, Any], int]]] = {
    "fish-dash-cash": [
        ({}, 4),
        ({}, 2),
        (
            {
                "deck": {
                    "colours": ["red", "blue", "green"],
                    "roles": ["fish", "dash", "cash"],
                    "numbers": [1, 5],
                    "copies": 2,
                },
                "neko_ni_koban": False,
            },
            5,
        ),
    ],
    "kimekimera": [
        ({}, 4),
        ({"leftover": "free", "breeding_optional": True}, 3),
        ({"reshuffle_discards": False, "robot_replacement": "after_scoring", "rounds": 8}, 4),
    ],
    "da-qi-zi": [
        ({}, 4),
        ({"mixed_suit_combos": True}, 4),
        ({"may_discard_when_able": True, "no_capture_last_single_rule": False}, 4),
    ],
}

Determinizer = Callable[[Any, Stream], Any]
# Given the true state, the determinizer a search would use from it: an honest one
# ignores the true state; a leaking one reads it.
Maker = Callable[[Any], Determinizer]


def spec_of(name: str) -> GameSpec:
    spec = games.get(name)
    assert spec.determinize is not None, f"{name} registers no determinize"
    return spec


def full_rules(spec: GameSpec, changes: Mapping[str, Any]) -> Mapping[str, Any]:
    return knobs.freeze({**knobs.defaults(spec.knobs), **changes})


def positions(name: str, games_played: int = 3, seed: int = 11) -> Iterator[tuple[Any, int]]:
    """(state, seat) at every decision of a few random games per case, each seat in turn,
    and every seat once the game is over."""
    spec = spec_of(name)
    for case, (changes, players) in enumerate(CASES[name]):
        rules = full_rules(spec, changes)
        for game in range(games_played):
            state = spec.new_state(rules, players, Stream(seed, 100 * case + game, 0))
            moves = Stream(seed, 100 * case + game, 1)
            while not state.is_terminal():
                yield state, state.current_player()
                yield state, (state.current_player() + 1) % players
                legal = state.legal_actions()
                state.apply_action(legal[moves.below(len(legal))])
            for seat in range(players):
                yield state, seat


def plain(value: Any) -> Any:
    """A value as nested tuples, comparable and printable (streams as key and counter)."""
    if isinstance(value, Stream):
        return ("stream", value.key, value.counter)
    if isinstance(value, Mapping):
        return tuple(sorted((k, plain(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(plain(v) for v in value))
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    return value


def structure(state: Any) -> tuple[Any, ...]:
    """Everything a State holds (its trace aside): two worlds are the same world when equal."""
    names = [n for n in type(state).__slots__ if n not in ("trace", "_trace", "rules")]
    return tuple((name, plain(getattr(state, name))) for name in names)


# -- twins: the true state with what `seat` can't see dealt otherwise (test-side, from
# the true state's own fields, independently of determinize)


def twin(state: Any, seat: int, stream: Stream, stacked: bool = False) -> Any:
    """The true state with the cards `seat` can't see dealt again: shuffled by `stream`,
    or stacked (sorted high to low, so the first other seat gets the strongest)."""
    other = state.clone()
    if hasattr(other, "territory"):  # fdc: the other hands and the pile
        rivals = [s for s in range(len(other.hands)) if s != seat]
        pool = [c for s in rivals for c in other.hands[s]] + other.pile
        if stacked:
            pool.sort(key=lambda c: (other.deck.number[c], c), reverse=True)
        else:
            stream.shuffle(pool)
        for s in rivals:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
        other.pile = pool
    elif hasattr(other, "mine"):  # kk: the deck's order and the chance to come
        other.deck.sort(reverse=stacked)
        if not stacked:
            stream.shuffle(other.deck)
        other.rng = Stream(stream.next_u64(), 0, 0)
    else:  # dqz: the other hands, and the chance to come (the next deals)
        rivals = [s for s in range(4) if s != seat]
        pool = [k for s in rivals for k in range(dc.N_KINDS) for _ in range(other.hands[s][k])]
        if stacked:
            pool.sort(reverse=True)
        else:
            stream.shuffle(pool)
        for s in rivals:
            hand = [0] * dc.N_KINDS
            for _ in range(other.sizes[s]):
                hand[pool.pop(0)] += 1
            other.hands[s] = hand
            other.packed[s] = dc.pack(hand)
        other.rng = Stream(stream.next_u64(), 0, 0)
    return other


def assert_reads_only_the_view(make: Maker, one: Any, two: Any, seat: int, rng: Stream) -> None:
    """Two true states the seat can't tell apart give the same world from the same stream."""
    assert one.view(seat) == two.view(seat), "the twins are not alike to the seat"
    world_one = make(one)(one.view(seat), rng.copy())
    world_two = make(two)(two.view(seat), rng.copy())
    assert structure(world_one) == structure(world_two), "the world depends on hidden cards"


def honest(spec: GameSpec) -> Maker:
    assert spec.determinize is not None
    determinize = spec.determinize
    return lambda true: determinize


def clone_of_the_truth(true: Any) -> Determinizer:
    """OpenSpiel's gin rummy bug: the 'sample' is the true state."""
    return lambda view, rng: true.clone()


def real_hidden_cards(true: Any) -> Determinizer:
    """Keeps the rivals' real hands (fdc: only the pile shuffled; dqz: the true hands,
    the chance reseeded) or kk's real deck order (the chance reseeded)."""

    def leak(view: Any, rng: Stream) -> Any:
        world = true.clone()
        if hasattr(world, "pile"):
            rng.shuffle(world.pile)
        else:
            world.rng = reseeded_chance(rng)
        return world

    return leak


def true_chance(spec: GameSpec) -> Maker:
    """Samples the cards honestly, but goes on with the true game's chance stream (kk,
    dqz: the future lotteries and deals); fdc keeps none, so it peeks at the pile order."""

    def make(true: Any) -> Determinizer:
        def leak(view: Any, rng: Stream) -> Any:
            assert spec.determinize is not None
            world = spec.determinize(view, rng)
            if hasattr(true, "rng"):
                world.rng = true.rng.copy()
            else:
                world.pile = list(true.pile)
            return world

        return leak

    return make


def differs(one: Any, two: Any) -> bool:
    return structure(one) != structure(two)


def twin_positions(name: str) -> Iterator[tuple[Any, Any, int]]:
    """(true state, a twin the seat can't tell from it, seat), stacked and shuffled twins."""
    stream = Stream(5, 0, 99)
    for state, seat in positions(name, games_played=2):
        if state.is_terminal():
            continue
        for stacked in (False, True):
            other = twin(state, seat, stream, stacked)
            if differs(state, other):
                other.check_invariants()
                yield state, other, seat


# -- the tests -----------------------------------------------------------------------


@pytest.mark.parametrize("name", games.names())
def test_a_world_keeps_the_seats_view_and_legal_moves(name: str) -> None:
    spec = spec_of(name)
    assert spec.determinize is not None
    rng = Stream(3, 0, 7)
    checked = 0
    for state, seat in positions(name):
        view = state.view(seat)
        world = spec.determinize(view, rng)
        world.check_invariants()
        assert world.view(seat) == view
        assert world.is_terminal() == state.is_terminal()
        if not state.is_terminal():
            assert world.current_player() == state.current_player()
            if state.current_player() == seat:
                assert list(world.legal_actions()) == list(state.legal_actions())
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("name", games.names())
def test_a_world_plays_on_to_the_end(name: str) -> None:
    """A world is a whole game: played on at random, every move keeps the invariants."""
    spec = spec_of(name)
    assert spec.determinize is not None
    rng = Stream(4, 0, 7)
    ended = 0
    for n, (state, seat) in enumerate(positions(name, games_played=1)):
        if n % 7 or state.is_terminal():
            continue
        world = spec.determinize(state.view(seat), rng)
        while not world.is_terminal():
            legal = world.legal_actions()
            world.apply_action(legal[rng.below(len(legal))])
            world.check_invariants()
        assert world.record().scores
        ended += 1
    assert ended > 10


def check_no_peek(make: Maker, name: str) -> int:
    """Every twin position of the game gives the same world from `make`'s determinizer,
    whatever the true state it was made from; returns the pairs checked."""
    rng = Stream(8, 0, 3)
    pairs = 0
    for one, two, seat in twin_positions(name):
        assert_reads_only_the_view(make, one, two, seat, rng)
        pairs += 1
    return pairs


@pytest.mark.parametrize("name", games.names())
def test_twins_the_seat_cannot_tell_apart_give_the_same_world(name: str) -> None:
    assert check_no_peek(honest(spec_of(name)), name) > 100


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("leak", ["clone", "real hidden cards", "true chance or pile"])
def test_a_peeking_determinizer_fails_the_same_check(name: str, leak: str) -> None:
    """The control: the very check the honest determinizer passes fails a determinizer
    that reads the true state."""
    spec = spec_of(name)
    make: Maker = {
        "clone": lambda true: clone_of_the_truth(true),
        "real hidden cards": lambda true: real_hidden_cards(true),
        "true chance or pile": true_chance(spec),
    }[leak]
    with pytest.raises(AssertionError, match="the world depends on hidden cards"):
        check_no_peek(make, name)


@pytest.mark.parametrize("name", games.names())
def test_successive_calls_give_different_worlds(name: str) -> None:
    spec = spec_of(name)
    assert spec.determinize is not None
    changes, players = CASES[name][0]
    state = spec.new_state(full_rules(spec, changes), players, Stream(1, 0, 0))
    view = state.view(0)
    rng = Stream(2, 0, 5)
    worlds = [structure(spec.determinize(view, rng)) for _ in range(30)]
    assert len(set(worlds)) == 30
    # and the same stream gives the same world
    again = Stream(2, 0, 5)
    assert structure(spec.determinize(view, again)) == worlds[0]


# -- uniform where nothing constrains the deal -----------------------------------------


def hidden_layout(world: Any, seat: int) -> list[int]:
    """Where the world put what the seat can't see, as one list: fdc the other hands then
    the pile; kk the deck; dqz the other hands' kinds, seat after seat."""
    if hasattr(world, "territory"):
        return [c for s in range(world.players) if s != seat for c in world.hands[s]] + world.pile
    if hasattr(world, "mine"):
        return list(world.deck)
    return [
        k
        for s in range(4)
        if s != seat
        for k in range(dc.N_KINDS)
        for _ in range(world.hands[s][k])
    ]


def uniformity_p(layouts: list[list[int]], bins: int) -> float:
    """p-value of a χ² test that each card (or kind) lands in each of `bins` stretches
    of the layout (as near equal as its length allows) as often as a uniform deal puts
    it there. The table's margins are fixed by every
    sample (each stretch holds as many cards, each card lands once), so its statistic
    has (cards - 1)(bins - 1) degrees of freedom, as a test of independence."""
    size = len(layouts[0])
    labels = sorted(set(layouts[0]))
    counts = {label: [0] * bins for label in labels}
    for layout in layouts:
        for position, label in enumerate(layout):
            counts[label][position * bins // size] += 1
    table = [counts[label] for label in labels]
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    total = sum(rows)
    statistic = sum(
        (table[i][j] - rows[i] * cols[j] / total) ** 2 / (rows[i] * cols[j] / total)
        for i in range(len(rows))
        for j in range(bins)
    )
    return float(stats.chi2.sf(statistic, (len(rows) - 1) * (bins - 1)))


# Stretches of each game's hidden layout at the start: fdc 4p 15 + 40 = 55 cards in
# 11 stretches of 5 (each other hand is one); kk 4p a deck of 34 (54 - 8 - 8 - 2,
# less a grey theme redrawn at this seed) in 6; dqz the 24 cards of the 3 other hands,
# in 3 of 8 (each hand is one).
BINS = {"fish-dash-cash": 11, "kimekimera": 6, "da-qi-zi": 3}


def start_view(name: str, seed: int = 1) -> Any:
    spec = spec_of(name)
    changes, players = CASES[name][0]
    return spec.new_state(full_rules(spec, changes), players, Stream(seed, 0, 0)).view(0)


class Skewed(Stream):
    """A stream a biased sampler draws from: its shuffles shuffle only the first half
    of the list, and `below` takes the lower of two draws (low indices first)."""

    def shuffle(self, values: Any) -> None:
        half = list(values[: len(values) // 2])
        Stream.shuffle(self, half)
        values[: len(half)] = half

    def below(self, n: int) -> int:
        return min(Stream.below(self, n), Stream.below(self, n))


def skewed(spec: GameSpec) -> Determinizer:
    """The game's own determinize drawing from a Skewed stream: the χ² test's control."""
    assert spec.determinize is not None
    determinize = spec.determinize

    def sample(view: Any, rng: Stream) -> Any:
        stream = Skewed.__new__(Skewed)
        stream.key, stream.counter = rng.next_u64(), 0
        return determinize(view, stream)

    return sample


@pytest.mark.parametrize("name", games.names())
def test_cards_land_uniformly_where_nothing_constrains_them(name: str) -> None:
    """At the start (no revelation yet), each unseen card lands in each stretch of the
    hidden layout as often as a uniform deal puts it there; a sampler that draws from a
    skewed stream is rejected by the same test."""
    spec = spec_of(name)
    assert spec.determinize is not None
    view = start_view(name)
    rng = Stream(21, 0, 4)
    layouts = [hidden_layout(spec.determinize(view, rng), 0) for _ in range(3000)]
    assert uniformity_p(layouts, BINS[name]) > ALPHA
    sample = skewed(spec)
    rng = Stream(21, 0, 4)
    layouts = [hidden_layout(sample(view, rng), 0) for _ in range(3000)]
    assert uniformity_p(layouts, BINS[name]) < ALPHA


# -- Da Qi Zi's must-beat revelations, in hand-made deals ------------------------------


def dqz_deal(hands: list[list[str]], moves: list[int], **changes: Any) -> daqizi.State:
    rules = {**knobs.defaults(daqizi.KNOBS), **changes}
    state = daqizi.new_state(rules, 4, Stream(1, 0, 0))
    arrange(state, hands, leader=0)
    for move in moves:
        assert move in state.legal_actions(), dc.describe_move(move)
        state.apply_action(move)
    state.check_invariants()
    return state


def discard_of(*codes: str) -> int:
    return dc.DISCARD_OF_PACKED[dc.pack(hand_of(*codes))]


def test_a_single_revelation_is_met_exactly() -> None:
    """Seat 0 leads a black cannon; seat 1 can't beat it and discards a card face down,
    so both its cards were of kind at most black cannon: black or red soldiers, or the
    other black cannon. Seen by seat 0 (who holds a red advisor), 5 + 5 + 1 = 11 such
    cards are unseen, so seat 1's last card is a black soldier 5/11 of the time, a red
    soldier 5/11, the black cannon 1/11. Seat 3, who could not beat a red general,
    is not constrained at all."""
    state = dqz_deal(
        [["bC", "rA"], ["bS", "rS"], ["rG", "bS"], ["rC", "bH"]],
        [combo("bC"), discard_of("rS"), combo("rG"), discard_of("bH")],
    )
    view = state.view(0)
    assert view.face_down == ((1, 1, combo("bC"), 1), (3, 1, combo("rG"), 2))
    rng = Stream(6, 0, 1)
    seen = {kind("bS"): 0, kind("rS"): 0, kind("bC"): 0}
    seat_3_kinds = set()
    for _ in range(3300):
        world = daqizi.sample_world(view, rng)
        assert world.attempts == 1 and world.dropped == 0  # singles need no rejection
        (last,) = [k for k in range(dc.N_KINDS) if world.state.hands[1][k]]
        assert last in seen, dc.describe_kind(last)
        seen[last] += 1
        (down,) = dc.MOVE_KINDS[world.state.own_down[1][0]]
        assert down <= kind("bC")
        seat_3_kinds |= {k for k in range(dc.N_KINDS) if world.state.hands[3][k]}
    expected = [3300 * 5 / 11, 3300 * 5 / 11, 3300 * 1 / 11]
    observed = [seen[kind("bS")], seen[kind("rS")], seen[kind("bC")]]
    assert stats.chisquare(observed, expected).pvalue > ALPHA
    assert max(seat_3_kinds) > kind("bC")  # seat 3's revelation (under a general) binds nothing


def test_a_pair_revelation_holds_in_every_world() -> None:
    """Seat 0 leads a pair of black soldiers; seat 1 discards two cards face down, so its
    three cards held no pair stronger: no two alike but black soldiers. Every world
    keeps that (by rejection), and seat 1's cards still vary from world to world."""
    state = dqz_deal(
        [["bS", "bS", "rG"], ["rS", "bC", "bH"], ["rS", "rS", "bS"], ["bA", "rA", "bS"]],
        [combo("bS", "bS"), discard_of("rS", "bC"), combo("rS", "rS")],
    )
    view = state.view(0)
    assert view.face_down == ((1, 2, combo("bS", "bS"), 1),)
    rng = Stream(6, 0, 2)
    hands = set()
    for _ in range(400):
        world = daqizi.sample_world(view, rng)
        assert world.dropped == 0
        held = list(world.state.hands[1])
        for kind_ in dc.MOVE_KINDS[world.state.own_down[1][0]]:
            held[kind_] += 1
        assert not dc.can_beat_packed(dc.pack(held), combo("bS", "bS"), False)
        hands.add(tuple(held))
    assert len(hands) > 50


def test_a_discard_the_last_trick_rule_forced_reveals_nothing() -> None:
    """In a last trick of singles, a seat with nothing captured can only discard: that
    says nothing about its card, so the view records no revelation."""
    state = dqz_deal([["bS"], ["rG"], ["rS"], ["bC"]], [combo("bS")])
    state.apply_action(state.legal_actions()[0])  # seat 1's forced discard of its general
    view = state.view(0)
    assert view.face_down == ((1, 1, -1, 1),)
    rng = Stream(6, 0, 3)
    downs = {dc.MOVE_KINDS[daqizi.determinize(view, rng).own_down[1][0]][0] for _ in range(300)}
    assert max(downs) > kind("bS")


def test_own_discards_are_remembered_and_never_redealt() -> None:
    """The seat's own face-down discards are in its view, and a world keeps them (its
    hidden pool is the rest); another seat's view does not show them."""
    state = dqz_deal(
        [["rC", "rA"], ["bS", "rS"], ["rG", "bH"], ["bC", "bE"]],
        [combo("rC"), discard_of("bS")],
    )
    assert state.view(1).my_discards == (discard_of("bS"),)
    assert state.view(0).my_discards == ()
    rng = Stream(6, 0, 4)
    for _ in range(50):
        world = daqizi.determinize(state.view(1), rng)
        assert world.own_down[1] == (discard_of("bS"),)
        assert world.view(1) == state.view(1)
