"""The random discard on the compiled kernel: the hand-made situations of
tests/unit/test_roles_random_discard.py played on the kernel alone end as worked out
by hand there, and step alike on both, position for position (the kernel draws from
streams[CHANCE] what the engine draws from State.chance); random_discard.yaml plays
game for game with the Python interpreter, random and lookahead seats, and passes the
kernel conformance check; the largest count on every seat of six fits.

And no peeking at a future draw: a bot's world draws a chance of its own, from the
bot's stream, never the true game's. GAMBLE is a one-trick game whose outcome a random
discard decides: worked out below, with the controls that a world keeping the true
stream would know it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from balancer import games, knobs
from balancer.bots.search import MonteCarloSearch
from balancer.games.kernel_api import Position
from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import kernel as K
from balancer.games.roles import load_file
from balancer.games.roles.compiled import RoleKernel
from balancer.games.roles.definition import build
from balancer.games.roles.engine import State
from balancer.games.roles.lookahead import Lookahead
from balancer.games.roles.model import RoleGame
from balancer.rng import CHANCE, Stream
from balancer.sim.conformance import check_game
from tests.kernels.test_roles_kernel import assert_same_games, rules_of, stepped_alike
from tests.kernels.test_roles_lookahead_kernel import LOOKAHEAD, RANDOM
from tests.kernels.test_roles_lookahead_kernel import assert_same_games as lookahead_games_alike
from tests.unit.test_roles_random_discard import SHAKE, SITUATIONS, shake

HERE = Path(__file__).parent
RANDOM_DISCARD = load_file(HERE / "random_discard.yaml")


def laid(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's arrays of `state`, chance going on from the State's own."""
    arrays, tables = K.from_state(state)
    streams = K.new_streams(state.players)
    streams[CHANCE] = state.chance.key, state.chance.counter
    return arrays, tables, streams


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_leaves_what_was_worked_out_compiled(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    game = shake(tmp_path)
    arrays, tables, streams = laid(situation.state(game))
    buffer = K.new_legal(arrays, tables)
    for move in situation.moves:
        assert move in buffer[: K.legal(arrays, tables, buffer)].tolist()
        K.apply(arrays, tables, streams, move)
    seen = K.snapshot(arrays, tables, game)
    assert seen["phase"] != K.CHOICE
    assert tuple(map(tuple, seen["hands"])) == situation.after_hands
    assert tuple(map(tuple, seen["zones"]["bag"])) == situation.after_bag
    assert (int(streams[CHANCE, 1]) > 0) == situation.draws
    if seen["phase"] == K.OVER:
        record = K.record(arrays, tables, game)
        assert record.events == {k: float(v) for k, v in situation.expected_events().items()}


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_steps_alike(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    stepped_alike(situation.state(shake(tmp_path)), list(situation.moves))


def test_a_random_discard_from_face_down_makes_its_cards_sure_on_both(tmp_path: Path) -> None:
    """The sacked cards marked unsure by hand (as a steal between face-down zones leaves
    them): the kernel clears their flags as the interpreter does (snapshots compare it)."""
    situation = SITUATIONS["sack-empties-every-rivals-bag"]
    state = situation.state(shake(tmp_path))
    state.unsure = set(situation.bag[1])
    assert K.snapshot_of(state)["unsure"] == sorted(situation.bag[1])  # the control
    stepped_alike(state, list(situation.moves))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_discards_game_for_game(players: int) -> None:
    assert_same_games(RANDOM_DISCARD, rules_of(RANDOM_DISCARD), players, 5, 0, 120)
    other = rules_of(RANDOM_DISCARD, first_leader="random", hand_size=5)
    assert_same_games(RANDOM_DISCARD, other, players, 6, 0, 40)


def test_the_random_discard_game_exercises_what_it_is_for() -> None:
    """The control of the game-for-game test: every discard of the file acts in its
    games, so the comparison above covers each."""
    rules = rules_of(RANDOM_DISCARD)
    cols = K.play_chunk(RANDOM_DISCARD, rules, 3, 5, 0, 120, [("random", {})] * 3, False)
    names = [e.name for e in RANDOM_DISCARD.events]
    totals = dict(zip(names, cols.events.sum(axis=0), strict=True))
    assert all(totals[name] > 0 for name in totals), totals


@pytest.mark.parametrize("players", [2, 4])
def test_lookahead_plays_the_python_bots_games_with_random_discards(players: int) -> None:
    """The compiled lookahead, its worlds' chance keyed from its own stream and every
    move tried from the world's chance start, plays the Python bot's games; beside a
    random seat too."""
    lookahead_games_alike(RANDOM_DISCARD, 3, 3, [LOOKAHEAD] * players)
    lookahead_games_alike(RANDOM_DISCARD, 11, 3, [LOOKAHEAD, RANDOM] * (players // 2))


def test_the_kernel_conformance_check_passes_with_random_discards() -> None:
    definition = build(RANDOM_DISCARD)
    rules = knobs.defaults(definition.spec.knobs)
    for players in (2, 6):
        check_kernel(definition, rules, players, [("random", {})] * players, seed=7, games=5)


def test_the_python_conformance_check_passes_with_random_discards() -> None:
    spec = build(RANDOM_DISCARD).spec
    rules = knobs.defaults(spec.knobs)
    for players in (2, 6):
        check_game(spec, rules, players, seed=3, games=10)


def test_the_largest_count_on_every_seat_plays_alike(tmp_path: Path) -> None:
    """A purge of the most a count may be (knobs.INT_LIMIT) from every seat's hand, six
    seats: each hand is emptied (a few cards, far fewer than asked), on both paths game
    for game; the control: some purge did discard."""
    text = SHAKE.replace(
        "discard: {at_random: true, count: 2, event: purges}",
        f"discard: {{at_random: true, count: {knobs.INT_LIMIT}, target: all, event: purges}}",
    )
    path = tmp_path / "greedy.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_file(path)
    rules = rules_of(game, hand_size=5)
    assert_same_games(game, rules, 6, 3, 0, 40)
    cols = K.play_chunk(game, rules, 6, 3, 0, 40, [("random", {})] * 6, False)
    assert cols.events[:, 0].sum() > 0


# -- no peeking at a future draw ---------------------------------------------------------

# Seat 0 leads gamble 6 or rest 4; seat 1 holds only rest 2. Bags are face up, scored by
# their numbers, and the game ends after this trick. Gamble 6 resolves before rest 2 and
# discards one of seat 1's bag (rest 8, rest 1) at random: rest 8 gone, seat 0 wins
# 7 to 3; rest 1 gone, it loses 7 to 10. Rest 4 ties 11 to 11 whatever the stream. The
# first draw below(2) is 0 on Stream(2390, 0, CHANCE) (rest 8 goes), 1 on Stream(131, 0,
# CHANCE) (rest 1 goes); so are the nine after it, so that a bot whose worlds drew on
# from the true stream, one world after the other, would know the outcome in each.
GAMBLE = """\
name: gamble
short: gb
players: [2, 2]
deck: {colours: [red], roles: [gamble, rest], numbers: [1, 8], copies: 1}
hand_size: 1
zones:
  bag: {face: up}
roles:
  gamble:
    - discard: {from: bag, at_random: true, target: next}
  rest:
    - place: {zone: bag}
score:
  - {zone: bag, per_card: 0, per_number: 1}
end:
  - {tricks: 1}
"""
LUCKY, UNLUCKY = 2390, 131  # the chance streams' keys: the gamble wins, loses


def gamble_card(number: int) -> int:
    return number - 1


def rest_card(number: int) -> int:
    return 8 + number - 1


Gamble = tuple[str, RoleGame]  # its registered name, its game


def _registered(folder: Path, name: str, text: str) -> Gamble:
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return games.register_file(path), load_file(path)


@pytest.fixture(scope="module")
def gamble(tmp_path_factory: pytest.TempPathFactory) -> Gamble:
    return _registered(tmp_path_factory.mktemp("gamble"), "gamble", GAMBLE)


def gamble_state(game: RoleGame, chance: int) -> State:
    state = State.arranged(
        game,
        rules_of(game),
        [[gamble_card(6), rest_card(4)], [rest_card(2)]],
        zones={"bag": [[rest_card(7)], [rest_card(8), rest_card(1)]]},
    )
    state.chance = Stream(chance, 0, CHANCE)
    return state


def test_the_streams_decide_the_gamble(gamble: Gamble) -> None:
    """The hand-work above: the gamble wins on LUCKY, loses on UNLUCKY, on both paths."""
    lucky, unlucky = Stream(LUCKY, 0, CHANCE), Stream(UNLUCKY, 0, CHANCE)
    assert [lucky.below(2) for _ in range(10)] == [0] * 10
    assert [unlucky.below(2) for _ in range(10)] == [1] * 10
    for chance, scores in ((LUCKY, (7.0, 3.0)), (UNLUCKY, (7.0, 10.0))):
        state = gamble_state(gamble[1], chance)
        arrays, tables, streams = laid(state)
        for move in (gamble_card(6), rest_card(2)):
            state.apply_action(move)
            K.apply(arrays, tables, streams, move)
        assert state.is_terminal() and tuple(state.scores()) == scores
        assert K.record(arrays, tables, state.game).scores == scores


def _position(game: RoleGame, chance: int) -> tuple[RoleKernel, Position]:
    kernel = RoleKernel(game)
    state = gamble_state(game, chance)
    return kernel, kernel.from_state(state, [Stream(9, 0, 1 + s) for s in range(2)])


def test_a_compiled_world_draws_its_own_chance(gamble: Gamble) -> None:
    """The kernel's determinize keys the world's chance from the caller's stream: the
    same world whatever the true stream, the gamble played out there ending alike; the
    control: the world with the true stream put back ends as the true game would, a
    win on one stream and a loss on the other."""
    ended, peeked = [], []
    for chance in (LUCKY, UNLUCKY):
        kernel, position = _position(gamble[1], chance)
        assert position.streams[CHANCE].tolist() == [Stream(chance, 0, CHANCE).key, 0]
        world = position.copy()
        kernel.determinize(position, 0, np.array([[12345, 0]], np.uint64), world)
        assert world.streams[CHANCE].tolist() != position.streams[CHANCE].tolist()
        for out, true in ((ended, False), (peeked, True)):
            trial = world.copy()
            if true:
                trial.streams[CHANCE] = position.streams[CHANCE]
            for move in (gamble_card(6), rest_card(2)):
                kernel.apply(trial, move)
            out.append(kernel.scores(trial).tolist())
    assert ended[0] == ended[1]
    assert peeked == [[7.0, 3.0], [7.0, 10.0]]


def test_a_file_drawing_no_chance_draws_no_more(
    gamble: Gamble, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The control of the world's own chance: the same table where the gamble rests
    instead (no random discard in the file): determinize draws only for its deal
    (nothing here: seat 1's one card is the whole pool) and leaves the world's chance
    as it was; the gamble's draws one number more and keys the world's chance anew."""
    text = GAMBLE.replace("name: gamble\nshort: gb", "name: calm\nshort: cm").replace(
        "discard: {from: bag, at_random: true, target: next}", "place: {zone: bag}"
    )
    calm = _registered(tmp_path_factory.mktemp("calm"), "calm", text)
    for game, drawn in ((calm[1], 0), (gamble[1], 1)):
        kernel, position = _position(game, LUCKY)
        world = position.copy()
        key = np.array([[12345, 0]], np.uint64)
        kernel.determinize(position, 0, key, world)
        assert int(key[0, 1]) == drawn
        kept = world.streams[CHANCE].tolist() == position.streams[CHANCE].tolist()
        assert kept == (drawn == 0)


class _PeekingSearch(MonteCarloSearch):
    """A search whose worlds keep the true game's chance (what the reseeding prevents):
    each world redealt honestly, then the true stream put back."""

    true_chance = Stream(0, 0, CHANCE)

    def _redeal(self, first: Position, seat: int, key: object, world: Position) -> int:
        dropped = super()._redeal(first, seat, key, world)
        world.streams[CHANCE] = self.true_chance.key, self.true_chance.counter
        return dropped


def _search_values(gamble: Gamble, chance: int, peeking: bool) -> tuple[float, ...]:
    state = gamble_state(gamble[1], chance)
    search = (_PeekingSearch if peeking else MonteCarloSearch)(
        gamble[0], samples=16, rollout="random"
    )
    search.true_chance = state.chance  # type: ignore[attr-defined]
    return search.evaluate(state.view(0), state.legal_actions(), Stream(7, 0, 1)).values


def test_the_search_values_the_gamble_alike_whatever_the_true_stream(gamble: Gamble) -> None:
    """Two states that differ only in the chance stream: the search's values are the
    same, bit for bit (the gamble valued by its worlds' own draws, the rest at 0.5); the
    control: a search whose worlds keep the true stream values the gamble 1 on the
    lucky stream and 0 on the unlucky one."""
    honest = [_search_values(gamble, chance, False) for chance in (LUCKY, UNLUCKY)]
    assert honest[0] == honest[1]
    assert honest[0][1] == 0.5
    peeked = [_search_values(gamble, chance, True) for chance in (LUCKY, UNLUCKY)]
    assert [values[0] for values in peeked] == [1.0, 0.0]


def test_the_compiled_lookahead_picks_alike_whatever_the_true_stream(gamble: Gamble) -> None:
    """The compiled lookahead is handed the true streams (as the chunk hands them); its
    worlds draw their own chance, so its move is the same on the lucky and the unlucky
    stream, and the Python bot's (which sees only the view)."""
    picked = []
    for chance in (LUCKY, UNLUCKY):
        kernel, position = _position(gamble[1], chance)
        bots = kernel.encode_bots([LOOKAHEAD, RANDOM])
        picked.append(kernel.choose(position, bots, kernel.legal(position)))
    state = gamble_state(gamble[1], LUCKY)
    python = Lookahead(gamble[1], **LOOKAHEAD[1])
    assert picked == [python.act(state.view(0), state.legal_actions(), Stream(9, 0, 1))] * 2


def test_the_compiled_lookahead_draws_its_worlds_chance_as_the_python_bot(gamble: Gamble) -> None:
    """On 24 bot streams, the compiled lookahead picks the Python bot's move: each world's
    chance keyed as determinize.py keys it, every move tried from its start. The gamble's
    value is its worlds' wins, so the pick turns on those draws; the control: both moves
    are picked on some stream, so the comparison sees them."""
    compiled, python = [], []
    bot = Lookahead(gamble[1], **LOOKAHEAD[1])
    for key in range(24):
        kernel = RoleKernel(gamble[1])
        state = gamble_state(gamble[1], LUCKY)
        position = kernel.from_state(state, [Stream(key, 0, 1 + s) for s in range(2)])
        bots = kernel.encode_bots([LOOKAHEAD, RANDOM])
        compiled.append(kernel.choose(position, bots, kernel.legal(position)))
        python.append(bot.act(state.view(0), state.legal_actions(), Stream(key, 0, 1)))
    assert compiled == python
    assert set(python) == {gamble_card(6), rest_card(4)}
