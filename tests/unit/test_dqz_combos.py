"""Da Qi Zi combinations: the tables against a brute force written from RULES.md §3."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from balancer.games.daqizi import combos as dc

# Ranks by name, low to high, as RULES.md lists them (independent of the module).
RANKS = ["soldier", "cannon", "horse", "chariot", "elephant", "advisor", "general"]
COPIES = {"general": 1, "soldier": 5}
LETTER = {"S": "soldier", "C": "cannon", "H": "horse", "R": "chariot"}
LETTER.update({"E": "elephant", "A": "advisor", "G": "general"})


def kind(code: str) -> int:
    """'rC' is a red cannon, 'bS' a black soldier."""
    suit = {"b": 0, "r": 1}[code[0]]
    return dc.kind_of(RANKS.index(LETTER[code[1]]), suit)


def hand_of(*codes: str) -> list[int]:
    counts = [0] * dc.N_KINDS
    for code in codes:
        counts[kind(code)] += 1
    return counts


def combo(*codes: str) -> int:
    return dc.COMBO_OF_PACKED[dc.pack(hand_of(*codes))]


def kinds_of(move: int) -> tuple[int, ...]:
    return dc.MOVE_KINDS[move]


def brute_combination(kinds: tuple[int, ...], mixed: bool) -> tuple[str, tuple] | None:
    """(form, strength key) straight from the rule text, or None if not a combination."""
    ranks = sorted(RANKS[dc.KIND_RANK[k]] for k in kinds)
    suits = [dc.KIND_SUIT[k] for k in kinds]
    reds = sum(suits)
    one_suit = len(set(suits)) == 1
    if len(kinds) == 1:
        return "single", (RANKS.index(ranks[0]), reds)
    if not one_suit and not mixed:
        return None
    if len(set(ranks)) == 1:
        rank = ranks[0]
        if len(kinds) == 2:
            return "pair", (RANKS.index(rank), reds)
        if rank == "soldier":
            return {3: "triple", 4: "four", 5: "five"}[len(kinds)], (0, reds)
        return None
    if sorted(ranks) == sorted(["general", "advisor", "elephant"]):
        return "sequence", (1, reds)
    if sorted(ranks) == sorted(["chariot", "horse", "cannon"]):
        return "sequence", (0, reds)
    return None


def sub_multisets(hand: list[int], sizes: range) -> set[tuple[int, ...]]:
    cards = [k for k in range(dc.N_KINDS) for _ in range(hand[k])]
    return {tuple(sorted(c)) for n in sizes for c in combinations(cards, n)}


hands = st.tuples(*[st.integers(0, c) for c in dc.KIND_COPIES]).map(list)
eight_card_hands = st.permutations(range(dc.N_CARDS)).map(
    lambda cards: [sum(1 for c in cards[:8] if dc.CARD_KIND[c] == k) for k in range(dc.N_KINDS)]
)
any_hand = st.one_of(hands, eight_card_hands)


def test_encoding() -> None:
    assert dc.N_CARDS == 32 and len(dc.CARD_KIND) == 32
    assert [dc.CARD_KIND.count(k) for k in range(14)] == list(dc.KIND_COPIES)
    for suit in (0, 1):
        for i, rank in enumerate(RANKS):
            assert dc.KIND_COPIES[dc.kind_of(i, suit)] == COPIES.get(rank, 2)
    assert dc.describe(31) == "red general 帥"
    assert dc.describe(0) == "black soldier 卒"
    for counts in ([0] * 14, list(dc.KIND_COPIES)):
        assert dc.unpack(dc.pack(counts)) == counts


@settings(max_examples=150, deadline=None)
@given(any_hand, st.booleans())
def test_lead_options_match_brute_force(hand: list[int], mixed: bool) -> None:
    got = dc.lead_options(hand, mixed)
    assert list(got) == sorted(set(got)), "distinct, in table order"
    expected = {
        k for k in sub_multisets(hand, range(1, 6)) if brute_combination(k, mixed) is not None
    }
    assert {kinds_of(c) for c in got} == expected
    for c in got:
        form, _ = brute_combination(kinds_of(c), mixed)
        assert dc.FORMS[dc.COMBO_FORM[c]] == form


@settings(max_examples=150, deadline=None)
@given(any_hand, st.booleans(), st.data())
def test_beating_options_match_brute_force(hand: list[int], mixed: bool, data) -> None:
    best = data.draw(st.sampled_from(dc.ALLOWED[mixed]))
    best_form, best_key = brute_combination(kinds_of(best), mixed)
    got = dc.beating_options(hand, best, mixed)
    assert list(got) == sorted(set(got))
    expected = set()
    for k in sub_multisets(hand, range(dc.MOVE_SIZE[best], dc.MOVE_SIZE[best] + 1)):
        found = brute_combination(k, mixed)
        if found is not None and found[0] == best_form and found[1] > best_key:
            expected.add(k)
    assert {kinds_of(c) for c in got} == expected
    assert all(dc.beats(c, best) for c in got)


@settings(max_examples=150, deadline=None)
@given(any_hand, st.integers(1, 5))
def test_discard_options_match_brute_force(hand: list[int], n: int) -> None:
    got = dc.discard_options(hand, n)
    assert list(got) == sorted(set(got))
    assert all(dc.is_discard(m) and dc.MOVE_SIZE[m] == n for m in got)
    assert {kinds_of(m) for m in got} == sub_multisets(hand, range(n, n + 1))


def test_red_beats_black_at_equal_rank() -> None:
    assert dc.beats(combo("rC"), combo("bC"))
    assert not dc.beats(combo("bC"), combo("rC"))
    assert dc.beats(combo("bH"), combo("rC")), "rank first"
    assert dc.beats(combo("rC", "rC"), combo("bC", "bC"))
    assert dc.beats(combo("rS", "rS", "rS"), combo("bS", "bS", "bS"))
    assert dc.beats(combo("rR", "rH", "rC"), combo("bR", "bH", "bC"))


def test_general_advisor_elephant_above_chariot_horse_cannon() -> None:
    gae_black = combo("bG", "bA", "bE")
    chc_red = combo("rR", "rH", "rC")
    assert dc.beats(gae_black, chc_red)
    assert not dc.beats(chc_red, gae_black)
    assert dc.beats(combo("rG", "rA", "rE"), gae_black)


def test_only_soldiers_make_triples_and_more() -> None:
    for mixed in (False, True):
        for c in dc.ALLOWED[mixed]:
            if dc.COMBO_FORM[c] in (dc.TRIPLE, dc.FOUR, dc.FIVE):
                assert all(dc.KIND_RANK[k] == dc.SOLDIER for k in kinds_of(c))
    cannons = hand_of("rC", "rC", "bC", "bC")
    assert {dc.COMBO_FORM[c] for c in dc.lead_options(cannons, True)} == {dc.SINGLE, dc.PAIR}
    soldiers = hand_of("bS", "bS", "bS", "bS", "bS")
    forms = {dc.FORMS[dc.COMBO_FORM[c]] for c in dc.lead_options(soldiers, False)}
    assert forms == {"single", "pair", "triple", "four", "five"}


def test_an_equal_combination_does_not_beat() -> None:
    pair = combo("rC", "rC")
    assert not dc.beats(pair, pair)
    assert dc.beating_options(hand_of("rC", "rC"), pair, False) == ()
    # Mixed: two different sequences with one red card each are equally strong.
    one = combo("rG", "bA", "bE")
    other = combo("bG", "rA", "bE")
    assert one != other and not dc.beats(one, other) and not dc.beats(other, one)


def test_forms_never_beat_each_other() -> None:
    triple = combo("bS", "bS", "bS")
    sequence = combo("rG", "rA", "rE")
    assert not dc.beats(sequence, triple) and not dc.beats(triple, sequence)
    assert not dc.beats(combo("rG"), combo("bS", "bS"))
    hand = hand_of("rG", "rA", "rE", "rS", "rS")
    assert dc.beating_options(hand, triple, False) == ()
    assert dc.beating_options(hand, combo("bS", "bS"), False) == (combo("rS", "rS"),)


def test_mixed_suit_strengths() -> None:
    rr, rb, bb = combo("rC", "rC"), combo("rC", "bC"), combo("bC", "bC")
    assert dc.beats(rr, rb) and dc.beats(rb, bb)
    assert dc.beats(combo("bH", "bH"), rr), "rank first, then red cards"
    assert dc.beats(combo("rG", "bG"), combo("rA", "rA"))
    assert dc.beats(combo("rS", "rS", "bS"), combo("rS", "bS", "bS"))
    assert dc.beats(combo("bG", "bA", "bE"), combo("rR", "rH", "rC"))
    assert dc.beats(combo("bG", "rA", "bE"), combo("bG", "bA", "bE"))


def test_mixed_combinations_only_when_the_knob_is_on() -> None:
    hand = hand_of("rC", "bC", "rR", "bH")
    assert dc.lead_options(hand, False) == tuple(sorted(combo(c) for c in ["rC", "bC", "rR", "bH"]))
    mixed = dc.lead_options(hand, True)
    assert combo("rC", "bC") in mixed and combo("rR", "bH", "bC") in mixed
    assert not any(dc.COMBO_PURE[c] is False for c in dc.ALLOWED[False])
