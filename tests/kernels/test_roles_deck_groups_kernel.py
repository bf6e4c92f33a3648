"""A deck of card groups and the rank score term on the compiled kernel.

The card tables hold tests/unit/test_roles_deck_groups.py's card list written out
by hand (each card's colour, role, number and kind); copies apart in the deck are
one move; the hand-made standings of tests/unit/test_roles_rank.py score the same
compiled; and deck_groups.yaml (four groups, a copy of one group's card in another,
two rank terms and a lead_changes event on a rank) plays the Python interpreter's
games, game for game, and passes the kernel conformance check.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer import knobs
from balancer.bot import bot_params_with_defaults
from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import kernel as K
from balancer.games.roles import load_file
from balancer.games.roles.deck import cards_for
from balancer.games.roles.definition import build
from balancer.games.roles.engine import State
from balancer.games.roles.kernel.layout import COLOUR, KIND, NUMBER, ROLE, T_CARDS, T_COPIES
from tests.kernels.test_roles_kernel import assert_same_games, rules_of
from tests.unit.test_roles_deck_groups import BY_HAND, GROUPS
from tests.unit.test_roles_rank import STANDINGS, ranks

HERE = Path(__file__).parent


def test_the_card_tables_are_the_card_list_written_out_by_hand() -> None:
    tables = K.make_tables(GROUPS, rules_of(GROUPS), 3)
    d = 17

    def column(which: int) -> list[int]:
        return [int(x) for x in tables[T_CARDS + which * d : T_CARDS + (which + 1) * d]]

    assert column(KIND) == [kind for _, _, kind in BY_HAND]
    colours, roles = ("red", "blue", "green"), ("run", "trip")
    written = [
        f"{colours[c]} {roles[r]} {n}"
        for c, r, n in zip(column(COLOUR), column(ROLE), column(NUMBER), strict=True)
    ]
    assert written == [what for _, what, _ in BY_HAND]
    assert int(tables[T_COPIES]) == 2  # some kind has two copies: look for them


def test_copies_apart_in_the_deck_are_one_move_compiled() -> None:
    """tests/unit/test_roles_deck_groups.py's hand: 0, 8 (red run 1), 6, 7 (red trip
    2), 1 (red run 2): moves 0, 6, 1."""
    state = State.arranged(GROUPS, rules_of(GROUPS), [[0, 8, 6, 7, 1], [2]])
    arrays, tables = K.from_state(state)
    buffer = K.new_legal(arrays, tables)
    assert buffer[: K.legal(arrays, tables, buffer)].tolist() == [0, 6, 1]


@pytest.mark.parametrize("name", list(STANDINGS))
def test_each_standing_scores_as_worked_out_compiled(tmp_path: Path, name: str) -> None:
    """The position as laid (no card played yet), scored by the kernel's record."""
    standing = STANDINGS[name]
    state = standing.state(tmp_path)
    arrays, tables = K.from_state(state)
    scores = K.record(arrays, tables, state.game).scores
    assert scores == tuple(float(s) for s in standing.scores)


def test_the_last_trick_makes_the_tie_compiled(tmp_path: Path) -> None:
    """tests/unit/test_roles_rank.py's trick: distances 2, 4, 0 plus 3, 1, 5 are 5, 5,
    5, place 1 each: 5 points each."""
    game = ranks(tmp_path)
    state = State.arranged(
        game, knobs.defaults(build(game).spec.knobs), [[2], [0], [4]],
        counters={"distance": [2, 4, 0]},
    )  # fmt: skip
    arrays, tables = K.from_state(state)
    streams = K.new_streams(3)
    for card in (2, 0, 4):
        K.apply(arrays, tables, streams, card)
    assert K.record(arrays, tables, game).scores == (5.0, 5.0, 5.0)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_group_deck_game_for_game(players: int) -> None:
    assert_same_games(GROUPS, rules_of(GROUPS), players, 8, 0, 150)
    other = rules_of(GROUPS, podium=-2, first_leader="random", neko_cancel_duplicates=False)
    assert_same_games(GROUPS, other, players, 9, 0, 60)


def test_the_group_deck_game_exercises_what_it_is_for() -> None:
    """Its games change the sole first on the rank (the lead_changes event over a rank
    term), and some end with seats tied on distance (shared places), on both paths
    alike above."""
    cols = K.play_chunk(GROUPS, rules_of(GROUPS), 3, 8, 0, 150, [("random", {})] * 3, False)
    assert cols.events[:, 0].sum() > 0
    state_games = [State(GROUPS, rules_of(GROUPS), 3, _chance(8, i)) for i in range(40)]
    tied = 0
    for state in state_games:
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        distance = state.counters["distance"]
        tied += len(set(distance)) < len(distance)
    assert tied > 0


def _chance(seed: int, index: int) -> object:
    from balancer.rng import CHANCE, Stream

    return Stream(seed, index, CHANCE)


@pytest.mark.parametrize("bot", ["random", "lookahead"])
def test_the_kernel_conformance_check_passes_on_the_group_deck(bot: str) -> None:
    definition = build(GROUPS)
    rules = knobs.defaults(definition.spec.knobs)
    params = dict(bot_params_with_defaults(definition.bots()[bot], {}))
    for players in (2, 4):
        check_kernel(definition, rules, players, [(bot, params)] * players, seed=7, games=4)


def test_the_kinds_dealt_fill_as_many_words_as_the_kinds(tmp_path: Path) -> None:
    """70 kinds of one card each (red and blue run 1..35) and a group of three copies
    of one more (green trip 1): 73 cards, 71 kinds, so the kinds dealt take two words
    per seat (a kind a bit, 64 to a word); cards over the most copies would be 73 // 3
    = 24 kinds, one word. The kernel's record holds the engine's, game for game."""
    text = (HERE / "deck_groups.yaml").read_text(encoding="utf-8")
    deck = (
        "deck:\n"
        "  - {roles: [run], colours: [red, blue], numbers: [1, 35]}\n"
        "  - {roles: [trip], colours: [green], numbers: [1, 1], copies: 3}\n"
    )
    start, end = text.index("deck:\n"), text.index("hand_size:")
    path = tmp_path / "wide.yaml"
    path.write_text(text[:start] + deck + text[end:], encoding="utf-8")
    game = load_file(path)
    assert cards_for(rules_of(game)).kinds == 71
    assert_same_games(game, rules_of(game), 3, 2, 0, 20)
