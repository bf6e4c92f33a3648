"""Secret goals: a deck of goal cards of its own, dealt face down at setup, scored at the end.

    goals:
      deal: 1                                   # each seat is dealt this many
      cards:
        hoarder: [{zone: bank, per_card: 2}]    # a goal: score terms (zone, counter, rank)
        racer:   [{counter: position, times: 3}]
    score:
      - {goals: true}                           # each seat adds its goals' terms

Goal g is the g-th name under `cards:`. The goal deck is shuffled from the game's
chance stream after the hands are dealt and the first leader drawn, and dealt
`deal` to each seat in turn (seat 0 first), so a file without `goals:` draws
exactly what it drew before. A seat sees its own goals and, of a rival's, only
how many it holds (the view, engine.py); at the end every goal is shown (the
view once the game is over, and the replay, which tells each seat's goals and
what they scored). A world sampled from a view (determinize.py) deals the
rivals' goals again from the goal cards the seat has not seen: every goal card
but its own.

A goal's terms are score terms of the kinds that hold no state of their own
(zone, counter, rank); a place term hands out places as the game goes and so
belongs in `score:`, and a goal does not hold `{goals: true}`. The compiled
kernel plays a file with goals too (kernel/secret_goals.py deals and redeals them
drawing what `deal` and `redeal` draw; docs/new-game.md, "Secret goals").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from balancer.games.definition import LogEntry
from balancer.games.roles.model import GoalDeck, Term
from balancer.games.roles.primitives.base import Words, say
from balancer.rng import Stream

if TYPE_CHECKING:
    from balancer.games.roles.gamefile import KeyPath
    from balancer.games.roles.reader import Reader

KEYS = ("deal", "cards")
# What reads a list of score terms at a key path (validate.py's, so a goal's terms are
# checked as the score's are).
TermsReader = Callable[["KeyPath", Any], tuple[Term, ...]]


def written(data: Any) -> bool:
    """Whether a game file's top level holds a `goals:` block (read or refused)."""
    return isinstance(data, dict) and data.get("goals") is not None


def read(reader: Reader, terms: TermsReader, most_players: int) -> GoalDeck | None:
    """The file's `goals:` as a GoalDeck; None when it has none, or with each problem
    recorded."""
    if "goals" not in reader.data:
        return None
    where: KeyPath = ("goals",)
    block = reader.mapping(where, reader.data["goals"], "deal and cards")
    if not block:
        reader.fail(where, "expected deal: N and cards: {GOAL: [terms], ...}")
        return None
    reader.known_keys(where, block, KEYS)
    deal = None
    if not reader.absent(where, block, "deal", "how many goals each seat is dealt"):
        deal = reader.integer((*where, "deal"), block["deal"], low=1, high=1000)
    names: list[str] = []
    read_terms: list[tuple[Term, ...]] = []
    ok = True
    if not reader.absent(where, block, "cards", "the goal cards, each a list of terms"):
        cards = reader.mapping((*where, "cards"), block["cards"], "goal cards")
        if not cards:
            reader.fail((*where, "cards"), "expected at least one goal card")
            ok = False
        for name, value in cards.items():
            at = (*where, "cards", name)
            if not isinstance(name, str) or not name.isidentifier():
                reader.fail(at, "a name is letters, digits and _ (not first a digit)")
                ok = False
                continue
            items = value if isinstance(value, list) else [value]
            if not items or value is None:
                said = "expected a list of score terms" if value is None else "an empty goal"
                reader.fail(at, f"{said}: a goal scores by at least one term")
                ok = False
                names.append(name)  # still a goal card written: the deal's count holds it
                continue
            for index, item in enumerate(items):
                if isinstance(item, dict) and "goals" in item:
                    reader.fail((*at, index, "goals"), "a goal's terms don't hold its goals")
                    ok = False
            found = terms(at, value)
            ok = ok and len(found) == len(items)
            names.append(name)
            read_terms.append(found)
    if deal is not None and names and deal * most_players > len(names):
        reader.fail(
            (*where, "deal"),
            f"{len(names)} goal cards are too few to deal {deal} to each of {most_players} players",
        )  # the deck still read: what its terms score keeps validate's zone checks quiet
    if deal is None or not ok or not names:
        return None
    return GoalDeck(deal, tuple(names), tuple(read_terms))


def deal(goals: GoalDeck, players: int, rng: Stream) -> list[list[int]]:
    """Each seat's goals: the goal cards shuffled with `rng`, `deal` to each seat in turn."""
    order = list(range(len(goals.names)))
    rng.shuffle(order)
    return [order[s * goals.deal : (s + 1) * goals.deal] for s in range(players)]


def redeal(
    held: Sequence[Sequence[int] | int], seat: int, goals: GoalDeck, rng: Stream
) -> list[list[int]]:
    """Per seat, its goals in a world `seat` can't tell from the true one (`held`: per
    seat its goals when `seat` sees them, else how many): those it sees kept (its own,
    every seat's once the game is over), the others dealt again from the goal cards
    it has not seen."""
    assert not isinstance(held[seat], int), "a seat sees its own goals"
    seen = {g for h in held if not isinstance(h, int) for g in h}
    pool = [g for g in range(len(goals.names)) if g not in seen]
    rng.shuffle(pool)
    dealt = iter(pool)
    return [[next(dealt) for _ in range(h)] if isinstance(h, int) else list(h) for h in held]


def most(goals: GoalDeck, term_most: Callable[[Term], int]) -> int:
    """The largest magnitude `{goals: true}` can give a seat: its `deal` goals each the
    goal whose terms' bounds add up to the most."""
    return goals.deal * max(sum(term_most(t) for t in terms) for terms in goals.terms)


WORDS: Words = {
    "en": {
        "dealt": "  seat {seat}'s secret goals: {goals}",
        "shown": "  seat {seat}'s secret goals: {goals} ({score:+d})",
        "sep": ", ",
        "none": "(none)",
    },
    "ja": {
        "dealt": "  席 {seat} の秘密の目標: {goals}",
        "shown": "  席 {seat} の秘密の目標: {goals}（{score:+d}）",
        "sep": "、",
        "none": "（なし）",
    },
}


def told_dealt(event: tuple[Any, ...], _: Any, lang: str) -> list[LogEntry]:
    """("dealt_goals", names): each seat's secret goals as dealt, for its eyes alone."""
    words = say(WORDS, lang)
    return [
        (s, words["dealt"].format(seat=s, goals=words["sep"].join(held)))
        for s, held in enumerate(event[1])
    ]


def told(event: tuple[Any, ...], _: Any, lang: str) -> list[LogEntry]:
    """("goals", names, scores): each seat's secret goals shown at the end, and what
    they scored."""
    _, names, scores = event
    words = say(WORDS, lang)
    return [
        words["shown"].format(
            seat=s, goals=words["sep"].join(held) or words["none"], score=scores[s]
        )
        for s, held in enumerate(names)
    ]
