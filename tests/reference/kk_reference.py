"""A plain reference of Kimekimera with `random` in every seat, from RULES.md alone.

Slow and obvious on purpose: it exists so the real engine
(`balancer.games.kimekimera`) and its exact breeding odds (`balancer.games.kimekimera.odds`)
can be compared with an implementation that shares no code with them. It
follows RULES.md §2 (the game, with every knob), §4 (the `random` bot picks
uniformly among the free-chimera slots), §5 (the events) and §6 (the fine
points).

A card is a tuple (colour, number): colour one of "r", "b", "y", "g" with
number 1..12; ("rainbow", 13), every colour at once; ("grey", 0), no colour
and a wild number. A chimera is a list of cards (two, except where an empty
deck under `reshuffle_discards: false` leaves fewer).

Ambiguities, and how they are read here:
- `colour_bonus_1` / `colour_bonus_2` count the matches the round is *scored*
  with: a robot under `grey_blocks_colour_bonus: true` scores 0 matches even
  when its other card shares a colour with the theme. With `floor_at_zero`
  the matches still count although the floor may hide the bonus.
- Robots (revised §2, §6): with `robot_replacement: at_next_breeding` (the
  default) a my chimera holding a grey card is replaced on its owner's turn,
  in turn order with the other players' breedings, instead of breeding. This
  holds for a robot dealt at the start too: its owner's turn in round 1
  replaces it, and the replacement is what scores in round 1. The
  replacement is not a breeding, so it is made whatever `breeding_optional`
  says (a robot can't keep), and the owner does not breed in that turn.
  With `after_scoring` robots are replaced after each round's scoring (but
  the last), in seat order from seat 0, before the theme.
- `robots_made` counts breedings only, not robots dealt as a replacement.
- Under `reshuffle_discards: false` a draw from an empty deck gets nothing.
  RULES.md only says the slots stay empty; read here: an emptied slot is no
  move for the `random` bot (it holds no free chimera), and a player with no
  non-empty slot can't breed; a robot that can't be replaced stays a robot
  (error 0 again; under `at_next_breeding` its owner's turn then does
  nothing, and the replacement is tried again at the next breeding); a theme
  that can't be replaced stays for the next round (a grey theme drawn while
  trying is still discarded). The deck is always drawn two cards at a time
  from an even 54, so a slot is never half full.
  (A first version of this reference read "gets nothing" literally, an empty
  theme of sum 0 and a robot replaced by no cards; the engine documents the
  reading above, which is the saner one, so the reference follows it.)
- With `breeding_optional: true` keeping is one more move beside the slots.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

Card = tuple[str, int]

COLOURS = ("r", "b", "y", "g")
RAINBOW: Card = ("rainbow", 13)
GREY: Card = ("grey", 0)

DEFAULT_RULES: dict[str, Any] = {
    "free_chimeras": 4,
    "rounds": 5,
    "rotate_first_player": True,
    "breeding_optional": False,
    "leftover": "discard",
    "reshuffle_discards": True,
    "colour_bonus": {1: 3, 2: 7},
    "grey_blocks_colour_bonus": True,
    "floor_at_zero": False,
    "robot_replacement": "at_next_breeding",
}

EVENTS = ("colour_bonus_1", "colour_bonus_2", "exact_hits", "robots_made", "reshuffles")


def full_deck() -> list[Card]:
    """The 54 cards: 4 colours x 1..12, 4 rainbow 13s, 2 greys."""
    cards = [(colour, number) for colour in COLOURS for number in range(1, 13)]
    cards += [RAINBOW] * 4
    cards += [GREY] * 2
    return cards


def colours_of(card: Card) -> set[str]:
    if card == GREY:
        return set()
    if card[0] == "rainbow":
        return set(COLOURS)
    return {card[0]}


def has_grey(chimera: Sequence[Card]) -> bool:
    return any(card == GREY for card in chimera)


def bonus_points(bonus: Mapping[Any, int], matches: int) -> int:
    """Points off for `matches` colour matches; the knob's keys may be ints or strings."""
    if matches == 0:
        return 0
    if matches in bonus:
        return bonus[matches]
    return bonus[str(matches)]


def error_of(theme: Sequence[Card], mine: Sequence[Card]) -> int:
    """|theme sum - my sum|; a grey card anywhere in my chimera makes it 0."""
    if has_grey(mine):
        return 0
    return abs(sum(card[1] for card in theme) - sum(card[1] for card in mine))


def colour_matches(theme: Sequence[Card], mine: Sequence[Card], grey_blocks: bool) -> int:
    """Largest one-to-one matching of theme cards to my cards sharing a colour."""
    if grey_blocks and has_grey(mine):
        return 0

    def share(a: Card, b: Card) -> bool:
        return bool(colours_of(a) & colours_of(b))

    if len(theme) == 2 and len(mine) == 2:
        (t1, t2), (m1, m2) = theme, mine
        if (share(t1, m1) and share(t2, m2)) or (share(t1, m2) and share(t2, m1)):
            return 2
        return 1 if any(share(t, m) for t in theme for m in mine) else 0
    # An empty theme or chimera (only when the deck ran dry) matches nothing.
    return 1 if any(share(t, m) for t in theme for m in mine) else 0


def round_score(
    theme: Sequence[Card],
    mine: Sequence[Card],
    bonus: Mapping[Any, int],
    grey_blocks: bool,
    floor_at_zero: bool,
) -> tuple[int, int, int]:
    """(round score, error, colour matches) of one player's chimera against the theme."""
    error = error_of(theme, mine)
    matches = colour_matches(theme, mine, grey_blocks)
    score = error - bonus_points(bonus, matches)
    if floor_at_zero and score < 0:
        score = 0
    return score, error, matches


def breeding_outcomes(
    theme: Sequence[Card],
    mine: Sequence[Card],
    free: Sequence[Card],
    bonus: Mapping[Any, int] | None = None,
    grey_blocks: bool = True,
    floor_at_zero: bool = False,
) -> list[tuple[tuple[Card, Card], int]]:
    """The 6 equally likely new chimeras of breeding `mine` with `free`, each with its score."""
    bonus = DEFAULT_RULES["colour_bonus"] if bonus is None else bonus
    pool = list(mine) + list(free)
    assert len(pool) == 4, "a breeding pools exactly 4 cards"
    out = []
    for i, j in itertools.combinations(range(4), 2):
        pair = (pool[i], pool[j])
        score, _, _ = round_score(theme, pair, bonus, grey_blocks, floor_at_zero)
        out.append((pair, score))
    return out


def expected_score(
    theme: Sequence[Card],
    mine: Sequence[Card],
    free: Sequence[Card],
    bonus: Mapping[Any, int] | None = None,
    grey_blocks: bool = True,
    floor_at_zero: bool = False,
) -> Fraction:
    """Exact expected round score of breeding `mine` with `free` (the mean over 6 pairs)."""
    outcomes = breeding_outcomes(theme, mine, free, bonus, grey_blocks, floor_at_zero)
    return Fraction(sum(score for _, score in outcomes), len(outcomes))


class _Table:
    """The cards of one game: deck, discard, chimeras, slots and theme."""

    def __init__(
        self,
        rules: Mapping[str, Any],
        rng: random.Random,
        events: dict[str, int],
        stacked: Sequence[Card] | None,
    ):
        self.rules = rules
        self.rng = rng
        self.events = events
        if stacked is None:
            self.deck = full_deck()
            rng.shuffle(self.deck)
        else:
            assert sorted(stacked) == sorted(full_deck()), "a stacked deck must be all 54 cards"
            self.deck = list(reversed(stacked))  # drawn from the end
        self.discard: list[Card] = []

    def draw(self, n: int) -> list[Card]:
        """n cards from the deck; an empty deck reshuffles the discard (if the knob says so)."""
        cards: list[Card] = []
        for _ in range(n):
            if not self.deck:
                if not (self.rules["reshuffle_discards"] and self.discard):
                    break  # gets nothing
                self.deck = self.discard
                self.discard = []
                self.rng.shuffle(self.deck)
                self.events["reshuffles"] += 1
            cards.append(self.deck.pop())
        return cards

    def can_draw(self) -> bool:
        """Whether a draw gets a card: a card in the deck, or a discard to reshuffle."""
        return bool(self.deck) or bool(self.rules["reshuffle_discards"] and self.discard)

    def draw_theme(self) -> list[Card]:
        """A theme with a grey card is discarded whole and redrawn; [] if the deck runs dry."""
        while True:
            theme = self.draw(2)
            if not has_grey(theme):
                return theme
            self.discard.extend(theme)


def replace_robot(table: _Table, mine: list[list[Card]], seat: int) -> None:
    """The robot of `seat` is discarded and a new my chimera drawn, if the deck can give one."""
    if table.can_draw():
        table.discard.extend(mine[seat])
        mine[seat] = table.draw(2)


def _snapshot(
    round_no: int,
    theme: list[Card],
    mine: list[list[Card]],
    slots: list[list[Card]],
    table: _Table,
) -> dict[str, Any]:
    return {
        "round": round_no,
        "theme": list(theme),
        "mine": [list(c) for c in mine],
        "slots": [list(c) for c in slots],
        "deck": len(table.deck),
        "discard": len(table.discard),
    }


def play_one_game(
    players: int,
    rng: random.Random,
    overrides: Mapping[str, Any] | None = None,
    deck: Sequence[Card] | None = None,
    log: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One game with `random` in every seat: {"scores", "length", "events"}.

    For hand checks: `deck` stacks the deck instead of shuffling it (all 54
    cards, the first one drawn first); `log` gets a snapshot of the table
    after each round's scoring.
    """
    rules = dict(DEFAULT_RULES)
    rules.update(overrides or {})
    if rules["robot_replacement"] not in ("at_next_breeding", "after_scoring"):
        raise ValueError(f"unknown robot_replacement {rules['robot_replacement']!r}")
    events = {name: 0 for name in EVENTS}
    table = _Table(rules, rng, events, deck)
    bonus = rules["colour_bonus"]

    mine = [table.draw(2) for _ in range(players)]
    slots = [table.draw(2) for _ in range(rules["free_chimeras"])]
    theme = table.draw_theme()
    totals = [0] * players

    for round_no in range(rules["rounds"]):
        first = round_no % players if rules["rotate_first_player"] else 0
        for k in range(players):
            seat = (first + k) % players
            if has_grey(mine[seat]):
                # A robot can't breed; under at_next_breeding this turn replaces it.
                if rules["robot_replacement"] == "at_next_breeding":
                    replace_robot(table, mine, seat)
                continue
            moves: list[int | None] = [i for i, slot in enumerate(slots) if slot]
            if rules["breeding_optional"]:
                moves.append(None)  # keep
            if not moves:
                continue
            move = moves[rng.randrange(len(moves))]
            if move is None:
                continue
            pool = mine[seat] + slots[move]
            rng.shuffle(pool)
            mine[seat] = pool[:2]
            rest = pool[2:]
            if has_grey(mine[seat]):
                events["robots_made"] += 1
            if rules["leftover"] == "discard":
                table.discard.extend(rest)
                slots[move] = table.draw(2)
            else:
                slots[move] = rest

        for seat in range(players):
            score, error, matches = round_score(
                theme, mine[seat], bonus, rules["grey_blocks_colour_bonus"], rules["floor_at_zero"]
            )
            totals[seat] += score
            if error == 0:
                events["exact_hits"] += 1
            if matches == 1:
                events["colour_bonus_1"] += 1
            elif matches == 2:
                events["colour_bonus_2"] += 1

        if log is not None:
            log.append(_snapshot(round_no, theme, mine, slots, table))
        if round_no == rules["rounds"] - 1:
            break
        # Under after_scoring robots go first, in seat order; one the deck can't
        # replace stays a robot.
        if rules["robot_replacement"] == "after_scoring":
            for seat in range(players):
                if has_grey(mine[seat]):
                    replace_robot(table, mine, seat)
        # Then the theme; one the deck can't replace stays.
        if rules["reshuffle_discards"]:
            table.discard.extend(theme)  # before the draw, so a reshuffle takes it in
            theme = table.draw_theme()
        else:
            new_theme = table.draw_theme()
            if new_theme:
                table.discard.extend(theme)
                theme = new_theme

    in_play = sum(len(c) for c in mine) + sum(len(s) for s in slots) + len(theme)
    assert in_play + len(table.deck) + len(table.discard) == 54, "cards not conserved"
    return {"scores": [float(t) for t in totals], "length": rules["rounds"], "events": events}
