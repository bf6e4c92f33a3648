"""A role game's play-by-play in Japanese: every line the trick procedure, a primitive,
a condition or the rank term tells has its Japanese words beside its English ones, the
file's own names stay as the file wrote them, and `replay --seat` hides in Japanese what
it hid in English.

The English lines are the ones the narration spoke before it learnt Japanese (the same
game's English replay below, and tests/golden's playthroughs of mega-racer and
zodiac-race, word for word).
"""

from __future__ import annotations

import inspect
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from balancer import knobs
from balancer.games.definition import LogEntry
from balancer.games.roles import conditions, goals, load_file, narrate, rank
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State, cards_for
from balancer.games.roles.primitives import PRIMITIVES
from balancer.sim.replay import visible
from tests.unit.test_roles_conditions import SITUATIONS, ladder

# One trick of three seats. Cards: colours red 0, blue 1; roles keep 0, cash 1; numbers
# 1..3; card = (colour * 2 + role) * 3 + number - 1.
KIOSK = """\
name: kiosk
short: ksk
players: [2, 4]
deck: {colours: [red, blue], roles: [keep, cash], numbers: [1, 3], copies: 1}
hand_size: 1
zones:
  stash: {face: up}
  vault: {face: down}
counters:
  coins: {min: 0, max: 20}
roles:
  keep:
    - place: {zone: stash}
    - add: {counter: coins, by: number}
  cash:
    - move_all: {from: stash, to: vault}
score:
  - {rank: {counter: coins, points: [5, 3, 1]}}
  - {zone: vault}
"""
RED_KEEP_1, RED_KEEP_2, RED_CASH_3, BLUE_KEEP_1 = 0, 1, 5, 6


def kiosk_trace(tmp_path: Path) -> tuple[list[tuple[Any, ...]], Mapping[str, Any]]:
    """Seat 0 leads red keep 2, seat 1 follows red cash 3, seat 2 blue keep 1; seat 1's
    stash holds red keep 1. Played to the end; its trace and rules."""
    path = tmp_path / "kiosk.yaml"
    path.write_text(KIOSK, encoding="utf-8")
    game = load_file(path)
    rules = knobs.defaults(game_knobs(game))
    hands = [[RED_KEEP_2], [RED_CASH_3], [BLUE_KEEP_1]]
    state = State.arranged(game, rules, hands, zones={"stash": [[], [RED_KEEP_1], []]})
    state.trace = []
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.record().scores == (5, 4, 3)
    return state.trace, rules


def test_a_hand_laid_game_is_told_in_japanese(tmp_path: Path) -> None:
    """Blue keep 1 is off the lead's colour: cancelled (not 猫に小判, seat 1 followed
    red). Red cash 3 resolves before red keep 2 (higher number): seat 1's one stashed
    card goes to its vault; then keep 2 goes to seat 0's stash and adds 2 coins. Coins
    2, 0, 0 rank seats 1, 2, 2 (the tie shares place 2): 5, 3, 3 points; seat 1's one
    vault card makes 4. The names (keep, stash, coins, red) are the file's own."""
    trace, rules = kiosk_trace(tmp_path)
    assert narrate.lines(trace, rules, "ja") == [
        "トリック 1: 席 0 がリード",
        (0, "  席 0 の手札: red keep 2"),
        (1, "  席 1 の手札: red cash 3"),
        (2, "  席 2 の手札: blue keep 1"),
        "  出したカード: 席 0: red keep 2、席 1: red cash 3、席 2: blue keep 1",
        "  処理されず捨て札: blue keep 1",
        "  席 1 が自分の stash から vault へカードを 1 枚移す",
        "  席 0 の red keep 2 が自分の stash に置かれる",
        "  席 0: 席 0 の coins 0 → 2",
        "  coins の多い順に順位: 席 0 1 位（+5）、席 1 2 位（+3）、席 2 2 位（+3）",
        "1 トリックでゲーム終了: 得点 席 0 5、席 1 4、席 2 3",
    ]


def test_the_same_game_in_english_is_told_as_before(tmp_path: Path) -> None:
    """The English replay of the game above, as the narration spoke it before it had
    Japanese words (and as it does with no language said)."""
    trace, rules = kiosk_trace(tmp_path)
    english = [
        "Trick 1: seat 0 leads",
        (0, "  seat 0's hand: red keep 2"),
        (1, "  seat 1's hand: red cash 3"),
        (2, "  seat 2's hand: blue keep 1"),
        "  played seat 0: red keep 2, seat 1: red cash 3, seat 2: blue keep 1",
        "  cancelled: blue keep 1",
        "  seat 1 moves 1 card(s) from its stash to its vault",
        "  seat 0's red keep 2 goes to its stash",
        "  seat 0: seat 0's coins 0 -> 2",
        "  ranked by coins, the most first: seat 0 place 1 (+5), seat 1 place 2 (+3), "
        "seat 2 place 2 (+3)",
        "Game over after 1 tricks: scores seat 0 5, seat 1 4, seat 2 3",
    ]
    assert narrate.lines(trace, rules, "en") == english
    assert narrate.lines(trace, rules) == english


KIOSK_DECK = {"colours": ["red", "blue"], "roles": ["keep", "cash"], "numbers": [1, 3]}
# Every other line, from events written by hand as the engine records them (engine.py
# `_note`, and each primitive's docstring): deck as KIOSK's.
EVENTS: list[tuple[Any, ...]] = [
    ("trick", 2, 1, ((RED_KEEP_1,), ())),
    ("played", ((1, RED_CASH_3), (0, RED_KEEP_1)), True, ()),
    ("guard", 0, "shield", 1),
    ("clear", 1, "shield", 0, True),
    ("clear", 1, "shield", 2, False),
    ("global", 2, "tide", 4, 7),
    ("counter", 0, "coins", 2, 5, 9),
    ("skip_turn", 1, 2, 1),
    ("steal", 0, BLUE_KEEP_1, 2, "stash", "vault"),
    ("blocked", 2, "add", 0, "shield"),
    ("arrive", 1, "coins", 2, False),
    ("arrive", 0, "coins", 4, True),
    ("unmet", 0, "add", ("flag", "shield", 1, None, None)),
    ("unmet", 1, "add", ("counter", "coins", 1, 1, 3)),
    ("unmet", 2, "move_all", ("zone", "stash", 2, 2, None)),
    ("ranked", "coins", True, (2, 1, 2), (1, 3, 1)),
    ("draws", 1, RED_CASH_3),
    ("over", 2, (1.5, 3, -2)),
]


def test_every_other_line_is_told_in_japanese() -> None:
    """猫に小判 fired (seat 0 followed off-colour), nothing cancelled; seat 0's hand is
    empty. Each line says who did what to whom in the file's names; a clear on a seat
    without the flag says so; the rank with the fewest first lists places in order."""
    told = narrate.lines(EVENTS, {"deck": KIOSK_DECK}, "ja")
    assert told == [
        "トリック 2: 席 1 がリード",
        (0, "  席 0 の手札: red keep 1"),
        (1, "  席 1 の手札: （なし）"),
        "  出したカード: 席 1: red cash 3、席 0: red keep 1",
        "  猫に小判！リードのカードは捨て札になる",
        "  席 0 が席 1 に shield を付ける",
        "  席 1 が席 0 の shield を外す",
        "  席 1 が席 2 の shield を外す（もともと付いていなかった）",
        "  席 2: tide 4 → 7",
        "  席 0: 席 2 の coins 5 → 9",
        "  席 1 が席 2 を 1 トリック休ませる",
        "  席 0 が席 2 の stash から blue keep 1 を取り、自分の vault に加える",
        "  席 2 の add は席 0 の shield に止められる",
        "  席 1 が到着: coins の 2 位",
        "  席 0 が到着したが、coins の順位はすべて埋まっていた（4）",
        "  席 0 の add は何もしない（条件「席 1 の shield が付いている」を満たさない）",
        "  席 1 の add は何もしない（条件「席 1 の coins が 1 以上かつ 3 以下」を満たさない）",
        "  席 2 の move_all は何もしない（条件「席 2 の stash の枚数が 2 以上」を満たさない）",
        "  coins の少ない順に順位: 席 1 1 位（+3）、席 0 2 位（+1）、席 2 2 位（+1）",
        "  席 1 がカードを1枚引く",
        (1, "  席 1 が red cash 3 を引く"),
        "2 トリックでゲーム終了: 得点 席 0 1.5、席 1 3、席 2 -2",
    ]


def test_the_same_events_in_english() -> None:
    """The control of the test above: the same events, English words."""
    assert cards_for({"deck": KIOSK_DECK}).describe(BLUE_KEEP_1) == "blue keep 1"
    told = narrate.lines(EVENTS, {"deck": KIOSK_DECK}, "en")
    assert told == [
        "Trick 2: seat 1 leads",
        (0, "  seat 0's hand: red keep 1"),
        (1, "  seat 1's hand: (none)"),
        "  played seat 1: red cash 3, seat 0: red keep 1",
        "  猫に小判! the lead card is discarded",
        "  seat 0 sets shield on seat 1",
        "  seat 1 clears shield on seat 0",
        "  seat 1 clears shield on seat 2 (it was not set)",
        "  seat 2: tide 4 -> 7",
        "  seat 0: seat 2's coins 5 -> 9",
        "  seat 1 makes seat 2 sit out 1 trick(s)",
        "  seat 0 takes blue keep 1 from seat 2's stash to its vault",
        "  seat 2's add on seat 0 is stopped by shield",
        "  seat 1 arrives: place 2 of coins",
        "  seat 0 arrives after every place of coins is taken (4)",
        "  seat 0's add does nothing: seat 1's shield set is not so",
        "  seat 1's add does nothing: seat 1's coins at least 1 and at most 3 is not so",
        "  seat 2's move_all does nothing: seat 2's stash holding at least 2 cards is not so",
        "  ranked by coins, the fewest first: seat 1 place 1 (+3), seat 0 place 2 (+1), "
        "seat 2 place 2 (+1)",
        "  seat 1 draws a card",
        (1, "  seat 1 draws red cash 3"),
        "Game over after 2 tricks: scores seat 0 1.5, seat 1 3, seat 2 -2",
    ]


def test_a_condition_that_stopped_a_step_is_told_in_japanese(tmp_path: Path) -> None:
    """tests/unit/test_roles_conditions.py's situations, played by the engine: seat 0's
    push finds its pos past last_at (3), so its second step does nothing; a pick with
    one card in the bag finds fewer than 2 there (the English lines are that file's)."""
    game = ladder(tmp_path)
    rules = knobs.defaults(game_knobs(game))
    said = {}
    for name in ("push-not-last-moves-one", "pick-with-one-card-applies-the-other-option"):
        state = SITUATIONS[name].state(game)
        state.trace = []
        for move in SITUATIONS[name].moves():
            state.apply_action(move)
        said[name] = narrate.lines(state.trace, rules, "ja")
    assert (
        "  席 0 の add は何もしない（条件「席 0 の pos が 3 以下」を満たさない）"
        in (said["push-not-last-moves-one"])
    )
    assert (
        "  席 0 の add は何もしない（条件「席 0 の bag の枚数が 2 以上」を満たさない）"
        in (said["pick-with-one-card-applies-the-other-option"])
    )


# -- what a seat sees ------------------------------------------------------------------


def seen(told: list[LogEntry], seat: int) -> list[str]:
    return [text for entry in told if (text := visible(entry, seat)) is not None]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_seat_sees_in_japanese_what_it_saw_in_english(tmp_path: Path, seat: int) -> None:
    """`replay --seat S`: the same lines kept and dropped in both languages, line for
    line; another seat's hand or drawn card is in neither."""
    trace, rules = kiosk_trace(tmp_path)
    for events, deck_rules in ((trace, rules), (EVENTS, {"deck": KIOSK_DECK})):
        english = narrate.lines(events, deck_rules, "en")
        japanese = narrate.lines(events, deck_rules, "ja")
        assert len(english) == len(japanese)
        for en, ja in zip(english, japanese, strict=True):
            assert (visible(en, seat) is None) == (visible(ja, seat) is None)
            assert (isinstance(en, tuple) and en[0]) == (isinstance(ja, tuple) and ja[0])
    japanese_view = "\n".join(seen(narrate.lines(trace, rules, "ja"), seat))
    for other in {0, 1, 2} - {seat}:
        assert f"席 {other} の手札" not in japanese_view
    # The control: the seat's own hand is in its view (so the check above could fail).
    assert f"席 {seat} の手札" in japanese_view
    drawn = "\n".join(seen(narrate.lines(EVENTS, {"deck": KIOSK_DECK}, "ja"), seat))
    assert ("席 1 が red cash 3 を引く" in drawn) == (seat == 1)
    assert "席 1 がカードを1枚引く" in drawn  # that a card was drawn, everyone sees


# -- every teller has both languages ---------------------------------------------------


def narration_words() -> dict[str, Mapping[str, Mapping[str, str]]]:
    """Where each teller of narrate.TELLERS (and the trick procedure) keeps its words."""
    found: dict[str, Mapping[str, Mapping[str, str]]] = {
        "roles/narrate.py MESSAGES": narrate.MESSAGES,
        "roles/conditions.py WORDS": conditions.WORDS,
        "roles/rank.py WORDS": rank.WORDS,
        "roles/goals.py WORDS": goals.WORDS,
    }
    for name, spec in PRIMITIVES.items():
        if spec.tells:
            found[f"primitive {name!r} (primitives/{name}.py, SPEC.words)"] = spec.words
    return found


def fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def missing_words(found: Mapping[str, Mapping[str, Mapping[str, str]]]) -> list[str]:
    """Each line a language lacks (or spells with other fields than English), said as
    what to add where."""
    problems = []
    for owner, words in found.items():
        english = words.get("en", {})
        if not english:
            problems.append(
                f"{owner}: no words; give each line it tells as words={{'en': {{...}}, "
                "'ja': {...}} (str.format templates, the same keys and fields)"
            )
        for lang in ("ja",):
            local = words.get(lang, {})
            for key, template in english.items():
                if key not in local:
                    problems.append(f"{owner}: no {lang} line for {key!r} (en: {template!r})")
                elif fields(local[key]) != fields(template):
                    problems.append(
                        f"{owner}: {lang} line {key!r} has fields {sorted(fields(local[key]))}, "
                        f"en has {sorted(fields(template))}"
                    )
            problems += [
                f"{owner}: {lang} line {key!r} has no en line"
                for key in local.keys() - english.keys()
            ]
    return problems


def test_every_teller_has_its_lines_in_english_and_japanese() -> None:
    assert missing_words(narration_words()) == []


def test_every_teller_is_told_the_language() -> None:
    """A teller that takes no language would speak English whatever was asked."""
    deaf = [
        f"{tag!r}: {teller.__module__}.{teller.__qualname__} takes no lang"
        for tag, teller in narrate.TELLERS.items()
        if len(inspect.signature(teller).parameters) != 3
    ]
    assert deaf == []


def test_the_words_check_names_a_missing_japanese_line() -> None:
    """The control of the check above: a primitive with one Japanese line taken out (as a
    new primitive given in English only) is named with the line it lacks."""
    found = narration_words()
    owner = "primitive 'guard' (primitives/guard.py, SPEC.words)"
    guard = found[owner]
    found[owner] = {"en": guard["en"], "ja": {}}
    assert missing_words(found) == [
        f"{owner}: no ja line for 'guard' (en: '  seat {{seat}} sets {{flag}} on seat {{target}}')"
    ]
