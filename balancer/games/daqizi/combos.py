"""打棋子 Da Qi Zi: the card encoding and the combination tables (RULES.md §3).

Card encoding. A card *kind* is (rank, suit), 14 kinds:
`kind = rank * 2 + suit`, with ranks low to high

    0 soldier 卒/兵 (5 copies per suit)   4 elephant 象/相 (2)
    1 cannon  砲/炮 (2)                   5 advisor  士/仕 (2)
    2 horse   馬    (2)                   6 general  将/帥 (1)
    3 chariot 車    (2)

and suits 0 black, 1 red. So a single's strength is its kind: higher rank
wins, red beats black at equal rank. The 32 cards are numbered kind by kind,
`card = KIND_FIRST_CARD[kind] + copy`; `CARD_KIND[card]` decodes. Those are
the printed deck's; the `deck` knob (deck.py) changes the copies of each rank. Copies of a
kind are interchangeable in play, so the game keeps hands as counts per kind.

Moves. One table of *moves* serves both uses of a multiset of kinds:
ids `0 .. N_COMBOS - 1` are the legal combinations (played face up), ids from
`DISCARD_BASE` on are every multiset of 1..5 kinds (discarded face down): any
multiset of up to 5 cards, whatever the deck's copies, so that a move's id is
the same in every deck the `deck` knob allows. A combination and a discard of
the same cards are different moves.

Combinations, by form (`FORMS`): single (any card); pair (two of one kind);
triple, four, five (3, 4, 5 soldiers of one suit); sequence (general-advisor-
elephant or chariot-horse-cannon of one suit). With `mixed_suit_combos` every
multi-card form may also mix suits. Strength = rank key * 8 + number of red
cards, where the rank key is the rank (soldiers' forms: 0) and, for a sequence,
0 for chariot-horse-cannon and 1 for general-advisor-elephant. For single-suit
combinations this orders rank first then red above black, exactly the rule
without mixing; with mixing it is "rank first, then the number of red cards".
A combination beats another of the same form only when strictly stronger.

Hands are also kept *packed*: 4 bits per kind (`pack`). A multiset fits in a
hand when `((hand | GUARD) - need) & GUARD == GUARD`: each field holds at most
7 < 8 (deck.MAX_COPIES), so the guard bit of a field survives exactly when no count goes short,
and no subtraction borrows across fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

RANK_NAMES = ("soldier", "cannon", "horse", "chariot", "elephant", "advisor", "general")
SUIT_NAMES = ("black", "red")
GLYPHS: tuple[tuple[str, str], ...] = (("卒", "兵"), ("砲", "炮"), ("馬", "馬"), ("車", "車"))
GLYPHS += (("象", "相"), ("士", "仕"))
GLYPHS += (("将", "帥"),)
RANK_COPIES = (5, 2, 2, 2, 2, 2, 1)
SOLDIER, CANNON, HORSE, CHARIOT, ELEPHANT, ADVISOR, GENERAL = range(7)
BLACK, RED = 0, 1

N_KINDS = 14
KIND_RANK = tuple(k // 2 for k in range(N_KINDS))
KIND_SUIT = tuple(k % 2 for k in range(N_KINDS))
KIND_COPIES = tuple(RANK_COPIES[k // 2] for k in range(N_KINDS))
KIND_FIRST_CARD = tuple(sum(KIND_COPIES[:k]) for k in range(N_KINDS))
N_CARDS = sum(KIND_COPIES)  # 32
CARD_KIND = tuple(k for k in range(N_KINDS) for _ in range(KIND_COPIES[k]))

SINGLE, PAIR, TRIPLE, SEQUENCE, FOUR, FIVE = range(6)
FORMS = ("single", "pair", "triple", "sequence", "four", "five")
MAX_COMBO = 5

BITS = 4
GUARD = sum(8 << (BITS * k) for k in range(N_KINDS))
FULL_DECK = sum(KIND_COPIES[k] << (BITS * k) for k in range(N_KINDS))


def kind_of(rank: int, suit: int) -> int:
    return rank * 2 + suit


def describe_kind(kind: int) -> str:
    """A kind as a person reads it, e.g. 'red cannon 炮'."""
    rank, suit = KIND_RANK[kind], KIND_SUIT[kind]
    return f"{SUIT_NAMES[suit]} {RANK_NAMES[rank]} {GLYPHS[rank][suit]}"


def describe(card: int) -> str:
    """A card (0..31) as a person reads it."""
    return describe_kind(CARD_KIND[card])


def pack(counts: Sequence[int]) -> int:
    """Counts per kind -> the packed multiset (4 bits per kind)."""
    value = 0
    for k in range(N_KINDS - 1, -1, -1):
        value = (value << BITS) | counts[k]
    return value


def unpack(packed: int) -> list[int]:
    return [(packed >> (BITS * k)) & 15 for k in range(N_KINDS)]


def fits(hand: int, need: int) -> bool:
    """Whether the packed multiset `need` is within the packed hand."""
    return ((hand | GUARD) - need) & GUARD == GUARD


# -- the combination table --------------------------------------------------


def _combination(kinds: tuple[int, ...]) -> tuple[int, int, bool] | None:
    """(form, strength, single-suit) of a sorted multiset of kinds, mixing allowed; else None."""
    n = len(kinds)
    if n > 3 and KIND_RANK[kinds[0]] != KIND_RANK[kinds[-1]]:
        return None  # (sorted) four or five cards of more than one rank
    ranks = [KIND_RANK[k] for k in kinds]
    reds = sum(KIND_SUIT[k] for k in kinds)
    pure = reds in (0, n)
    if n == 1:
        return SINGLE, ranks[0] * 8 + reds, True
    if len(set(ranks)) == 1:
        if n == 2:
            return PAIR, ranks[0] * 8 + reds, pure
        if ranks[0] == SOLDIER:
            return (TRIPLE, FOUR, FIVE)[n - 3], reds, pure
        return None
    if n == 3 and sorted(ranks) == [CANNON, HORSE, CHARIOT]:
        return SEQUENCE, reds, pure
    if n == 3 and sorted(ranks) == [ELEPHANT, ADVISOR, GENERAL]:
        return SEQUENCE, 8 + reds, pure
    return None


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of `size` kinds, as sorted tuples, in a fixed order."""
    return _MULTISETS[size]


def _all_multisets() -> dict[int, list[tuple[int, ...]]]:
    # Built once at import (every command that names the game pays for it), depth
    # first and kinds ascending: combinations_with_replacement's order. Every
    # multiset of up to MAX_COMBO cards, whatever a deck's copies (deck.py): a
    # deck only decides which of them a hand can hold, never a move's id, so
    # the printed deck's moves keep their relative order in every table.
    out: dict[int, list[tuple[int, ...]]] = {size: [] for size in range(1, MAX_COMBO + 1)}
    prefix: list[int] = []

    def extend(start: int, run: int) -> None:
        # `run`: how many copies of prefix[-1] end the prefix.
        if prefix:
            out[len(prefix)].append(tuple(prefix))
        if len(prefix) == MAX_COMBO:
            return
        for k in range(start, N_KINDS):
            copies = run + 1 if prefix and prefix[-1] == k else 1
            if copies <= MAX_COMBO:
                prefix.append(k)
                extend(k, copies)
                prefix.pop()

    extend(0, 0)
    return out


_MULTISETS = _all_multisets()


def _build() -> tuple[list[tuple[int, ...]], list[tuple[int, int, bool]]]:
    found = []
    for size in range(1, MAX_COMBO + 1):
        for kinds in _multisets(size):
            combo = _combination(kinds)
            if combo is not None:
                found.append((combo, kinds))
    # Order by form, then strength, then the kinds: the fixed order of legal moves.
    found.sort(key=lambda item: (item[0][0], item[0][1], item[1]))
    return [kinds for _, kinds in found], [combo for combo, _ in found]


def _counts(kinds: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * N_KINDS
    for k in kinds:
        counts[k] += 1
    return tuple(counts)


_kinds, _info = _build()
N_COMBOS = len(_kinds)
COMBO_FORM = tuple(info[0] for info in _info)
COMBO_STRENGTH = tuple(info[1] for info in _info)
COMBO_PURE = tuple(info[2] for info in _info)
DISCARD_BASE = N_COMBOS
for _size in range(1, MAX_COMBO + 1):
    _kinds.extend(_multisets(_size))
N_MOVES = len(_kinds)

MOVE_KINDS: tuple[tuple[int, ...], ...] = tuple(_kinds)  # sorted kinds, low first
MOVE_SIZE = tuple(len(kinds) for kinds in MOVE_KINDS)
MOVE_COUNTS = tuple(_counts(kinds) for kinds in MOVE_KINDS)
MOVE_PACKED = tuple(pack(counts) for counts in MOVE_COUNTS)
# Singles come first, in kind order (a single's strength orders like its kind).
SINGLE_OF_KIND = tuple(range(N_KINDS))
assert all(COMBO_FORM[k] == SINGLE and MOVE_KINDS[k] == (k,) for k in SINGLE_OF_KIND)
DISCARD_OF_PACKED = {MOVE_PACKED[m]: m for m in range(DISCARD_BASE, N_MOVES)}
COMBO_OF_PACKED = {MOVE_PACKED[m]: m for m in range(N_COMBOS)}

# Per rule set (index: mixed_suit_combos): the combinations allowed, all and by form,
# each list in table order, so ascending strength within a form.
ALLOWED = tuple(
    tuple(c for c in range(N_COMBOS) if mixed or COMBO_PURE[c]) for mixed in (False, True)
)
BY_FORM = tuple(
    tuple(tuple(c for c in ALLOWED[mixed] if COMBO_FORM[c] == form) for form in range(6))
    for mixed in (False, True)
)

# Per rule set and combination: (combination, packed) of everything that beats it.
_ABOVE = tuple(
    tuple(
        tuple(
            (c, MOVE_PACKED[c])
            for c in BY_FORM[mixed][COMBO_FORM[best]]
            if COMBO_STRENGTH[c] > COMBO_STRENGTH[best]
        )
        for best in range(N_COMBOS)
    )
    for mixed in (False, True)
)


def is_discard(move: int) -> bool:
    return move >= DISCARD_BASE


def beats(challenger: int, best: int) -> bool:
    """RULES.md §3: same form and strictly stronger (forms never beat each other)."""
    return (
        COMBO_FORM[challenger] == COMBO_FORM[best]
        and COMBO_STRENGTH[challenger] > COMBO_STRENGTH[best]
    )


def describe_cards(move: int) -> str:
    """A move's cards, strongest first, e.g. '[red cannon 炮, black cannon 砲]'."""
    return "[" + ", ".join(describe_kind(k) for k in reversed(MOVE_KINDS[move])) + "]"


def describe_move(move: int) -> str:
    """A move as a person reads it: 'pair [...]', or 'discard [...]' for a face-down one."""
    form = "discard" if move >= DISCARD_BASE else FORMS[COMBO_FORM[move]]
    return f"{form} {describe_cards(move)}"


# -- what a hand can do -----------------------------------------------------
# Keyed by the packed hand; a deal's hands repeat little, but the same few
# hundred thousand sub-hands recur across games, and the caches are bounded.


@lru_cache(maxsize=1 << 16)
def lead_options_packed(hand: int, mixed: bool) -> tuple[int, ...]:
    """The distinct combinations a packed hand can lead, in table order."""
    guarded = hand | GUARD
    packed = MOVE_PACKED
    return tuple(c for c in ALLOWED[mixed] if (guarded - packed[c]) & GUARD == GUARD)


def beating_options_packed(hand: int, best: int, mixed: bool) -> tuple[int, ...]:
    """The distinct combinations in a packed hand that beat combination `best`."""
    guarded = hand | GUARD
    return tuple(c for c, need in _ABOVE[mixed][best] if (guarded - need) & GUARD == GUARD)


def can_beat_packed(hand: int, best: int, mixed: bool) -> bool:
    """Whether any combination within a packed multiset beats combination `best`."""
    guarded = hand | GUARD
    return any((guarded - need) & GUARD == GUARD for _, need in _ABOVE[mixed][best])


@lru_cache(maxsize=1 << 16)
def discard_options_packed(hand: int, n: int) -> tuple[int, ...]:
    """The distinct discards of `n` cards from a packed hand, as move ids in table order."""
    counts = [(hand >> (BITS * k)) & 15 for k in range(N_KINDS)]
    present = [k for k in range(N_KINDS) if counts[k]]
    found: list[int] = []

    def extend(at: int, left: int, value: int) -> None:
        if left == 0:
            found.append(DISCARD_OF_PACKED[value])
            return
        if at == len(present):
            return
        kind = present[at]
        shift = BITS * kind
        for take in range(min(counts[kind], left), -1, -1):
            extend(at + 1, left - take, value + (take << shift))

    extend(0, n, 0)
    found.sort()
    return tuple(found)


def lead_options(hand: Sequence[int], mixed: bool) -> tuple[int, ...]:
    """The distinct combinations a hand (counts per kind) can lead."""
    return lead_options_packed(pack(hand), mixed)


def beating_options(hand: Sequence[int], best: int, mixed: bool) -> tuple[int, ...]:
    """The distinct combinations of a hand (counts per kind) that beat combination `best`."""
    return beating_options_packed(pack(hand), best, mixed)


def discard_options(hand: Sequence[int], n: int) -> tuple[int, ...]:
    """The distinct discards of `n` cards from a hand (counts per kind)."""
    return discard_options_packed(pack(hand), n)
