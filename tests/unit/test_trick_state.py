"""The table both trick engines stand on (games/trick/state.py), on its own.

A toy game on `TrickState` plays hand-laid deals worked out by hand: the seats play
cards numbered by their value, the highest card's owner decides whether the trick's
cards go to the discard (0) or to a pile of its own (1, and it leads next). Who
leads, who may play and in what order, the decision, the next leader and the draw,
the end, the trace, clones and the conservation check are TrickState's; only that
decision is the toy's.
"""

from __future__ import annotations

from typing import Any

import pytest

from balancer.errors import InvariantError
from balancer.games.api import pack_held
from balancer.games.trick.procedure import CHOICE, OVER, PLAY
from balancer.games.trick.state import TrickState, redeal_unseen
from balancer.rng import Stream

SIZE = 9  # cards 0..8, each its own number


def rules(**changed: Any) -> dict[str, Any]:
    return {
        "hand_size": 2,
        "first_leader": "seat0",
        "leader_if_nothing_resolves": "same",
        **changed,
    }


class Toy(TrickState):
    """The highest card's owner keeps the trick (1) or discards it (0)."""

    __slots__ = (*TrickState.FIELDS, "won", "winner")

    @classmethod
    def dealt(cls, rules: dict[str, Any], players: int, copies: int, rng: Stream) -> Toy:
        state = cls.__new__(cls)
        state._set_table(rules, players, SIZE, copies, {"kept": 0}, rng)
        state.won = [[] for _ in range(players)]
        state.winner = -1
        state._start_trick(state.leader)
        return state

    @classmethod
    def laid(
        cls,
        rules: dict[str, Any],
        hands: list[list[int]],
        pile: list[int],
        won: list[list[int]],
        leader: int,
    ) -> Toy:
        state = cls.dealt(rules, len(hands), 1, Stream(0, 0, 0))
        state.won = [list(w) for w in won]
        state._lay_out(hands, pile, SIZE, state.won)
        state._start_trick(leader)
        return state

    def scores(self) -> list[float]:
        return [float(len(w)) for w in self.won]

    def _events_at_end(self) -> dict[str, Any]:
        return {**self.events, "cards_kept": sum(map(len, self.won))}

    def clone(self) -> Toy:
        other = Toy.__new__(Toy)
        for name in Toy.__slots__:
            setattr(other, name, getattr(self, name))
        self._copy_table(other)
        other.won = [list(w) for w in self.won]
        return other

    def check_invariants(self) -> None:
        self._check_cards(SIZE, self.won)

    def one_per_kind(self, cards: list[int]) -> list[int]:
        return list(cards)

    def _trick_played(self) -> None:
        self.winner = max(self.plays, key=lambda play: play[1])[0]
        self.phase = CHOICE

    def _decider(self) -> int:
        return self.winner

    def _choices(self) -> list[int]:
        return [0, 1]

    def _choose(self, action: int) -> None:
        cards = [card for _, card in self.plays]
        if action:
            self.won[self.winner] += cards
            self.events["kept"] += 1
        else:
            self.discard += cards
        self.tricks += 1
        self.progress.append(tuple(map(int, self.scores())))
        self.phase = PLAY
        self._start_trick(self._draw_for_next_trick(self.winner if action else -1))

    def _cards_resolving(self) -> list[int]:
        return [card for _, card in self.plays] if self.phase == CHOICE else []


def _laid(**changed: Any) -> Toy:
    # Seat 0 has no cards; 8 is in the discard, 6 in seat 0's own pile; the pile's top
    # card is 0, then 1, then 3.
    return Toy.laid(rules(**changed), [[], [4, 7], [2, 5]], [0, 1, 3], [[6], [], []], 0)


def test_a_leader_with_no_cards_passes_the_lead_and_seats_without_cards_sit_out() -> None:
    state = _laid()
    assert state.discard == [8]
    assert (state.leader, state.order, state.phase) == (1, [1, 2], PLAY)
    assert state.current_player() == 1
    assert state.legal_actions() == [4, 7]
    state.apply_action(7)
    assert (state.current_player(), state.legal_actions(), state.turn) == (2, [2, 5], 1)
    assert state.plays == [(1, 7)]
    state.check_invariants()


def test_a_decision_waits_for_its_seat_then_the_winner_leads_and_draws_first() -> None:
    state = _laid()
    state.apply_action(4)
    state.apply_action(5)
    # Every seat has played: the 5's owner (seat 2, not the leader) decides.
    assert (state.phase, state.current_player(), state.legal_actions()) == (CHOICE, 2, [0, 1])
    state.check_invariants()  # the trick's cards still count while it waits
    state.apply_action(1)
    # Seat 2 kept 4 and 5 and leads; from it each seat draws: 2 the 0, 0 the 1, 1 the 3.
    assert state.won == [[6], [], [4, 5]]
    assert state.hands == [[1], [7, 3], [2, 0]]
    assert state.pile == []
    assert (state.leader, state.order, state.tricks, state.phase) == (2, [2, 0, 1], 1, PLAY)
    assert state.plays == []
    state.check_invariants()


@pytest.mark.parametrize(("knob", "leader"), [("same", 1), ("next", 2)])
def test_when_nothing_resolves_the_knob_says_who_leads(knob: str, leader: int) -> None:
    state = _laid(leader_if_nothing_resolves=knob)
    for action in (7, 5, 1, 4, 2, 3):  # trick 2: 4 (seat 1), 2, 3: seat 1's 4 is highest
        state.apply_action(action)
    state.apply_action(0)  # ...and it discards them: no card resolved
    assert state.discard == [8, 4, 2, 3]
    assert (state.leader, state.hands) == (leader, [[], [0], [1]])
    assert state.order == [leader, 3 - leader]  # seat 0 is out of cards


def test_the_game_ends_when_every_hand_is_empty() -> None:
    state = _laid()
    for action in (7, 5, 1, 4, 2, 3, 1, 0, 1, 1):  # trick 3: 0 (seat 1), 1 (seat 2) kept
        state.apply_action(action)
    assert state.won == [[6], [7, 5, 4, 2, 3], [0, 1]]
    assert (state.phase, state.is_terminal(), state.current_player()) == (OVER, True, -1)
    assert state.legal_actions() == []
    state.check_invariants()
    record = state.record()
    assert (record.scores, record.length, record.held) == ((1.0, 5.0, 2.0), 3, ())
    assert record.events == {"kept": 3, "cards_kept": 8}
    assert record.progress == ((1, 2, 0), (1, 5, 0), (1, 5, 2))
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)


def test_the_trace_tells_the_trick_the_draws_and_the_end() -> None:
    state = _laid()
    state.trace = []  # attached once the first trick began: it says how it began
    for action in (7, 5, 1):
        state.apply_action(action)
    assert state.trace == [
        ("trick", 1, 1, ((), (4, 7), (2, 5))),
        ("draws", 1, 0),
        ("draws", 2, 1),
        ("draws", 0, 3),
        ("trick", 2, 1, ((3,), (4, 0), (2, 1))),
    ]
    for action in (4, 2, 3, 1, 0, 1, 1):
        state.apply_action(action)
    assert state.trace[-1] == ("over", 3, (1.0, 5.0, 2.0))


def test_a_clone_shares_no_list_and_keeps_no_trace() -> None:
    state = _laid()
    state.trace = []
    state.apply_action(7)
    other = state.clone()
    assert other.trace is None
    other.order.append(9)
    assert state.order == [1, 2]
    other.order.pop()
    other.apply_action(5)
    other.apply_action(1)  # a whole trick on the clone: plays, draws, discard, events
    other.discard.append(99)
    other.progress.append((1,))
    assert state.hands == [[], [4], [2, 5]]
    assert (state.pile, state.discard, state.plays) == ([3, 1, 0], [8], [(1, 7)])
    assert (state.progress, state.events) == ([], {"kept": 0})
    assert state.trace == [("trick", 1, 1, ((), (4, 7), (2, 5)))]


def test_a_card_lost_or_doubled_breaks_the_check() -> None:
    state = _laid()
    state.apply_action(7)
    state.check_invariants()
    state.pile.pop()  # lost
    with pytest.raises(InvariantError, match="not conserved"):
        state.check_invariants()
    state = _laid()
    state.discard.append(4)  # 4 also in seat 1's hand
    with pytest.raises(InvariantError, match="not conserved"):
        state.check_invariants()


def test_a_deal_gives_each_seat_its_hand_the_rest_is_the_pile() -> None:
    state = Toy.dealt(rules(hand_size=2), 3, 3, Stream(5, 0, 0))
    assert [len(hand) for hand in state.hands] == [2, 2, 2]
    assert len(state.pile) == 3
    assert sorted(c for place in [*state.hands, state.pile] for c in place) == list(range(9))
    # Card kinds: cards 0-2 are kind 0, 3-5 kind 1, 6-8 kind 2 (3 copies each).
    kinds = [[c // 3 for c in hand] for hand in state.hands]
    assert state.opening_held == pack_held(kinds, 3)
    assert (state.leader, state.order, state.tricks) == (0, [0, 1, 2], 0)


def test_a_redeal_moves_only_the_other_hands_and_the_pile() -> None:
    state = _laid()
    state.apply_action(7)  # played: face up, stays put
    seen = set()
    for seed in range(20):
        other = redeal_unseen(state, 2, Stream(seed, 0, 0))
        assert other.hands[2] == [2, 5]  # the seat's own
        assert [len(h) for h in other.hands] == [0, 1, 2]
        assert sorted(other.hands[1] + other.pile) == [0, 1, 3, 4]
        assert (other.plays, other.discard, other.won) == ([(1, 7)], [8], [[6], [], []])
        seen.add((tuple(other.hands[1]), tuple(other.pile)))
    assert state.hands == [[], [4], [2, 5]] and state.pile == [3, 1, 0]
    assert len(seen) > 1  # the control: it does deal again
