"""Kimekimera's deck as a knob: its check, and the look-up tables of one deck.

The `deck` knob (rules section) is a mapping, every key optional (the
printed deck fills in the rest):

    colours: 4            coloured suits, 1..4: red, blue, yellow, green in that order
    numbers: [1, 12]      the coloured cards' numbers, low..high
    copies: 1             copies of each coloured card
    rainbow: 4            rainbow cards (every colour)
    rainbow_number: 13    the rainbow cards' number
    grey: 2               grey robot cards (no colour, number wild)

Card encoding for a deck (a card is an int 0..size-1), which for the
printed deck is the one RULES.md's tables and every report always used:

    coloured  ((colour * numbers) + number - low) * copies + copy
    rainbow   the next `rainbow` ints
    grey      the last `grey` ints

So "is grey" is `card >= first_grey` for every deck. Card impact's kinds are
each coloured card (copies are one kind), then rainbow, then grey.

Why the bounds: colours are bit sets over the four printed colours (a card's
colour class is 0..3, rainbow 4, grey 5, and the match tables are built over
those six classes); card impact keeps one 63-bit word a seat, so at most
`MAX_KINDS` kinds; the compiled kernel's state holds a deck and a discard of
at most `MAX_DECK_CARDS` cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from balancer import knobs

COLOUR_LETTERS = "rbyg"
COLOUR_NAMES = ("red", "blue", "yellow", "green")
DEFAULT_DECK: dict[str, Any] = {
    "colours": 4,
    "numbers": [1, 12],
    "copies": 1,
    "rainbow": 4,
    "rainbow_number": 13,
    "grey": 2,
}
MAX_DECK_CARDS = 120
MAX_KINDS = 62  # coloured kinds + rainbow + grey: bits of one int64 word, sign bit spare
MAX_NUMBER = 99  # a card's number; sums of two stay small and exact


def _whole(value: Any, key: str, low: int, high: int) -> int:
    if not knobs.is_whole_number(value):
        raise knobs.KnobValueError(f"expected a whole number, got {value!r}", (key,))
    if not low <= value <= high:
        raise knobs.KnobValueError(f"must be {low}..{high}, got {knobs.shown(value)}", (key,))
    return int(value)


def check_deck(value: Any) -> dict[str, Any]:
    """A `deck` knob's YAML value -> the full deck (defaults filled in); ValueError if bad."""
    if not isinstance(value, Mapping):
        raise ValueError(
            "expected a mapping with colours, numbers, copies, rainbow, rainbow_number, grey; "
            f"got {value!r}"
        )
    unknown = [key for key in value if key not in DEFAULT_DECK]
    if unknown:
        raise knobs.KnobValueError(
            f"unknown deck key {str(unknown[0])!r} (keys: {', '.join(DEFAULT_DECK)})",
            (unknown[0],),
        )
    deck = {**DEFAULT_DECK, **value}
    colours = _whole(deck["colours"], "colours", 1, len(COLOUR_LETTERS))
    numbers = deck["numbers"]
    if (
        not isinstance(numbers, list | tuple)
        or len(numbers) != 2
        or not all(knobs.is_whole_number(n) for n in numbers)
        or not 0 <= numbers[0] <= numbers[1] <= MAX_NUMBER
    ):
        raise knobs.KnobValueError(
            f"must be [low, high], whole numbers with 0 <= low <= high <= {MAX_NUMBER}, "
            f"got {numbers!r}",
            ("numbers",),
        )
    copies = _whole(deck["copies"], "copies", 1, MAX_DECK_CARDS)
    rainbow = _whole(deck["rainbow"], "rainbow", 0, MAX_DECK_CARDS)
    rainbow_number = _whole(deck["rainbow_number"], "rainbow_number", 0, MAX_NUMBER)
    grey = _whole(deck["grey"], "grey", 0, MAX_DECK_CARDS)
    kinds = colours * (numbers[1] - numbers[0] + 1)
    if kinds + 2 > MAX_KINDS:
        raise ValueError(
            f"{colours} colours × {numbers[1] - numbers[0] + 1} numbers make {kinds} "
            f"card kinds; card impact keeps at most {MAX_KINDS - 2} (plus rainbow and grey)"
        )
    size = kinds * copies + rainbow + grey
    if size > MAX_DECK_CARDS:
        raise ValueError(
            f"the deck would hold {size} cards; the compiled kernel holds at most {MAX_DECK_CARDS}"
        )
    return {
        "colours": colours,
        "numbers": [int(numbers[0]), int(numbers[1])],
        "copies": copies,
        "rainbow": rainbow,
        "rainbow_number": rainbow_number,
        "grey": grey,
    }


@dataclass(frozen=True, eq=False)
class Deck:
    """Look-up tables of one deck; `pair` tables are indexed a * size + b.

    Compared and hashed by identity: `deck_of` makes one per distinct deck, and
    the caches keyed by a deck must not hash its thousands of entries a call.
    """

    colours: int
    low: int
    high: int
    copies: int
    rainbow: int
    rainbow_number: int
    grey: int
    size: int
    first_rainbow: int
    first_grey: int
    number: tuple[int, ...]
    colour_bits: tuple[int, ...]
    colour_class: tuple[int, ...]  # 0..3 its colour, 4 rainbow, 5 grey
    card_kind: tuple[int, ...]
    pair_sum: tuple[int, ...]  # -1 when the pair holds grey
    pair_class: tuple[int, ...]  # class[a] * 6 + class[b]

    @property
    def n_numbers(self) -> int:
        return self.high - self.low + 1

    @property
    def n_kinds(self) -> int:
        return self.colours * self.n_numbers + 2

    def copies_of(self, card: int) -> int:
        """How many cards of the deck share `card`'s name."""
        if card >= self.first_grey:
            return self.grey
        if card >= self.first_rainbow:
            return self.rainbow
        return self.copies

    def first_of_name(self, card: int) -> int:
        """The first card of the deck that has `card`'s name."""
        if card >= self.first_grey:
            return self.first_grey
        if card >= self.first_rainbow:
            return self.first_rainbow
        return card - card % self.copies

    def describe(self, card: int) -> str:
        """A card as a person writes it: 'r5', 'b12', 'rainbow', 'grey'."""
        if card >= self.first_grey:
            return "grey"
        if card >= self.first_rainbow:
            return "rainbow"
        face = card // self.copies
        return f"{COLOUR_LETTERS[face // self.n_numbers]}{face % self.n_numbers + self.low}"

    def parse(self, text: str) -> int:
        """The first card `describe` writes as `text`; ValueError with a short reason if none."""
        word = text.strip().lower()
        if word == "rainbow" and self.rainbow:
            return self.first_rainbow
        if word in ("grey", "gray") and self.grey:
            return self.first_grey
        letters = COLOUR_LETTERS[: self.colours]
        if len(word) >= 2 and word[0] in letters and word[1:].isascii() and word[1:].isdigit():
            number = int(word[1:])
            if self.low <= number <= self.high:
                face = letters.index(word[0]) * self.n_numbers + number - self.low
                return face * self.copies
        extra = [name for name, n in (("rainbow", self.rainbow), ("grey", self.grey)) if n]
        raise ValueError(
            f"bad card {text.strip()!r}: write a colour letter {', '.join(letters)} and a "
            f"number {self.low}-{self.high}" + (f", or {' or '.join(extra)}" if extra else "")
        )

    def kind_names(self) -> tuple[str, ...]:
        """Card impact's kinds by index: each coloured card, then rainbow, then grey."""
        faces = self.colours * self.n_numbers
        coloured = tuple(self.describe(face * self.copies) for face in range(faces))
        return (*coloured, "rainbow", "grey")


@lru_cache(maxsize=64)
def _build(
    colours: int, low: int, high: int, copies: int, rainbow: int, rainbow_number: int, grey: int
) -> Deck:
    n_numbers = high - low + 1
    faces = colours * n_numbers
    first_rainbow = faces * copies
    first_grey = first_rainbow + rainbow
    size = first_grey + grey
    number, bits, classes, kinds = [], [], [], []
    for card in range(size):
        if card < first_rainbow:
            face = card // copies
            number.append(face % n_numbers + low)
            bits.append(1 << (face // n_numbers))
            classes.append(face // n_numbers)
            kinds.append(face)
        elif card < first_grey:
            number.append(rainbow_number)
            bits.append(15)
            classes.append(4)
            kinds.append(faces)
        else:
            number.append(0)
            bits.append(0)
            classes.append(5)
            kinds.append(faces + 1)
    pair_sum = tuple(
        -1 if a >= first_grey or b >= first_grey else number[a] + number[b]
        for a in range(size)
        for b in range(size)
    )
    pair_class = tuple(classes[a] * 6 + classes[b] for a in range(size) for b in range(size))
    return Deck(
        colours,
        low,
        high,
        copies,
        rainbow,
        rainbow_number,
        grey,
        size,
        first_rainbow,
        first_grey,
        tuple(number),
        tuple(bits),
        tuple(classes),
        tuple(kinds),
        pair_sum,
        pair_class,
    )


def deck_of(value: Mapping[str, Any]) -> Deck:
    """The tables of a checked `deck` knob value (built once per distinct deck)."""
    numbers: Sequence[int] = value["numbers"]
    return _build(
        value["colours"],
        numbers[0],
        numbers[1],
        value["copies"],
        value["rainbow"],
        value["rainbow_number"],
        value["grey"],
    )


DEFAULT = deck_of(DEFAULT_DECK)


def spare_for_theme(deck: Deck) -> int:
    """Cards that must stay in the deck after the my and free chimeras are dealt: a
    theme, plus one pair for each grey card (each may spoil a pair, which is redrawn)."""
    return 2 + 2 * deck.grey
