"""Narration lives beside the rules: the rules record events, narrate.py has the words."""

from __future__ import annotations

import ast
import re
import string
import sys
from pathlib import Path

import pytest

from balancer import games
from balancer.games.daqizi import combos as dqz_combos
from balancer.games.daqizi import narrate as dqz_narrate
from balancer.games.fdc import engine as fdc_rules
from balancer.games.fdc import narrate as fdc_narrate
from balancer.games.kimekimera import narrate as kk_narrate
from balancer.games.kimekimera.engine import FIRST_GREY
from balancer.sim.replay import narrator, visible

NARRATED = games.names()


def _rules_source(name: str) -> str:
    # The engine's module: where the spec's new_state is defined.
    module = sys.modules[games.get(name).new_state.__module__]
    assert module.__file__ is not None
    return Path(module.__file__).read_text()


def _strings_in_code(tree: ast.Module) -> list[str]:
    """Every string the code spells, an f-string's values as {}; docstrings left out."""
    skip = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)
            out.append(
                "".join(str(p.value) if isinstance(p, ast.Constant) else "{}" for p in node.values)
            )
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            out.append(node.value)
    return out


def _pattern(template: str) -> tuple[re.Pattern[str], int]:
    """A template as a pattern (any text for a field), and how many letters it fixes."""
    pieces = re.split(r"\{[^}]*\}", template.strip())
    return re.compile(".*".join(re.escape(p) for p in pieces)), sum(len(p) for p in pieces)


@pytest.mark.parametrize("name", NARRATED)
def test_the_rules_build_no_narration(name: str) -> None:
    source = _rules_source(name)
    tree = ast.parse(source)
    assert "_log" not in source
    assert "log" not in {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    # No message of the narrator's is spelled in the rules' code (docstrings
    # may tell the rules in the same words): no string of engine.py matches a
    # template, fields standing for anything.
    strings = _strings_in_code(tree)
    told = narrator(games.get(name))
    assert told is not None
    messages = sys.modules[told.__module__].MESSAGES
    for lang, table in messages.items():
        for key, template in table.items():
            pattern, letters = _pattern(template)
            if letters >= 8:
                found = [text for text in strings if pattern.search(text)]
                assert not found, f"{lang} message {key!r} is spelled in engine.py: {found}"


def test_every_shipped_game_has_its_own_narrator() -> None:
    told = {name: narrator(games.get(name)) for name in games.names()}
    assert None not in told.values()
    # Every game file (registered by an earlier test in this process, maybe) shares the
    # role games' narrator, which speaks each file's own words.
    written = {n: t for n, t in told.items() if not games.from_game_file(n)}
    assert len({t.__module__ for t in written.values() if t is not None}) == len(written)
    for name in set(told) - set(written):
        assert told[name].__module__ == "balancer.games.roles.narrate"  # type: ignore[union-attr]


def test_da_qi_zi_payments_are_told_from_who_pays_and_nothing_when_nothing_is_owed() -> None:
    # Seat 1 captured 5 against a base of 3: it is owed 2 × 2 = 4 by the winner, seat 0.
    # Seat 2 captured 3: it owes nothing, and no line says so.
    trace = [("owes", 1, 0, -4, 5, 2), ("owes", 2, 0, 0, 3, 2), ("owes", 3, 0, 6, 0, 2)]
    assert dqz_narrate.lines(trace) == [
        "    seat 0 pays seat 1 4 (seat 1 captured 5, ×2)",
        "    seat 3 pays seat 0 6 (seat 3 captured 0, ×2)",
    ]


def test_kimekimera_tells_why_a_seat_is_skipped() -> None:
    trace = [
        ("cant_breed", 0, "robot_unreplaceable", FIRST_GREY, 0),
        ("cant_breed", 1, "robot", 1, FIRST_GREY),
        ("cant_breed", 2, "no_free", 2, 3),
    ]
    assert kk_narrate.lines(trace) == [
        "  seat 0 can't breed (grey+r1 is a robot, and the deck can't replace it)",
        "  seat 1 can't breed (r2+grey is a robot)",
        "  seat 2 can't breed (no free chimera)",
    ]


def test_fish_dash_cash_keeps_a_hand_and_a_drawn_card_for_their_owner() -> None:
    rules = {"deck": fdc_rules.DEFAULT_DECK}
    red_fish_3 = fdc_rules.parse("red fish 3", rules)
    blue_cash_8 = fdc_rules.parse("blue cash 8", rules)
    trace = [("trick", 4, 1, ((red_fish_3,), ())), ("draws", 1, blue_cash_8)]
    told = fdc_narrate.lines(trace, rules)
    assert told == [
        "Trick 4: seat 1 leads",
        (0, "  seat 0's hand: red fish 3"),
        (1, "  seat 1's hand: (empty)"),
        "  seat 1 draws a card",
        (1, "  seat 1 draws blue cash 8"),
    ]
    assert [visible(line, 0) for line in told] == [
        "Trick 4: seat 1 leads",
        "  seat 0's hand: red fish 3",
        None,
        "  seat 1 draws a card",
        None,
    ]


def test_da_qi_zi_keeps_hands_and_face_down_discards_for_their_owner() -> None:
    # Seat 0 holds a red soldier, seats 1-3 two black soldiers each; seat 1
    # discards its two face down. `replay --seat 0` sees neither seat 1's hand
    # nor which cards went down: the table only sees that 2 cards did.
    kinds = {dqz_combos.describe_kind(k): k for k in range(dqz_combos.N_KINDS)}
    red, black = kinds["red soldier 兵"], kinds["black soldier 卒"]
    hand_of_red = tuple(int(k == red) for k in range(dqz_combos.N_KINDS))
    two_black = tuple(2 * int(k == black) for k in range(dqz_combos.N_KINDS))
    discard = next(
        m
        for m in range(dqz_combos.DISCARD_BASE, dqz_combos.N_MOVES)
        if dqz_combos.MOVE_KINDS[m] == (black, black)
    )
    hands = (hand_of_red, two_black, two_black, two_black)
    trace = [("deal", 1, 0, 1, (20, 20, 20, 20), hands), ("discards", 1, discard)]
    told = dqz_narrate.lines(trace)
    seen_by_0 = [text for line in told if (text := visible(line, 0)) is not None]
    assert seen_by_0 == [
        "Deal 1: seat 0 deals, ×1, chips [20, 20, 20, 20]",
        "  seat 0: red soldier 兵",
        "    seat 1 discards 2 cards face down",
    ]
    seen_by_1 = [text for line in told if (text := visible(line, 1)) is not None]
    assert seen_by_1[1:] == [
        "  seat 1: black soldier 卒, black soldier 卒",
        "    seat 1 discards 2 cards face down",
        "      seat 1's discard: [black soldier 卒, black soldier 卒]",
    ]


# -- the hand-written games in Japanese ---------------------------------------------------

HAND_WRITTEN = {"fdc": fdc_narrate, "kk": kk_narrate, "dqz": dqz_narrate}


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


@pytest.mark.parametrize("game", sorted(HAND_WRITTEN))
def test_each_hand_written_game_tells_every_line_in_japanese(game: str) -> None:
    """Every English line has a Japanese one with the same fields (else `replay --lang ja`
    would fall back to English for the whole game, or fail on a field)."""
    messages = HAND_WRITTEN[game].MESSAGES
    english, japanese = messages["en"], messages["ja"]
    assert japanese.keys() == english.keys()
    for key, template in english.items():
        assert _fields(japanese[key]) == _fields(template), key
        assert "seat" not in re.sub(r"\{[^}]*\}", "", japanese[key]), key


def test_da_qi_zi_payments_in_japanese() -> None:
    # The payments of the English test above, worked the same way.
    trace = [("owes", 1, 0, -4, 5, 2), ("owes", 2, 0, 0, 3, 2), ("owes", 3, 0, 6, 0, 2)]
    assert dqz_narrate.lines(trace, lang="ja") == [
        "    席 0 が席 1 に 4 支払う（席 1 の獲得 5、×2）",
        "    席 3 が席 0 に 6 支払う（席 3 の獲得 0、×2）",
    ]


def test_kimekimera_tells_why_a_seat_is_skipped_in_japanese() -> None:
    trace = [
        ("cant_breed", 0, "robot_unreplaceable", FIRST_GREY, 0),
        ("cant_breed", 1, "robot", 1, FIRST_GREY),
        ("cant_breed", 2, "no_free", 2, 3),
    ]
    assert kk_narrate.lines(trace, lang="ja") == [
        "  席 0 は交配できない（grey+r1 はロボットで、山札から取り替えられない）",
        "  席 1 は交配できない（r2+grey はロボット）",
        "  席 2 は交配できない（フリーキメラがない）",
    ]


def test_fish_dash_cash_keeps_a_hand_and_a_drawn_card_for_their_owner_in_japanese() -> None:
    rules = {"deck": fdc_rules.DEFAULT_DECK}
    red_fish_3 = fdc_rules.parse("red fish 3", rules)
    blue_cash_8 = fdc_rules.parse("blue cash 8", rules)
    trace = [("trick", 4, 1, ((red_fish_3,), ())), ("draws", 1, blue_cash_8)]
    told = fdc_narrate.lines(trace, rules, "ja")
    assert told == [
        "トリック 4: 席 1 がリード",
        (0, "  席 0 の手札: red fish 3"),
        (1, "  席 1 の手札: （なし）"),
        "  席 1 がカードを1枚引く",
        (1, "  席 1 が blue cash 8 を引く"),
    ]
    assert [visible(line, 0) for line in told] == [
        "トリック 4: 席 1 がリード",
        "  席 0 の手札: red fish 3",
        None,
        "  席 1 がカードを1枚引く",
        None,
    ]


@pytest.mark.parametrize("variant", ["fdc-5p.yaml", "kk-4p.yaml", "dqz-4p.yaml"])
def test_a_whole_game_replays_in_japanese_line_for_line(variant: str) -> None:
    """`replay --lang ja` of a shipped game: as many lines as the English replay, each
    seat's private lines the same seat's, and no English narration left."""
    from click.testing import CliRunner

    from balancer.cli import cli

    path = str(Path(__file__).parents[2] / "variants" / variant)
    runner = CliRunner()
    english = runner.invoke(cli, ["replay", path, "-g", "3", "--lang", "en"])
    japanese = runner.invoke(cli, ["replay", path, "-g", "3", "--lang", "ja"])
    assert english.exit_code == 0 and japanese.exit_code == 0, japanese.output
    en_lines, ja_lines = english.output.splitlines(), japanese.output.splitlines()
    assert len(en_lines) == len(ja_lines) > 10
    assert any("seat" in line for line in en_lines)  # the control: English says "seat"
    assert not any("seat" in line for line in ja_lines)
    assert sum("席" in line for line in ja_lines) >= sum("seat" in line for line in en_lines)


def test_da_qi_zi_names_a_move_by_its_form_in_japanese() -> None:
    """A pair led and a face-down discard of one card: the form in the seed's words
    (２枚出し), the count of a face-down discard without the English noun."""
    pair = next(
        m for m, form in enumerate(dqz_combos.COMBO_FORM) if dqz_combos.FORMS[form] == "pair"
    )
    one_down = next(
        m for m in range(dqz_combos.DISCARD_BASE, len(dqz_combos.MOVE_KINDS))
        if len(dqz_combos.MOVE_KINDS[m]) == 1
    )  # fmt: skip
    cards = dqz_combos.describe_cards(pair)
    trace = [("leads", 2, 1, pair), ("discards", 3, one_down)]
    assert dqz_narrate.lines(trace, lang="ja")[:2] == [
        f"  トリック 2: 席 1 が ２枚出し {cards} でリード",
        "    席 3 が 1 枚を伏せて捨てる",
    ]
    assert dqz_narrate.lines(trace)[:2] == [
        f"  trick 2: seat 1 leads pair {cards}",
        "    seat 3 discards 1 card face down",
    ]


def test_a_language_without_a_table_is_told_in_english() -> None:
    """A narration asked for in a language it has no table for speaks English (a plugin's
    or a future language's), not an error."""
    rules = {"deck": fdc_rules.DEFAULT_DECK}
    trace = [("trick", 4, 1, ((fdc_rules.parse("red fish 3", rules),), ())), ("protects", 0)]
    english = fdc_narrate.lines(trace, rules, "en")
    assert fdc_narrate.lines(trace, rules, "fr") == english
    assert fdc_narrate.lines(trace, rules, "ja") != english  # the control
    owes = [("owes", 1, 0, -4, 5, 2)]
    assert dqz_narrate.lines(owes, lang="fr") == dqz_narrate.lines(owes)
    skipped = [("cant_breed", 2, "no_free", 2, 3)]
    assert kk_narrate.lines(skipped, lang="fr") == kk_narrate.lines(skipped)
