"""キメキメラ Kimekimera (`kimekimera`, short `kk`), 1 to 4 players: RULES.md §2.

The rules implemented, in brief (RULES.md §2, §4, §5 and §6 are the authority,
and every open point is a knob listed in `KNOBS`):

- 54 cards: red, blue, yellow, green × 1..12; 4 rainbow cards (13, every
  colour); 2 grey robot cards (no colour, number wild). A chimera is 2 cards.
  The deck is the `deck` knob (deck.py): colours, number range, copies,
  rainbow cards and their number, grey cards; the printed deck is its default.
- Setup: shuffle; deal each seat a *my chimera* (seat order), then
  `free_chimeras` free chimeras (slot order), then turn up a theme. A theme
  holding a grey card is discarded whole and redrawn.
- A round (`rounds` of them): from the first seat (seat `r mod P` in round r
  when `rotate_first_player`, else seat 0), each player in seat order breeds
  once: choose a free chimera (or keep, when `breeding_optional`); the 4 cards
  are mixed and 2 taken at random (each of the 6 pairs with chance 1/6) as
  the new my chimera; the other 2 go to the discard, then the slot is refilled
  from the deck (`leftover: discard`), or the other 2 become that slot's free
  chimera (`leftover: free`). A player who finds no free chimera can't breed
  and is skipped.
- Robots (a my chimera holding a grey card, bred or dealt) can't breed.
  With `robot_replacement: at_next_breeding` (the seed's 「次の配合では…処分し、
  山札から新しくマイキメラを補充する」) the robot's owner, on their turn, discards it
  and draws a new my chimera instead of breeding; a replacement that holds
  grey again is a robot for this round's scoring and is replaced at the
  owner's next turn. A robot dealt at the start is replaced on its owner's
  turn in round 1. With `after_scoring` a robot's owner is skipped, and robots
  are replaced right after each round's scoring (see Scoring).
- Drawing: a draw that finds the deck empty shuffles the discard into a new
  deck (`reshuffle_discards`); without it the draw gets nothing.
- Scoring, each player: error = |theme sum - my sum|, 0 if the chimera holds a
  grey card; matches = the size of a one-to-one matching of the theme's two
  cards to the chimera's two cards by shared colour (rainbow has every colour,
  grey none), 0 for a chimera with grey when `grey_blocks_colour_bonus`;
  round score = error - colour_bonus[matches], floored at 0 when
  `floor_at_zero`. Then (not after the last round), with `robot_replacement:
  after_scoring` only, each robot chimera is discarded and replaced from the
  deck, in seat order; then the theme is discarded and a new one turned up.
- Lowest total after the last round wins; ties share.

Points RULES.md leaves open, settled here:

- `leftover: free`: the two cards not taken become the free chimera in the
  slot just chosen, so nothing is drawn for that slot.
- Without `reshuffle_discards` the deck can run dry (4 players run out in
  round 4). A slot then stays empty, and a player with no free chimera to
  choose is skipped. A robot that can't be replaced stays (and keeps its
  error of 0), and a theme that can't be replaced stays for the next round
  (grey themes drawn while trying are discarded), so a game always lasts
  `rounds` rounds.
- A robot's turn under `at_next_breeding` is a forced move, `REPLACE` (-2):
  the only legal action, so the engine plays it without asking the bot (and
  without a bot draw), and the play-by-play shows it where it happens. It is
  a move rather than a silent step of the turn loop so that a state is never
  left half way through a turn's chance draws, and a trace attached after the
  deal still sees the robot that was dealt. When the robot can't be replaced
  (`reshuffle_discards: false` and fewer than 2 cards in the deck) there is
  no move: its owner is skipped, as one with no free chimera is.
- `robots_made` counts breedings whose new chimera holds grey (RULES.md §5:
  "a breeding"), not replacements (nor the deal) that draw a grey card:
  those are the deck's doing, not a breeding choice's, and the count stays
  the same figure under both `robot_replacement` values (and the one the
  reference in tests/reference reads).
- `unplayable` asks for 6 cards left in the deck after the my and free
  chimeras are dealt: a theme is then always found at setup, even when both
  grey cards come up in separate pairs.

Card encoding (a card is an int 0..53 in the printed deck; any deck's: deck.py):

    0..47   colour * 12 + (number - 1); colours red 0, blue 1, yellow 2, green 3
    48..51  rainbow (number 13, every colour)
    52..53  grey

`describe` writes "r5", "b12", "rainbow", "grey"; `parse_card` reads that back
(a rainbow or grey name gives its first copy; `parse_cards` gives successive
copies). Colours are bit sets (red 1, blue 2, yellow 4, green 8; rainbow 15;
grey 0), so "do these cards share a colour" is one AND.

Actions: a free-chimera slot index, or `KEEP` (-1) when breeding is
optional, or `REPLACE` (-2), a robot's forced replacement (above).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from balancer import knobs
from balancer.games.api import Bounds, GameSpec
from balancer.games.kimekimera import deck as kk_deck

# The knobs and the cards' names are knobs.py's and cards.py's; their names are the
# engine's too, re-exported as such.
from balancer.games.kimekimera.cards import (
    describe as describe,
)
from balancer.games.kimekimera.cards import (
    describe_pair as describe_pair,
)
from balancer.games.kimekimera.cards import (
    parse_card as parse_card,
)
from balancer.games.kimekimera.cards import (
    parse_cards as parse_cards,
)
from balancer.games.kimekimera.knobs import (
    EVENTS as EVENTS,
)
from balancer.games.kimekimera.knobs import (
    KNOBS as KNOBS,
)
from balancer.games.kimekimera.knobs import (
    _check_colour_bonus as _check_colour_bonus,
)
from balancer.games.kimekimera.knobs import _complete as _complete
from balancer.games.kimekimera.knobs import (
    _deck_from as _deck_from,
)
from balancer.games.kimekimera.knobs import (
    deck_for as deck_for,
)
from balancer.games.kimekimera.knobs import (
    unplayable as unplayable,
)

# The scoring rule is scoring.py's; its names are the engine's too (bots, kernel, odds,
# tests), re-exported as such.
from balancer.games.kimekimera.scoring import (
    CLASS as CLASS,
)
from balancer.games.kimekimera.scoring import (
    MATCHES as MATCHES,
)
from balancer.games.kimekimera.scoring import (
    PAIR_CLASS as PAIR_CLASS,
)
from balancer.games.kimekimera.scoring import (
    PAIR_SUM as PAIR_SUM,
)
from balancer.games.kimekimera.scoring import (
    Rows as Rows,
)
from balancer.games.kimekimera.scoring import (
    error_and_matches as error_and_matches,
)
from balancer.games.kimekimera.scoring import (
    lottery as lottery,
)
from balancer.games.kimekimera.scoring import (
    pair_score as pair_score,
)
from balancer.games.kimekimera.scoring import (
    round_score as round_score,
)
from balancer.games.kimekimera.scoring import (
    theme_rows as theme_rows,
)

# The game in progress is state.py's; its names are the engine's too, re-exported as such.
from balancer.games.kimekimera.state import KEEP as KEEP
from balancer.games.kimekimera.state import LEFTOVERS as LEFTOVERS
from balancer.games.kimekimera.state import PAIRS as PAIRS
from balancer.games.kimekimera.state import REPLACE as REPLACE
from balancer.games.kimekimera.state import State as State
from balancer.games.kimekimera.state import View as View
from balancer.games.kimekimera.state import _new_view as _new_view
from balancer.games.worlds import reseeded_chance
from balancer.rng import Stream

# The printed deck's figures, for callers that know no rules (kk-odds, tests);
# a game reads its own deck's (`deck_for`).
DEFAULT_DECK = kk_deck.DEFAULT
DECK_SIZE = DEFAULT_DECK.size  # 54
FIRST_RAINBOW = DEFAULT_DECK.first_rainbow  # 48
FIRST_GREY = DEFAULT_DECK.first_grey  # 52
COLOUR_LETTERS = kk_deck.COLOUR_LETTERS


# Card impact's kinds: each coloured card, then rainbow, then grey (copies of
# rainbow and of grey are one kind each); CARD_KIND[card] is its index.
CARD_KIND: tuple[int, ...] = DEFAULT_DECK.card_kind

# Number and colour bits per card of the printed deck, looked up in the hot paths.
NUMBER: tuple[int, ...] = DEFAULT_DECK.number
COLOUR_BITS: tuple[int, ...] = DEFAULT_DECK.colour_bits

# Cards that must stay in the printed deck after the my and free chimeras are
# dealt: a theme, plus two pairs that may each hold a grey card and be redrawn
# (any deck's: deck.spare_for_theme).
SPARE_FOR_THEME = kk_deck.spare_for_theme(DEFAULT_DECK)


def new_state(rules: Mapping[str, Any], players: int, rng: Stream) -> State:
    return State(rules, players, rng)


def bounds(rules: Mapping[str, Any], players: int) -> Bounds:
    """A game lasts `rounds` rounds, at most one move per seat each. A round's
    error is 0 to the widest gap of two sums (printed deck: 24, sums 2 to 26),
    less a colour bonus of 0, 1st or 2nd."""
    rules = {**knobs.defaults(KNOBS), **rules}
    bonus = _check_colour_bonus(rules["colour_bonus"])
    sums = [s for s in deck_for(rules).pair_sum if s >= 0]
    widest = max(sums) - min(sums) if sums else 0
    low = -max(0, bonus[1], bonus[2])
    high = widest - min(0, bonus[1], bonus[2])
    if rules["floor_at_zero"]:
        low, high = max(low, 0), max(high, 0)
    rounds = rules["rounds"]
    return Bounds(
        moves=rounds * players, length=(rounds, rounds), score=(rounds * low, rounds * high)
    )


def determinize(view: View, rng: Stream) -> State:
    """A world consistent with `view`, read from the view alone (docs/determinize.md).

    Every card but the deck's is face up, so the deck holds the cards the view
    doesn't show; its order is shuffled by `rng`, and the world's chance stream
    (the breeding lotteries and reshuffles to come) is reseeded from `rng`.
    """
    if view.discard is None or view.first is None or view.turn is None:
        raise ValueError("determinize needs a view with perfect recall (the engine's)")
    players = len(view.totals)
    seen = {*view.mine, *view.theme, *view.discard, *(c for c in view.free if c >= 0)}
    deck = [card for card in range(deck_for(view.rules).size) if card not in seen]
    if len(deck) != view.deck_size:
        raise ValueError(
            f"the view leaves {len(deck)} cards unseen, but its deck holds {view.deck_size}"
        )
    rng.shuffle(deck)
    state = State(view.rules, players, reseeded_chance(rng), deal=False)
    state.deck = deck
    state.discard = list(view.discard)
    state.theme = list(view.theme)
    state.mine = list(view.mine)
    state.free = list(view.free)
    state.filled = sum(1 for slot in range(state.n_free) if view.free[2 * slot] >= 0)
    state.totals = list(view.totals)
    state.round = view.round - 1
    state.first = view.first
    state.first0 = (view.first - state.round) % players if state.rotate else view.first
    state.turn = view.turn
    over = state.round >= state.rounds
    state.seat = -1 if over else (view.first + view.turn) % players
    state.fresh = False
    return state


def resample_hidden(state: State, seat: int, rng: Stream) -> State:
    """Every chimera, the theme and the discard are face up: only the deck's order is
    hidden. From the true state, beside `determinize` (see games/conformance.py)."""
    other = state.clone()
    rng.shuffle(other.deck)
    return other


def card_kinds(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """Card impact's kinds, by card-kind index, of the rules' deck: 'r5', 'rainbow', 'grey'."""
    return deck_for(_complete(rules)).kind_names()


SPEC = GameSpec(
    name="kimekimera",
    short="kk",
    min_players=1,
    max_players=4,
    knobs=KNOBS,
    events=EVENTS,
    higher_is_better=False,
    length_unit="rounds",
    rules_version=2,
    new_state=new_state,
    unplayable=unplayable,
    bounds=bounds,
    resample_hidden=resample_hidden,
    determinize=determinize,
    card_kinds=card_kinds,
)
