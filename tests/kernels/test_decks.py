"""Decks as knobs: Kimekimera's (colours, numbers, copies, rainbow, grey) and Da Qi Zi's
(copies of each rank per suit). The printed decks are the defaults, card for card;
other decks deal, score and combine as worked out by hand here, the compiled kernels
play them game for game like the engines, and a bad deck is one line, exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from balancer import games, knobs
from balancer.bot import bot_params_with_defaults
from balancer.cli import cli
from balancer.config import variant
from balancer.errors import UserError
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import deck as dqz_deck
from balancer.games.daqizi import engine as daqizi
from balancer.games.kernel_conformance import check_kernel
from balancer.games.kimekimera import deck as kk_deck
from balancer.games.kimekimera import engine as kk
from balancer.rng import Stream
from tests.helpers import variant_file
from tests.kernels.test_kk_kernel import assert_same_games
from tests.unit.test_daqizi import combo, discard, hand_of

KK_DEFAULTS = knobs.defaults(kk.KNOBS)
DQZ_DEFAULTS = knobs.defaults(daqizi.KNOBS)
# 2 colours × 1..3, each twice; 1 rainbow numbered 7; 1 grey: 14 cards.
SMALL = {"colours": 2, "numbers": [1, 3], "copies": 2, "rainbow": 1, "rainbow_number": 7, "grey": 1}
# Da Qi Zi with 2 of every rank a suit but soldiers (4): 16 a suit, and general pairs.
TWO_GENERALS = {"soldier": 4, "general": 2}


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


# -- Kimekimera -------------------------------------------------------------------


def test_the_printed_kimekimera_deck_is_the_default_card_for_card() -> None:
    """RULES.md §2: red, blue, yellow, green × 1..12, then 4 rainbow (13), 2 grey (0)."""
    deck = kk.deck_for(KK_DEFAULTS)
    names = [f"{c}{n}" for c in "rbyg" for n in range(1, 13)] + ["rainbow"] * 4 + ["grey"] * 2
    assert [deck.describe(card) for card in range(deck.size)] == names
    assert deck.number == tuple([*range(1, 13)] * 4 + [13] * 4 + [0] * 2)
    assert deck.colour_bits == tuple([1] * 12 + [2] * 12 + [4] * 12 + [8] * 12 + [15] * 4 + [0] * 2)
    assert (deck.size, deck.first_rainbow, deck.first_grey) == (54, 48, 52)
    assert kk.card_kinds(KK_DEFAULTS) == (*names[:48], "rainbow", "grey")
    # The tables the engine always used (rules' module constants) are this deck's.
    assert deck is kk.DEFAULT_DECK and deck.pair_sum == kk.PAIR_SUM and deck.number == kk.NUMBER


def test_a_small_kimekimera_deck_has_the_cards_worked_out_by_hand() -> None:
    deck = kk.deck_for({"deck": SMALL})
    # 2 colours × 3 numbers × 2 copies = 12, + 1 rainbow + 1 grey = 14.
    assert deck.size == 14 and (deck.first_rainbow, deck.first_grey) == (12, 13)
    names = ["r1", "r1", "r2", "r2", "r3", "r3", "b1", "b1", "b2", "b2", "b3", "b3"]
    assert [deck.describe(c) for c in range(14)] == [*names, "rainbow", "grey"]
    assert deck.number == (1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 7, 0)
    assert deck.kind_names() == ("r1", "r2", "r3", "b1", "b2", "b3", "rainbow", "grey")
    assert deck.card_kind == (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7)
    # Copies are named in turn; a third r1 is one too many.
    assert kk.parse_cards(["r1", "r1", "b3"], deck) == [0, 1, 10]
    with pytest.raises(ValueError, match="more than 2 times: the deck has 2"):
        kk.parse_cards(["r1", "r1", "r1"], deck)
    with pytest.raises(ValueError, match="colour letter r, b"):
        deck.parse("y1")  # 2 colours: no yellow


def test_scoring_on_a_small_deck_as_worked_out_by_hand() -> None:
    deck = kk.deck_for({"deck": SMALL})
    r3, rainbow, b2, b3, grey = 4, 12, 8, 10, 13
    # Theme r3 + rainbow: 3 + 7 = 10. Chimera b3 + b2: 5, error 5. Colours: the
    # rainbow shares blue, red shares nothing: one match, 3 off (default bonus).
    assert kk.error_and_matches(r3, rainbow, b3, b2, True, deck) == (5, 1)
    assert kk.round_score(r3, rainbow, b3, b2, (0, 3, 7), True, False, deck) == 2
    # A grey chimera: no error, and no bonus while grey blocks it.
    assert kk.round_score(r3, rainbow, grey, b2, (0, 3, 7), True, False, deck) == 0
    # The bots' tables give the same for every pair.
    rows = kk.theme_rows(r3, rainbow, (0, 3, 7), True, deck)
    for a in range(deck.size):
        for b in range(deck.size):
            want = kk.round_score(r3, rainbow, a, b, (0, 3, 7), True, False, deck)
            assert kk.pair_score(rows, a, b, False, deck) == want


def test_a_game_on_a_small_deck_deals_from_it_and_keeps_its_cards() -> None:
    rules = {**KK_DEFAULTS, "deck": SMALL, "free_chimeras": 3}
    # 2 players: 4 + 6 dealt, 4 must stay (a theme, a redraw for the grey): 14.
    assert kk.unplayable(rules, 2) is None
    why = kk.unplayable({**rules, "free_chimeras": 4}, 2)
    assert why is not None and "at most 3 free chimeras" in why and "14 cards" in why
    state = kk.new_state(rules, 2, Stream(5, 0, 0))
    # The deck keeps 14 - 4 - 6 - 2 = 2 cards, or none with a grey theme discarded.
    cards = [*state.deck, *state.discard, *state.mine, *state.free, *state.theme]
    assert sorted(cards) == list(range(14)) and len(state.deck) + len(state.discard) == 2
    while not state.is_terminal():  # plays to the end, every card kept
        state.apply_action(state.legal_actions()[0])
        state.check_invariants()
    assert state.round == 5


def test_a_deck_with_no_card_a_theme_can_use_is_unplayable() -> None:
    tiny = {**KK_DEFAULTS, "deck": {"colours": 1, "numbers": [1, 2], "rainbow": 0, "grey": 0}}
    why = kk.unplayable(tiny, 4)
    assert why is not None and "2 cards can't deal 4 my chimeras and even 1 free chimera" in why


KK_DECKS = [
    SMALL,
    {"copies": 3, "numbers": [5, 8], "rainbow": 2, "rainbow_number": 0, "grey": 4},
    {"colours": 3, "numbers": [0, 9], "rainbow": 0, "grey": 0},
    {"colours": 4, "numbers": [1, 15], "copies": 1, "rainbow": 8, "grey": 6},  # 74 cards
]


@pytest.mark.parametrize("deck", KK_DECKS, ids=lambda d: "-".join(map(str, d.values())))
def test_the_kimekimera_kernel_plays_the_engines_games_on_other_decks(deck: dict) -> None:
    definition = games.definition("kimekimera")
    rules = {**KK_DEFAULTS, "deck": kk_deck.check_deck(deck), "free_chimeras": 2}
    specs = definition.bots()
    bots = [(name, bot_params_with_defaults(specs[name], {})) for name in specs]
    players = 3 if deck is not SMALL else 2
    check_kernel(definition, rules, players, bots[:players], seed=3, games=6)
    # And whole games in one call, as a run plays them.
    slots = [("expected", {}), ("cautious", {}), ("random", {})][:players]
    assert_same_games(rules, players, 17, 120, slots, rotate=True)


# -- Da Qi Zi ---------------------------------------------------------------------


def test_the_printed_da_qi_zi_deck_is_the_default_card_for_card() -> None:
    """RULES.md §3: per suit general 1, advisor, elephant, chariot, horse, cannon 2, soldier 5."""
    deck = dqz_deck.deck_for(DQZ_DEFAULTS)
    per_rank = {"soldier": 5, "cannon": 2, "horse": 2, "chariot": 2, "elephant": 2}
    per_rank |= {"advisor": 2, "general": 1}
    assert deck.kind_copies == tuple(per_rank[r] for r in dc.RANK_NAMES for _ in "br")
    assert deck.card_kind == dc.CARD_KIND and deck.full_deck == dc.FULL_DECK
    assert deck.n_cards == 32


def test_a_deck_of_two_generals_deals_hands_of_8_and_its_counts() -> None:
    rules = {**DQZ_DEFAULTS, "deck": TWO_GENERALS}
    deck = dqz_deck.deck_for(rules)
    # 4 soldiers, then 2 of every other rank: 4 + 2 × 6 = 16 a suit.
    assert deck.kind_copies == (4, 4) + (2, 2) * 6 and deck.n_cards == 32
    state = daqizi.new_state(rules, 4, Stream(9, 0, 0))
    assert [sum(hand) for hand in state.hands] == [8, 8, 8, 8]
    for kind in range(dc.N_KINDS):
        assert sum(hand[kind] for hand in state.hands) == deck.kind_copies[kind]
    state.check_invariants()


def _arranged(rules: dict[str, Any], hands: list[list[str]], leader: int) -> daqizi.State:
    """A deal laid by hand on the rules' deck: these hands, every other card discarded."""
    state = daqizi.new_state(rules, 4, Stream(1, 0, 0))
    copies = state.cards.kind_copies
    state.hands = [hand_of(*h) for h in hands]
    state.packed = [dc.pack(h) for h in state.hands]
    state.captured = [[0] * dc.N_KINDS for _ in range(4)]
    state.n_captured = [0] * 4
    state.seen_captured = ((0,) * dc.N_KINDS,) * 4
    state.sizes = [len(h) for h in hands]
    state.public = [0] * dc.N_KINDS
    state.discard = [copies[k] - sum(h[k] for h in state.hands) for k in range(dc.N_KINDS)]
    state.in_trick = [0] * dc.N_KINDS
    state.hand_left = len(hands[0])
    state.history = ()
    state.tricks = 1
    state._start_trick(leader)
    state.check_invariants()
    return state


def test_a_general_pair_is_a_pair_that_beats_an_advisor_pair() -> None:
    rules = {**DQZ_DEFAULTS, "deck": TWO_GENERALS}
    state = _arranged(rules, [["rG", "rG"], ["bG", "bG"], ["rA", "rA"], ["bS", "bS"]], 0)
    red_generals = combo("rG", "rG")
    assert red_generals in state.legal_actions()
    state.apply_action(red_generals)
    # Black generals (strength 6 × 8 + 0) don't beat red (6 × 8 + 2): seat 1 must discard.
    assert state.legal_actions() == [discard("bG", "bG")]
    state.apply_action(discard("bG", "bG"))
    assert state.legal_actions() == [discard("rA", "rA")]  # an advisor pair is weaker
    state.apply_action(discard("rA", "rA"))
    state.apply_action(discard("bS", "bS"))
    state.check_invariants()
    # Seat 0 took the last trick, so the deal; each loser captured nothing and pays
    # base 4 + penalty 1 = 5 (multiplier 1): 20 + 15 and 20 - 5. Deal 2 is dealt.
    assert state.chips == [35, 15, 15, 15] and state.deal == 2
    # A black general pair ranks above a red advisor pair: same form, higher rank.
    assert dc.beats(combo("bG", "bG"), combo("rA", "rA"))


def test_the_printed_deck_can_never_hold_a_general_pair() -> None:
    """The control: the same arrangement is refused with one general a suit."""
    with pytest.raises(Exception, match="general"):
        _arranged(dict(DQZ_DEFAULTS), [["rG", "rG"], ["bG", "bG"], ["rA", "rA"], ["bS", "bS"]], 0)


DQZ_DECKS = [
    TWO_GENERALS,
    {
        "soldier": 2,
        "cannon": 3,
        "horse": 3,
        "chariot": 3,
        "elephant": 1,
        "advisor": 1,
        "general": 3,
    },
    {
        "soldier": 7,
        "cannon": 0,
        "horse": 0,
        "chariot": 0,
        "elephant": 3,
        "advisor": 3,
        "general": 3,
    },
]


@pytest.mark.parametrize("deck", DQZ_DECKS, ids=lambda d: "-".join(map(str, d.values())))
def test_the_da_qi_zi_kernel_plays_the_engines_games_on_other_decks(deck: dict) -> None:
    definition = games.definition("da-qi-zi")
    specs = definition.bots()
    heuristic = ("heuristic", bot_params_with_defaults(specs["heuristic"], {}))
    random = ("random", {})
    for mixed in (False, True):
        rules = {**DQZ_DEFAULTS, "deck": dqz_deck.check_deck(deck), "mixed_suit_combos": mixed}
        check_kernel(definition, rules, 4, [heuristic, random, heuristic, random], seed=5, games=3)


# -- validation, listing, reports ----------------------------------------------------


# (shipped variant extended, its rules block, "line: key" blamed, part of the message)
BAD_DECKS = [
    ("kk-4p", "  deck:\n    colours: 5", "4: rules.deck.colours", "must be 1..4, got 5"),
    ("kk-4p", "  deck: {colors: 2}", "3: rules.deck.colors", "unknown deck key 'colors'"),
    ("kk-4p", "  deck:\n    numbers: [9, 3]", "4: rules.deck.numbers", "[low, high]"),
    ("kk-4p", "  deck:\n    numbers: [1, 40]", "3: rules.deck", "card impact keeps at most 60"),
    (
        "kk-4p",
        "  deck: {colours: 1, numbers: [1, 2], rainbow: 0, grey: 0}",
        "3: rules.deck",
        "can't be played: the 2 cards",
    ),
    ("dqz-4p", "  deck:\n    soldier: 4", "3: rules.deck", "sum to 15 a suit, 30 cards"),
    ("dqz-4p", "  deck:\n    soldier: 8\n    cannon: 1", "4: rules.deck.soldier", "must be 0..7"),
    ("dqz-4p", "  deck:\n    queen: 1", "4: rules.deck.queen", "unknown rank 'queen'"),
]


@pytest.mark.parametrize(("extends", "block", "where", "message"), BAD_DECKS)
def test_a_bad_deck_is_one_line_naming_file_line_and_key_and_exit_2(
    tmp_path: Path, extends: str, block: str, where: str, message: str
) -> None:
    path = variant_file(tmp_path, f"{extends}.yaml", f"rules:\n{block}\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith(f"balancer: error: {path}:{where}: "), lines[0]
    assert message in lines[0]


def test_a_good_deck_validates(tmp_path: Path) -> None:
    """The control for the test above: the same files with a legal deck pass."""
    kk_file = variant_file(tmp_path, "kk-4p.yaml", "rules:\n  deck: {colours: 3}\n", "kk.yaml")
    dqz_file = variant_file(
        tmp_path, "dqz-4p.yaml", "rules:\n  deck: {soldier: 4, general: 2}\n", "dqz.yaml"
    )
    result = invoke("validate", str(kk_file), str(dqz_file))
    assert result.exit_code == 0, result.stderr


def test_sweep_set_blames_the_key_inside_the_deck(tmp_path: Path) -> None:
    loaded = variant.load(Path(__file__).parents[2] / "variants" / "kk-4p.yaml")
    with pytest.raises(UserError, match=r"deck\.grey: must be 0\.\.120"):
        loaded.with_checked_knobs({"deck": {"grey": -1}})


@pytest.mark.parametrize(("game", "word"), [("kimekimera", "rainbow"), ("da-qi-zi", "general")])
def test_balancer_knobs_lists_the_deck(game: str, word: str) -> None:
    result = invoke("knobs", game)
    assert result.exit_code == 0
    deck_lines = [line for line in result.stdout.splitlines() if "deck" in line]
    assert deck_lines and any(word in line for line in deck_lines), result.stdout


def test_a_resolved_variant_lists_the_deck_only_when_it_is_changed(tmp_path: Path) -> None:
    """So every report made at the printed deck is byte for byte what it was."""
    printed = variant.load(Path(__file__).parents[2] / "variants" / "kk-4p.yaml")
    assert "deck" not in printed.resolved()["rules"]
    changed = variant.load(variant_file(tmp_path, "kk-4p.yaml", "rules:\n  deck: {grey: 3}\n"))
    listed = changed.resolved()["rules"]["deck"]
    assert listed["grey"] == 3 and listed["colours"] == 4
    # A report's variant reads back to the same rules.
    again = variant.from_resolved(changed.resolved(), "report.json")
    assert kk.deck_for(again.rules) is kk.deck_for(changed.rules)


def test_a_diff_shows_the_printed_deck_where_a_report_leaves_it_out() -> None:
    from balancer.analysis.diff_setup import knob_changes

    printed = {"game": "da-qi-zi", "rules": {"max_deals": 16}}
    changed = {"game": "da-qi-zi", "rules": {"max_deals": 16, "deck": {**DQZ_DEFAULTS["deck"]}}}
    assert knob_changes(printed, changed) == []  # the printed deck, said or not
    changed["rules"]["deck"]["general"] = 2
    changed["rules"]["deck"]["soldier"] = 4
    (change,) = knob_changes(printed, changed)
    assert change.text().startswith("rules.deck: {soldier: 5,")
    assert "{soldier: 4," in change.text() and "general: 2}" in change.text()
