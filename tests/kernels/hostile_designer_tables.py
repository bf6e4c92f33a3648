"""The hand-laid tables of test_roles_hostile_designer.py: issue 38's mechanics at their
edges in the small game files of tests/data/hostile38/, each worked out by hand in its
comment from docs/new-game.md's words (the test holds both paths to them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from balancer import knobs
from balancer.games.roles import load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.model import RoleGame

DATA = Path(__file__).parent.parent / "data" / "hostile38"
BIG = 10**9  # the largest number, knob and counter bound a file may write


@cache
def game_of(name: str) -> RoleGame:
    return load_file(DATA / f"{name}.yaml")


def card(role: int, number: int, numbers: int, low: int = 1) -> int:
    """A one-colour one-line deck's card: role by role, number by number (deck.py)."""
    return role * numbers + number - low


# Each file's cards, as its header comment numbers them.
def d(role: int, n: int) -> int:  # draw: none, one, lots, give, rest, share; numbers 1..4
    return card(role, n, 4)


def x(role: int, n: int) -> int:  # discard: dump, toss, purge, sack, raid, rest; 1..4
    return card(role, n, 4)


def c(role: int, n: int) -> int:  # conditions: mine, nxt, prv, lead, tops, bots, pick, rest
    return card(role, n, 3)


def a(role: int, n: int) -> int:  # amounts: up, down, twice, back, copy, cash, rest
    return card(role, n, 2, BIG - 1)


NONE, ONE, LOTS, GIVE, D_REST, SHARE = range(6)
DUMP, TOSS, PURGE, SACK, RAID, X_REST = range(6)
MINE, NXT, PRV, LEAD, TOPS, BOTS, PICK, C_REST = range(8)
UP, DOWN, TWICE, BACK, COPY, CASH, A_REST = range(7)
LO, HI = BIG - 1, BIG  # amounts' two numbers
HOLD, BUMP = range(2)  # rank: card = role * 5 + number - 1
GRAB, WIPE, KEEP = range(3)  # goals: card = role * 4 + number - 1
MISER, KEEPER, CHAMPION = range(3)  # goals: the goal cards in the file's order
TOW, WAVE, SHIELD, IDLE = range(4)  # targets: card = role * 3 + number - 1


@dataclass(frozen=True)
class Laid:
    """A table laid by hand: a file, the hands (and pile, zones, counters, flags, goals,
    knobs), the moves played from the leader (seat 0), the options asked before some
    moves, and what it leaves, worked out by hand: `after` by the kernel snapshot's
    names (pile top card first), and at the end the scores and every event's count."""

    file: str
    hands: tuple[tuple[int, ...], ...]
    moves: tuple[int, ...]
    after: dict[str, Any] = field(default_factory=dict)
    scores: tuple[int, ...] | None = None  # None: the game is not over
    events: dict[str, int] = field(default_factory=dict)  # the counts other than 0
    pile: tuple[int, ...] = ()
    zones: dict[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    counters: dict[str, tuple[int, ...]] = field(default_factory=dict)
    flags: dict[str, tuple[bool, ...]] = field(default_factory=dict)
    globals_: dict[str, int] = field(default_factory=dict)
    goals: tuple[tuple[int, ...], ...] | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    asked: dict[int, tuple[int, ...]] = field(default_factory=dict)  # move index: options

    def state(self) -> State:
        game = game_of(self.file)
        rules = {**knobs.defaults(game_knobs(game)), **self.rules}
        state = State.arranged(
            game,
            rules,
            [list(h) for h in self.hands],
            pile=list(self.pile),
            zones={k: [list(z) for z in v] for k, v in self.zones.items()},
            counters={k: list(v) for k, v in self.counters.items()},
            globals_=self.globals_,
            goals=None if self.goals is None else [list(g) for g in self.goals],
        )
        for name, values in self.flags.items():
            state.flags[name] = list(values)
        return state

    def all_events(self) -> dict[str, int]:
        return {e.name: 0 for e in game_of(self.file).events} | self.events


LAID: dict[str, Laid] = {
    # --- draw ---------------------------------------------------------------------
    # Seat 0's lots 4 resolves first and draws 10^9 from a pile of 3: the whole pile, top
    # card first, into its hand (one draw); seat 1's rest 3 to its bag. The round of
    # draws finds the pile empty. Seat 0 plays on alone.
    "draw-lots-takes-the-whole-pile": Laid(
        "draw",
        hands=((d(LOTS, 4),), (d(D_REST, 3),)),
        pile=(d(ONE, 1), d(ONE, 2), d(D_REST, 1)),
        moves=(d(LOTS, 4), d(D_REST, 3)),
        after={"hands": [[d(ONE, 1), d(ONE, 2), d(D_REST, 1)], []], "pile": []},
    ),
    # On from there: its one 1 and one 2 draw from the empty pile (no draw counted), its
    # rest 1 to its bag. Each seat's bag holds one card: 1 point each.
    "draw-lots-then-the-pile-is-empty": Laid(
        "draw",
        hands=((d(LOTS, 4),), (d(D_REST, 3),)),
        pile=(d(ONE, 1), d(ONE, 2), d(D_REST, 1)),
        moves=(d(LOTS, 4), d(D_REST, 3), d(ONE, 1), d(ONE, 2), d(D_REST, 1)),
        after={"zones": {"bag": [[d(D_REST, 1)], [d(D_REST, 3)]]}},
        scores=(1, 1),
        events={"draws": 1},
    ),
    # A count of 0 draws nothing and counts nothing; the round of draws gives seat 0 the
    # pile's one card, which draws 1 from the empty pile: nothing.
    "draw-none-draws-nothing": Laid(
        "draw",
        hands=((d(NONE, 4),), (d(D_REST, 3),)),
        pile=(d(ONE, 1),),
        moves=(d(NONE, 4), d(D_REST, 3), d(ONE, 1)),
        scores=(0, 1),
    ),
    # Each one draws one: seat 0's one 2 first (rest 1), then seat 1's one 1 (rest 2):
    # two draws. The round of draws from seat 0 gives it rest 3; the pile is empty.
    "draw-one-each": Laid(
        "draw",
        hands=((d(ONE, 2),), (d(ONE, 1),)),
        pile=(d(D_REST, 1), d(D_REST, 2), d(D_REST, 3)),
        moves=(d(ONE, 2), d(ONE, 1)),
        after={"hands": [[d(D_REST, 1), d(D_REST, 3)], [d(D_REST, 2)]], "pile": []},
        events={"draws": 2},
    ),
    # On: rest 1 and rest 2 to the bags (rest 2 first: seat 1 leads, with no card), then
    # seat 0's rest 3. Bags 2 and 1.
    "draw-one-each-to-the-end": Laid(
        "draw",
        hands=((d(ONE, 2),), (d(ONE, 1),)),
        pile=(d(D_REST, 1), d(D_REST, 2), d(D_REST, 3)),
        moves=(d(ONE, 2), d(ONE, 1), d(D_REST, 1), d(D_REST, 2), d(D_REST, 3)),
        scores=(2, 1),
        events={"draws": 2},
    ),
    # Three seats: seat 0's give 3 makes the next seat (1) draw 3 from a pile of 2: both
    # (one gift). The rests to the bags; seat 1 alone plays its two draws, each drawing
    # from the empty pile or nothing at all.
    "draw-give-next-runs-the-pile-out": Laid(
        "draw",
        hands=((d(GIVE, 3),), (d(D_REST, 2),), (d(D_REST, 1),)),
        pile=(d(ONE, 1), d(NONE, 1)),
        moves=(d(GIVE, 3), d(D_REST, 2), d(D_REST, 1), d(ONE, 1), d(NONE, 1)),
        after={"zones": {"bag": [[], [d(D_REST, 2)], [d(D_REST, 1)]]}},
        scores=(0, 1, 1),
        events={"gifts": 1},
    ),
    # Seat 1's share 4 (all, 2 each): the owner first, then from its left: seat 1 draws
    # one 1 and one 2, seat 2 one 3, seat 0 none (the pile is out); one gift. The rests
    # go to the bags after.
    "draw-all-owner-first-pile-short": Laid(
        "draw",
        hands=((d(D_REST, 1),), (d(SHARE, 4),), (d(D_REST, 2),)),
        pile=(d(ONE, 1), d(ONE, 2), d(ONE, 3)),
        moves=(d(D_REST, 1), d(SHARE, 4), d(D_REST, 2)),
        after={"hands": [[], [d(ONE, 1), d(ONE, 2)], [d(ONE, 3)]], "pile": []},
        events={"gifts": 1},
    ),
    # --- discard ------------------------------------------------------------------
    # Seat 0's dump 4: its hand holds rest 1 and rest 2, two ways (the cards as moves);
    # it picks rest 2. Then its rest 1 to its bag. Bags 1 and 1, one dump.
    "discard-dump-chosen-from-the-hand": Laid(
        "discard",
        hands=((x(DUMP, 4), x(X_REST, 1), x(X_REST, 2)), (x(X_REST, 3),)),
        moves=(x(DUMP, 4), x(X_REST, 3), x(X_REST, 2), x(X_REST, 1)),
        asked={2: (x(X_REST, 1), x(X_REST, 2))},
        after={"zones": {"bag": [[x(X_REST, 1)], [x(X_REST, 3)]]}},
        scores=(1, 1),
        events={"dumps": 1},
    ),
    # Seat 0's toss 4 with dump 1 and dump 2 in its bag: two ways; it tosses dump 2.
    "discard-toss-chosen-from-the-bag": Laid(
        "discard",
        hands=((x(TOSS, 4),), (x(X_REST, 3),)),
        zones={"bag": ((x(DUMP, 1), x(DUMP, 2)), ())},
        moves=(x(TOSS, 4), x(X_REST, 3), x(DUMP, 2)),
        asked={2: (x(DUMP, 1), x(DUMP, 2))},
        after={"zones": {"bag": [[x(DUMP, 1)], [x(X_REST, 3)]]}},
        scores=(1, 1),
        events={"tosses": 1},
    ),
    # One card in the bag: one way, tossed with no decision.
    "discard-toss-the-only-card": Laid(
        "discard",
        hands=((x(TOSS, 4),), (x(X_REST, 3),)),
        zones={"bag": ((x(DUMP, 1),), ())},
        moves=(x(TOSS, 4), x(X_REST, 3)),
        scores=(0, 1),
        events={"tosses": 1},
    ),
    # An empty bag: no way to act, no toss counted.
    "discard-toss-from-an-empty-bag": Laid(
        "discard",
        hands=((x(TOSS, 4),), (x(X_REST, 3),)),
        moves=(x(TOSS, 4), x(X_REST, 3)),
        scores=(0, 1),
    ),
    # A purge of 5 at random from a hand of 2: both go (whatever the chance draws).
    "discard-purge-more-than-the-hand": Laid(
        "discard",
        hands=((x(PURGE, 4), x(X_REST, 1), x(X_REST, 2)), (x(X_REST, 3),)),
        moves=(x(PURGE, 4), x(X_REST, 3)),
        after={"hands": [[], []]},
        scores=(0, 1),
        events={"purges": 1},
    ),
    # A purge of 5 from a hand of 6 (after the purge is played): 5 go, one stays, which
    # one as the chance draws (the same card on both paths: test_both_paths_step_alike).
    "discard-purge-five-of-six": Laid(
        "discard",
        hands=(
            (x(PURGE, 4), x(DUMP, 1), x(DUMP, 2), x(DUMP, 3), x(TOSS, 1), x(TOSS, 2), x(TOSS, 3)),
            (x(X_REST, 3),),
        ),
        moves=(x(PURGE, 4), x(X_REST, 3)),
        after={"hand_sizes": [1, 0]},
        events={"purges": 1},
    ),
    # From an empty hand: nothing, no purge counted.
    "discard-purge-an-empty-hand": Laid(
        "discard",
        hands=((x(PURGE, 4),), (x(X_REST, 3),)),
        moves=(x(PURGE, 4), x(X_REST, 3)),
        scores=(0, 1),
    ),
    # Seat 0's sack 4 takes 9 at random from every rival's bag: seat 1's two cards; seat
    # 2's bag is empty (its rest 2 resolves after). Its own bag keeps dump 1.
    "discard-sack-every-rivals-bag": Laid(
        "discard",
        hands=((x(SACK, 4),), (x(X_REST, 1),), (x(X_REST, 2),)),
        zones={"bag": ((x(DUMP, 1),), (x(DUMP, 2), x(DUMP, 3)), ())},
        moves=(x(SACK, 4), x(X_REST, 1), x(X_REST, 2)),
        after={"zones": {"bag": [[x(DUMP, 1)], [x(X_REST, 1)], [x(X_REST, 2)]]}},
        scores=(1, 1, 1),
        events={"sacks": 1},
    ),
    # The control: no rival's bag holds a card; no sack counted.
    "discard-sack-empty-bags": Laid(
        "discard",
        hands=((x(SACK, 4),), (x(X_REST, 1),), (x(X_REST, 2),)),
        zones={"bag": ((x(DUMP, 1),), (), ())},
        moves=(x(SACK, 4), x(X_REST, 1), x(X_REST, 2)),
        scores=(1, 1, 1),
    ),
    # Seat 0's raid 3 (a rival, its pick): one option, so rival s is -(1 + 1 + s): seat 1
    # -3, seat 2 -4. It picks seat 2, whose hand (dump 3, toss 1) goes: 3 > 2 cards. Next
    # trick: seat 1's dump 2 finds its hand empty (no way), seat 0's purge 1 too.
    "discard-raid-a-rival-it-picks": Laid(
        "discard",
        hands=(
            (x(RAID, 3), x(PURGE, 1)),
            (x(X_REST, 1), x(DUMP, 2)),
            (x(X_REST, 2), x(DUMP, 3), x(TOSS, 1)),
        ),
        moves=(x(RAID, 3), x(X_REST, 1), x(X_REST, 2), -4, x(PURGE, 1), x(DUMP, 2)),
        asked={3: (-3, -4)},
        after={"hands": [[], [], []]},
        scores=(0, 1, 1),
        events={"raids": 1},
    ),
    # --- conditions: each role adds its own power of two -----------------------------
    # mine 3: pos 3 is within low (3)..5: +1. nxt 2: seat 1's next, seat 2, is shielded:
    # +2. prv 1: seat 2's prev, seat 1, holds 2 in its bag: +4.
    "if-self-next-prev-hold": Laid(
        "conditions",
        hands=((c(MINE, 3),), (c(NXT, 2),), (c(PRV, 1),)),
        counters={"pos": (3, 0, -2)},
        flags={"shield": (False, False, True)},
        zones={"bag": ((), (c(C_REST, 1), c(C_REST, 2)), ())},
        moves=(c(MINE, 3), c(NXT, 2), c(PRV, 1)),
        scores=(4, 2, 2),
        events={"ifs": 3},
    ),
    # The control: pos 6 is past 5; the shields are seat 1's own and its prev's, not its
    # next's; seat 2's next (seat 0) holds 2 in its bag, its prev 1. Nothing acts.
    "if-self-next-prev-fail": Laid(
        "conditions",
        hands=((c(MINE, 3),), (c(NXT, 2),), (c(PRV, 1),)),
        counters={"pos": (6, 0, -2)},
        flags={"shield": (True, True, False)},
        zones={"bag": ((c(C_REST, 1), c(C_REST, 2)), (c(C_REST, 3),), ())},
        moves=(c(MINE, 3), c(NXT, 2), c(PRV, 1)),
        scores=(6, 0, -2),
    ),
    # The knob low at 5: pos 5 is within 5..5, +1; below it (4) nothing.
    "if-a-knob-bound-at-its-edge": Laid(
        "conditions",
        hands=((c(MINE, 3),), (c(C_REST, 2),)),
        counters={"pos": (5, 4)},
        rules={"low": 5},
        moves=(c(MINE, 3), c(C_REST, 2)),
        scores=(6, 4),
        events={"ifs": 1},
    ),
    # tops 3 (seat 1): of its rivals seat 0 (0) has the most, and its bag is empty: +16.
    # bots 2 (seat 2): the fewest of seat 0 (0) and seat 1 (21) is seat 0, at 0, not in
    # -5..-1. lead 1 (seat 0): the trick's leader, itself, at 0 <= 0: +8.
    "if-top-bottom-leader": Laid(
        "conditions",
        hands=((c(LEAD, 1),), (c(TOPS, 3),), (c(BOTS, 2),)),
        counters={"pos": (0, 5, -3)},
        moves=(c(LEAD, 1), c(TOPS, 3), c(BOTS, 2)),
        scores=(8, 21, -3),
        events={"ifs": 2},
    ),
    # bots 3 (seat 1): the fewest of its rivals is seat 0 at -1: +32 (to 36). lead 2
    # (seat 2): leader seat 0 at -1 <= 0: +8. tops 1 (seat 0), read when its turn comes:
    # the most is now seat 1 (36), whose bag holds a card: nothing (read when played, it
    # would have been seat 2, bag empty).
    "if-read-when-the-step-acts": Laid(
        "conditions",
        hands=((c(TOPS, 1),), (c(BOTS, 3),), (c(LEAD, 2),)),
        counters={"pos": (-1, 4, 7)},
        zones={"bag": ((), (c(C_REST, 1),), ())},
        moves=(c(TOPS, 1), c(BOTS, 3), c(LEAD, 2)),
        scores=(-1, 36, 15),
        events={"ifs": 2},
    ),
    # top with a tie: seats 1 and 2 at 5; the first from seat 0's left is seat 1, whose
    # bag holds a card: nothing (seat 2's is empty).
    "if-top-tie-reads-the-first-from-the-left": Laid(
        "conditions",
        hands=((c(TOPS, 3),), (c(C_REST, 1),), (c(C_REST, 2),)),
        counters={"pos": (0, 5, 5)},
        zones={"bag": ((), (c(C_REST, 3),), ())},
        moves=(c(TOPS, 3), c(C_REST, 1), c(C_REST, 2)),
        scores=(0, 5, 5),
    ),
    # pick: the shield option is false and drops out; the bag option (1 card, within
    # 1..1) applies alone, no decision: +128.
    "if-false-option-drops-out-of-choose": Laid(
        "conditions",
        hands=((c(PICK, 3),), (c(C_REST, 2),)),
        zones={"bag": ((c(C_REST, 1),), ())},
        moves=(c(PICK, 3), c(C_REST, 2)),
        scores=(128, 0),
        events={"picks": 1},
    ),
    # Both hold: a decision, options -1 and -2; the first: +64.
    "if-both-options-hold": Laid(
        "conditions",
        hands=((c(PICK, 3),), (c(C_REST, 2),)),
        flags={"shield": (True, False)},
        zones={"bag": ((c(C_REST, 1),), ())},
        moves=(c(PICK, 3), c(C_REST, 2), -1),
        asked={2: (-1, -2)},
        scores=(64, 0),
        events={"picks": 1},
    ),
    # Neither: no shield, and 2 cards in the bag (past at most 1): the pick does nothing.
    "if-no-option-holds": Laid(
        "conditions",
        hands=((c(PICK, 3),), (c(C_REST, 2),)),
        zones={"bag": ((c(C_REST, 1), c(C_REST, 3)), ())},
        moves=(c(PICK, 3), c(C_REST, 2)),
        scores=(0, 0),
    ),
    # --- amounts ------------------------------------------------------------------
    # up 10^9 * k 10^9 = 10^18: kept at 10^9; down -(10^9 - 1) * 10^9: kept at -10^9.
    "amount-number-times-knob-at-its-largest": Laid(
        "amounts",
        hands=((a(UP, HI),), (a(DOWN, LO),)),
        moves=(a(UP, HI), a(DOWN, LO)),
        scores=(BIG, -BIG),
        events={"moves": 2},
    ),
    # k = 1: up 10^9 lands on the bound exactly; down -(10^9 - 1).
    "amount-knob-one": Laid(
        "amounts",
        hands=((a(UP, HI),), (a(DOWN, LO),)),
        rules={"k": 1},
        moves=(a(UP, HI), a(DOWN, LO)),
        scores=(BIG, -LO),
        events={"moves": 2},
    ),
    # k = -1 turns both: up -10^9, down +(10^9 - 1).
    "amount-knob-minus-one": Laid(
        "amounts",
        hands=((a(UP, HI),), (a(DOWN, LO),)),
        rules={"k": -1},
        moves=(a(UP, HI), a(DOWN, LO)),
        scores=(-BIG, LO),
        events={"moves": 2},
    ),
    # k = 0: both add 0, nothing changes, no move counted.
    "amount-knob-zero": Laid(
        "amounts",
        hands=((a(UP, HI),), (a(DOWN, LO),)),
        rules={"k": 0},
        moves=(a(UP, HI), a(DOWN, LO)),
        scores=(0, 0),
    ),
    # back 10^9 first: 10^9 - 10^9 = 0. twice 10^9 - 1: -10^9 + 2 * (10^9 - 1) = 10^9 - 2.
    "amount-twice-and-minus-number": Laid(
        "amounts",
        hands=((a(TWICE, LO),), (a(BACK, HI),)),
        counters={"pos": (-BIG, BIG)},
        moves=(a(TWICE, LO), a(BACK, HI)),
        scores=(BIG - 2, 0),
        events={"moves": 2},
    ),
    # copy adds the owner's pos: 6 * 10^8 doubled is past 10^9, kept there; -3 to -6.
    "amount-counter-doubles": Laid(
        "amounts",
        hands=((a(COPY, HI),), (a(COPY, LO),)),
        counters={"pos": (6 * 10**8, -3)},
        moves=(a(COPY, HI), a(COPY, LO)),
        scores=(BIG, -6),
        events={"moves": 2},
    ),
    # copy of 0 adds 0: no move; 5 to 10.
    "amount-counter-zero-adds-nothing": Laid(
        "amounts",
        hands=((a(COPY, HI),), (a(COPY, LO),)),
        counters={"pos": (0, 5)},
        moves=(a(COPY, HI), a(COPY, LO)),
        scores=(0, 10),
        events={"moves": 1},
    ),
    # cash adds the bag's numbers: 1 + (10^9 - 1) = 10^9 exactly.
    "amount-value-to-the-bound": Laid(
        "amounts",
        hands=((a(CASH, HI),), (a(A_REST, LO),)),
        zones={"bag": ((a(TWICE, LO),), ())},
        counters={"cash": (1, 0)},
        moves=(a(CASH, HI), a(A_REST, LO)),
        scores=(BIG, 0),
        events={"cashes": 1},
    ),
    # Two cards of 10^9 - 1 and 10^9: 2 * 10^9 - 1, kept at 10^9.
    "amount-value-past-the-bound": Laid(
        "amounts",
        hands=((a(CASH, HI),), (a(A_REST, LO),)),
        zones={"bag": ((a(UP, LO), a(DOWN, HI)), ())},
        moves=(a(CASH, HI), a(A_REST, LO)),
        scores=(BIG, 0),
        events={"cashes": 1},
    ),
    # --- groups (cards as groups.yaml's header numbers them) -------------------------
    # jump 5 (card 10, blue) leads, blue go 2 (5) follows: +10 and +2. Next, seat 0's red
    # go 1 (0) and seat 1's red stop 2 (8, a copy of card 3): stop first, seat 1's next
    # (seat 0) -1 (to 9), then go +1 (to 10).
    "groups-a-trick-of-each-group": Laid(
        "groups",
        hands=((10, 0), (8, 5)),
        moves=(10, 5, 0, 8),
        scores=(10, 2),
        events={"moves": 3, "stops": 1},
    ),
    # Two copies of red stop 2 (cards 3 and 9, groups 0 and 1): a repeated number of the
    # lead colour, both cancelled: nothing resolves.
    "groups-copies-from-two-groups-cancel": Laid(
        "groups",
        hands=((3,), (9,)),
        moves=(3, 9),
        scores=(0, 0),
    ),
    # --- rank: [first 7, 3, 1, -fine -2] the most first, [10, 20] the fewest first ----
    # gold 3, 3, 3, 1, 1: places 1, 1, 1, 4, 4 (7, 7, 7, -2, -2); the fewest first 3, 3,
    # 3, 1, 1 (0, 0, 0, 10, 10).
    "rank-three-way-and-two-way-ties": Laid(
        "rank",
        hands=((0,), (1,), (2,), (3,), (4,)),
        counters={"gold": (3, 3, 3, 1, 1)},
        moves=(0, 1, 2, 3, 4),
        scores=(7, 7, 7, 8, 8),
    ),
    # The same with first 100 and fine 7: 100, 100, 100, -7 + 10, -7 + 10.
    "rank-knobs-as-points": Laid(
        "rank",
        hands=((0,), (1,), (2,), (3,), (4,)),
        counters={"gold": (3, 3, 3, 1, 1)},
        rules={"first": 100, "fine": 7},
        moves=(0, 1, 2, 3, 4),
        scores=(100, 100, 100, 3, 3),
    ),
    # Seat 0's bump 5 brings 4 to 5: gold 5, 2, 5, 0, 2. Most first: 1, 3, 1, 5, 3 (7, 1,
    # 7, 0, 1); fewest first: 4, 2, 4, 1, 2 (0, 20, 0, 10, 20).
    "rank-two-pairs-after-a-bump": Laid(
        "rank",
        hands=((9,), (0,), (1,), (2,), (3,)),
        counters={"gold": (4, 2, 5, 0, 2)},
        moves=(9, 0, 1, 2, 3),
        scores=(7, 21, 7, 10, 21),
        events={"bumps": 1},
    ),
    # Two seats tied: place 1 both ways: 7 + 10 each.
    "rank-two-players-tie": Laid(
        "rank",
        hands=((0,), (1,)),
        counters={"gold": (2, 2)},
        moves=(0, 1),
        scores=(17, 17),
    ),
    # 4, 3, 2, 1: most first 7, 3, 1, -2 (the -fine); fewest first 0, 0, 20, 10.
    "rank-no-tie-reaches-the-fine": Laid(
        "rank",
        hands=((0,), (1,), (2,), (3,)),
        counters={"gold": (4, 3, 2, 1)},
        moves=(0, 1, 2, 3),
        scores=(7, 3, 21, 8),
    ),
    # --- secret goals and clear (goals: miser 3 x coins, keeper 5 + number per vault
    # card, champion 10 for the most coins) --------------------------------------------
    # grab 4 (seat 0): 1 + 4 = 5, locks itself. keep 3: seat 1's vault. grab 2 (seat 2):
    # locked, skipped. Seat 0 miser 5 + 15; seat 1 keeper 0 + 5 + 3; seat 2 champion
    # with 4 coins, behind seat 0's 5: 4 + 0.
    "goals-miser-keeper-champion": Laid(
        "goals",
        hands=((3,), (10,), (1,)),
        counters={"coins": (1, 0, 4)},
        flags={"lock": (False, False, True)},
        goals=((MISER,), (KEEPER,), (CHAMPION,)),
        moves=(3, 10, 1),
        after={"flags": {"lock": [1, 0, 1]}, "counters": {"coins": [5, 0, 4]}},
        scores=(20, 8, 4),
        events={"grabs": 1},
    ),
    # Champion with the most coins (12): 12 + 10; miser at 0 coins: 0; keeper with an
    # empty vault (the keep was seat 1's): 4 + 0.
    "goals-champion-wins-its-rank": Laid(
        "goals",
        hands=((3,), (10,), (1,)),
        counters={"coins": (8, 0, 4)},
        flags={"lock": (False, False, True)},
        goals=((CHAMPION,), (MISER,), (KEEPER,)),
        moves=(3, 10, 1),
        scores=(22, 0, 4),
        events={"grabs": 1},
    ),
    # wipe 2 clears both locks first (one wipe); seat 1's grab 1 then takes 1 and locks.
    "goals-clear-all-then-grab": Laid(
        "goals",
        hands=((card(WIPE, 2, 4),), (card(GRAB, 1, 4),)),
        flags={"lock": (True, True)},
        goals=((MISER,), (KEEPER,)),
        moves=(card(WIPE, 2, 4), card(GRAB, 1, 4)),
        after={"flags": {"lock": [0, 1]}},
        scores=(0, 1),
        events={"grabs": 1, "wipes": 1},
    ),
    # The control: no lock set, the wipe changes nothing and counts nothing.
    "goals-clear-of-nothing": Laid(
        "goals",
        hands=((card(WIPE, 2, 4),), (card(GRAB, 1, 4),)),
        goals=((MISER,), (KEEPER,)),
        moves=(card(WIPE, 2, 4), card(GRAB, 1, 4)),
        after={"flags": {"lock": [0, 1]}},
        scores=(0, 1),
        events={"grabs": 1},
    ),
    # --- targets ------------------------------------------------------------------
    # tow 3 (seat 1): the fewest of its rivals, a tie at 1: the first from its left,
    # seat 2, + 30: kept at 20.
    "target-bottom-tie-from-the-left": Laid(
        "targets",
        hands=((card(IDLE, 1, 3),), (card(TOW, 3, 3),), (card(IDLE, 2, 3),)),
        counters={"pos": (1, 5, 1)},
        moves=(card(IDLE, 1, 3), card(TOW, 3, 3), card(IDLE, 2, 3)),
        scores=(1, 5, 20),
        events={"tows": 1},
    ),
    # Seat 2's shield 3 first; the tow 2 picks seat 2 again, shielded: it does nothing
    # (it does not go on to seat 0).
    "target-bottom-shielded-is-skipped": Laid(
        "targets",
        hands=((card(IDLE, 1, 3),), (card(TOW, 2, 3),), (card(SHIELD, 3, 3),)),
        counters={"pos": (1, 5, 1)},
        moves=(card(IDLE, 1, 3), card(TOW, 2, 3), card(SHIELD, 3, 3)),
        scores=(1, 5, 1),
        events={"shields": 1},
    ),
    # The control: seat 0 shielded instead: seat 2 is towed, 1 + 20.
    "target-bottom-other-shielded": Laid(
        "targets",
        hands=((card(SHIELD, 3, 3),), (card(TOW, 2, 3),), (card(IDLE, 1, 3),)),
        counters={"pos": (1, 5, 1)},
        moves=(card(SHIELD, 3, 3), card(TOW, 2, 3), card(IDLE, 1, 3)),
        scores=(1, 5, 20),
        events={"shields": 1, "tows": 1},
    ),
    # wave (all, max 6): seat 0 at 6 stays, seat 1 shielded is skipped, seat 2 3 -> 4.
    "target-all-with-max-and-unless": Laid(
        "targets",
        hands=((card(WAVE, 2, 3),), (card(SHIELD, 3, 3),), (card(IDLE, 1, 3),)),
        counters={"pos": (6, 0, 3)},
        moves=(card(WAVE, 2, 3), card(SHIELD, 3, 3), card(IDLE, 1, 3)),
        scores=(6, 0, 4),
        events={"shields": 1, "waves": 1},
    ),
    # `all` is the owner too: seat 0 at 2 rises to 3 beside seat 2 (3 -> 4).
    "target-all-lifts-the-owner-too": Laid(
        "targets",
        hands=((card(WAVE, 2, 3),), (card(SHIELD, 3, 3),), (card(IDLE, 1, 3),)),
        counters={"pos": (2, 0, 3)},
        moves=(card(WAVE, 2, 3), card(SHIELD, 3, 3), card(IDLE, 1, 3)),
        scores=(3, 0, 4),
        events={"shields": 1, "waves": 1},
    ),
    # The control: seat 2 at 6 too: nothing changes, no wave.
    "target-all-changes-nothing": Laid(
        "targets",
        hands=((card(WAVE, 2, 3),), (card(SHIELD, 3, 3),), (card(IDLE, 1, 3),)),
        counters={"pos": (6, 0, 6)},
        moves=(card(WAVE, 2, 3), card(SHIELD, 3, 3), card(IDLE, 1, 3)),
        scores=(6, 0, 6),
        events={"shields": 1},
    ),
    # --- ends (card = (colour * 2 + role) * 4 + number - 1; tick 0, idle 1) ---------
    # red tick 4 then red tick 1: clock 4, then 5 = alarm: over after one trick, the
    # hands still holding a card each.
    "end-at-a-global-reaching-a-knob": Laid(
        "ends",
        hands=((3, 4), (0, 5)),
        moves=(3, 0),
        after={"hands": [[4], [5]], "globals": {"clock": 5}, "tricks": 1},
        scores=(1, 1),
        events={"ticks": 2},
    ),
    # The control: alarm 6; the game goes on.
    "end-global-short-of-the-knob": Laid(
        "ends",
        hands=((3, 4), (0, 5)),
        rules={"alarm": 6},
        moves=(3, 0),
        after={"hands": [[4], [5]], "globals": {"clock": 5}},
    ),
    # Idle cards only, alarm out of reach: span 3 ends it after the third trick (seat 1
    # leads the second and third: its card is the higher each time).
    "end-after-three-tricks": Laid(
        "ends",
        hands=((4, 6, 12, 14), (5, 7, 13, 15)),
        rules={"alarm": 100},
        moves=(4, 5, 7, 6, 13, 12),
        after={"hands": [[14], [15]], "tricks": 3},
        scores=(0, 0),
    ),
    # The control: span 4, not over yet.
    "end-not-before-its-tricks": Laid(
        "ends",
        hands=((4, 6, 12, 14), (5, 7, 13, 15)),
        rules={"alarm": 100, "span": 4},
        moves=(4, 5, 7, 6, 13, 12),
        after={"hands": [[14], [15]], "tricks": 3},
    ),
    # --- the smallest: two cards, a role with no step, no event, a rank of zeros -------
    "smallest-game": Laid("smallest", hands=((0,), (1,)), moves=(0, 1), scores=(1, 1)),
}
