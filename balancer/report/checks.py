"""A report opened from a folder, checked against itself: report.json and games.parquet agree.

`model.load_report` has checked that each file is well-formed (every key of
the right type, every column present and finite). Here the two are checked
against each other and against the game, because `diff`, `csv` and `replay`
trust what a report says: a hand-edited file (a flipped `higher_is_better`, a
win share made up, a seat's label changed, games dropped from the table) or
a damaged one is refused with one line naming the file and the key, rather
than analysed as if it were a run.

The figures recomputed here are the cheap ones (means, minima, maxima,
shares, counts); they are what a hand edit changes, and recomputing the
intervals would cost as much as writing the report did.
"""

from __future__ import annotations

import math
import unicodedata
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from balancer import games, table
from balancer.errors import UserError
from balancer.errors import shown as _short  # a value quoted in a message, cut
from balancer.escape import BIDI_CONTROLS, contrast
from balancer.yamlsafe import MAX_DEPTH

if TYPE_CHECKING:
    from balancer.config.variant import Variant
    from balancer.report.model import Report

# A figure recomputed from the games table agrees with report.json to this
# much (the two are summed in different orders); an edit is never this small.
REL_TOLERANCE = 1e-9
ABS_TOLERANCE = 1e-9
# No score, count or length of these games comes near this; past it a float
# no longer holds whole numbers exactly and sums overflow.
MAX_VALUE = 2.0**53
# A bot's parameters sit four levels into report.json (variant.seats[i].params)
# and a variant file nests at most yamlsafe.MAX_DEPTH deep.
MAX_REPORT_DEPTH = MAX_DEPTH + 8


def check_nesting(document: Any, path: str) -> None:
    """Refuse a document nested deeper than any report (a variant's YAML is at most
    MAX_DEPTH deep): whatever walks it later, nothing recurses past the limit."""
    stack = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_REPORT_DEPTH:
            raise UserError(f"not a report: nested more than {MAX_REPORT_DEPTH} deep", file=path)
        if isinstance(value, dict):
            stack.extend((inner, depth + 1) for inner in value.values())
        elif isinstance(value, list):
            stack.extend((inner, depth + 1) for inner in value)


def check_document(report: Report, path: str) -> None:
    """report.json against the game it names and against itself (no games table needed)."""
    _check_game_file(report, path)
    canonical = games.canonical(report.game)
    named = report.variant.get("game")
    if canonical is None and report.game_file is not None:
        # A role game's report kept its game file: it reads even after the file changed.
        canonical = games.game_kept_by_report(report.game, report.game_file)
    elif canonical is None and isinstance(named, str):
        # A designer's game file, named by its path in the variant: registered from there.
        from balancer.games import game_named

        if game_named(named) == report.game:
            canonical = report.game
    if canonical is None:
        raise UserError(f"unknown game {report.game!r}", file=path, key="game")
    spec = games.get(canonical)
    if report.higher_is_better != spec.higher_is_better:
        better = "higher" if spec.higher_is_better else "lower"
        raise UserError(
            f"is {str(report.higher_is_better).lower()}, but in {spec.name} a {better} score "
            "is better: the file was edited or damaged",
            file=path,
            key="higher_is_better",
        )
    for index, name in enumerate(report.value_events or ()):
        if name not in report.events:
            raise UserError(
                f"{name!r} is not one of the report's events",
                file=path,
                key=f"value_events[{index}]",
            )
        if name in spec.events and name not in spec.value_events:
            raise UserError(
                f"{name!r} is a count in {spec.name}, not a value per game",
                file=path,
                key=f"value_events[{index}]",
            )
    if report.value_events is not None:
        if len(set(report.value_events)) != len(report.value_events):
            raise UserError("names an event twice", file=path, key="value_events")
        for name in spec.value_events:
            if name in report.events and name not in report.value_events:
                raise UserError(
                    f"leaves out {name!r}, a value per game in {spec.name}, not a count",
                    file=path,
                    key="value_events",
                )
    _check_texts(report.to_json(), path, "")
    _check_variant(report, path)
    for index, seat in enumerate(report.seats):
        if seat.seat != index:
            raise UserError(
                f"should be {index}, not {_short(seat.seat)}", file=path, key=f"seats[{index}].seat"
            )


def _check_game_file(report: Report, path: str) -> None:
    """The game file a report names (its kept copy's path, its variant's `game:`), and
    the copy it kept: a path naming anything but a regular file (a FIFO would hang the
    read, /dev/zero never end) is refused before anything opens it; a path with nothing
    there leaves the kept copy to stand in. A kept copy is a mapping as every game file is."""
    from balancer.files import FILE, kind_of
    from balancer.games.roles import looks_like_file

    kept = report.game_file
    paths = []
    if kept is not None:
        content = kept.get("content")
        if not isinstance(content, dict):
            raise UserError(
                f"the kept copy of the game file should be a mapping of its keys, not "
                f"{_short(content)}",
                file=path,
                key="game_file.content",
            )
        if not isinstance(kept.get("path"), str):
            raise UserError(
                f"should be the game file's path, not {_short(kept.get('path'))}",
                file=path,
                key="game_file.path",
            )
        paths.append(("game_file.path", kept["path"]))
    named = report.variant.get("game")
    if isinstance(named, str) and looks_like_file(named):
        paths.append(("variant.game", named))
    for key, value in paths:
        try:
            kind = kind_of(value)
        except UserError as exc:  # a loop of links, a name too long
            raise UserError(exc.message, file=path, key=key) from None
        if kind is not None and kind != FILE:
            raise UserError(f"{_short(value)} is {kind}, not a game file", file=path, key=key)


def _check_variant(report: Report, path: str) -> None:
    """The resolved variant's keys that the figures depend on: their form and agreement.

    A key the variant lacks is not checked here (a hand-made or early report
    may hold only a name; `replay` checks the whole variant before it plays);
    a key it has must be of the right form and agree with the report.
    """
    variant = report.variant
    for key, kind in (("name", str), ("game", str), ("players", int), ("seed", int)):
        value = variant.get(key, kind())
        if not isinstance(value, kind) or isinstance(value, bool):
            raise UserError(
                f"should be {kind.__name__}, not {_short(value)}", file=path, key=f"variant.{key}"
            )
    _check_label(variant.get("name", ""), path, "variant.name")
    named = _game_named(variant["game"]) if "game" in variant else games.canonical(report.game)
    # A game file gone or broken since the run names no game: the report's kept copy
    # is the game (game_kept_by_report); one that names another game contradicts it.
    kept = report.game_file is not None and named is None
    if not kept and named != games.canonical(report.game):
        named, played = contrast(variant["game"], report.game)
        raise UserError(
            f"is {named}, but the report is of {played}",
            file=path,
            key="variant.game",
        )
    for key, top in (("players", report.players), ("seed", report.seed)):
        if key in variant and variant[key] != top:
            named, played = contrast(variant[key], top)
            raise UserError(
                f"is {named}, but the report's {key} is {played}",
                file=path,
                key=f"variant.{key}",
            )
    rotation = variant.get("seat_rotation", False)
    if not isinstance(rotation, bool):
        raise UserError(
            f"should be true or false, not {_short(rotation)}",
            file=path,
            key="variant.seat_rotation",
        )
    if "seats" not in variant:
        return
    seats = variant["seats"]
    if not isinstance(seats, list):
        raise UserError(
            f"should be a list with one bot per seat, not {_short(seats)}",
            file=path,
            key="variant.seats",
        )
    if len(seats) != report.players:
        raise UserError(
            f"lists {len(seats)} bots for {report.players} players", file=path, key="variant.seats"
        )
    for index, seat in enumerate(seats):
        where = f"variant.seats[{index}]"
        if not isinstance(seat, dict):
            raise UserError(
                f"should be a mapping {{bot:, params:}}, not {_short(seat)}", file=path, key=where
            )
        bot = seat.get("bot")
        if not isinstance(bot, str) or not bot:
            raise UserError(
                f"should be a bot name, not {_short(bot)}", file=path, key=f"{where}.bot"
            )
        _check_label(bot, path, f"{where}.bot")
        if not isinstance(seat.get("params", {}), dict):
            raise UserError(
                f"should be a mapping of parameter: value, not {_short(seat.get('params'))}",
                file=path,
                key=f"{where}.params",
            )
        figure = report.seats[index].bot
        if not rotation and figure != "rotating" and figure.split("(", 1)[0] != bot:
            shown, seated = contrast(figure, bot)
            raise UserError(
                f"is {shown}, but the variant seats {seated} there",
                file=path,
                key=f"seats[{index}].bot",
            )


def _check_texts(value: Any, path: str, key: str) -> None:
    """Every text of the report (keys too) as balancer writes it; a bot's parameters aside.

    Names, labels, notes and units are printed on the terminal and into
    summary.md: an escape sequence or a bidi control in one is a forgery.
    A plugin's parameters may hold anything; their label shows them escaped.
    """
    if isinstance(value, str):
        _check_label(value, path, key)
    elif isinstance(value, dict):
        for name, inner in value.items():
            where = f"{key}.{name}" if key else str(name)
            _check_label(str(name), path, where)
            if where.startswith("variant.seats[") and where.endswith("].params"):
                continue
            _check_texts(inner, path, where)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            _check_texts(inner, path, f"{key}[{index}]")


def _check_label(text: str, path: str, key: str) -> None:
    """A name or bot label as balancer writes it: no control, format or bidi characters."""
    for ch in text:
        if ch in BIDI_CONTROLS:
            raise UserError(
                f"holds the bidirectional control U+{ord(ch):04X}, which makes text read "
                "other than it is",
                file=path,
                key=key,
            )
        if ch < " " or "\x7f" <= ch <= "\x9f":
            raise UserError(
                f"holds the control character U+{ord(ch):04X}, which balancer never writes",
                file=path,
                key=key,
            )
        if unicodedata.category(ch) == "Cf":  # a zero-width joiner: "a\u200db" looks like "ab"
            raise UserError(
                f"holds the invisible format character U+{ord(ch):04X}, which makes text look "
                "other than it is",
                file=path,
                key=key,
            )


def check_games(report: Report, games_frame: pl.DataFrame, path: str) -> None:
    """games.parquet against report.json: each figure recomputed from the table must agree.

    `games_frame` has passed `model._load_games` (columns present, numeric,
    finite, one row per game, sorted by game).
    """
    players = report.players

    def disagree(key: str, found: Any, table_says: Any) -> UserError:
        said, given = contrast(found, table_says)
        return UserError(
            f"report.json says {said}, but games.parquet gives {given}", file=path, key=key
        )

    scores = np.column_stack(
        [games_frame[table.score(s)].cast(pl.Float64).to_numpy() for s in range(players)]
    )
    wins = np.column_stack(
        [games_frame[table.win(s)].cast(pl.Float64).to_numpy() for s in range(players)]
    )
    expected = table.win_shares_matrix(scores, report.higher_is_better)
    bad = ~np.isclose(wins, expected, rtol=REL_TOLERANCE, atol=ABS_TOLERANCE)
    if bad.any():
        game, at = (int(i) for i in np.argwhere(bad)[0])
        lower = "higher" if report.higher_is_better else "lower"
        raise UserError(
            f"game {game}: seat {at}'s win share is {wins[game, at]:g}, but its score "
            f"gives {expected[game, at]:g} ({lower} is better): the table does not match "
            "its scores",
            file=path,
            key=table.win(at),
        )
    for seat in report.seats:
        s = seat.seat
        where = f"seats[{s}]"
        _agree(disagree, f"{where}.win_share", seat.win_share, float(wins[:, s].mean()))
        column = scores[:, s]
        for name, value in (
            ("mean", float(column.mean())),
            ("min", float(column.min())),
            ("max", float(column.max())),
        ):
            _agree(disagree, f"{where}.score.{name}", getattr(seat.score, name), value)
        labels = set(games_frame[table.bot(s)].unique().to_list())
        for label in labels:
            _check_label(label, path, table.bot(s))
        shown = labels.pop() if len(labels) == 1 else "rotating"
        if seat.bot != shown:
            raise disagree(f"{where}.bot", seat.bot, shown)
    if report.length is not None:
        lengths = games_frame[table.LENGTH].cast(pl.Float64).to_numpy()
        for name, value in (
            ("mean", float(lengths.mean())),
            ("min", float(lengths.min())),
            ("max", float(lengths.max())),
        ):
            _agree(disagree, f"length.{name}", getattr(report.length, name), value)
    value_events = set(report.value_events or ())
    for name, figures in report.events.items():
        values = games_frame[table.event(name)].cast(pl.Float64).to_numpy()
        _agree(disagree, f"events.{name}.per_game", figures.per_game, float(values.mean()))
        if name not in value_events:
            share = float((values > 0).mean())
            _agree(disagree, f"events.{name}.share_of_games", figures.share_of_games, share)
    if report.bots is not None:
        counts: dict[str, int] = {}
        for s in range(players):
            for label, n in games_frame[table.bot(s)].value_counts().iter_rows():
                counts[label] = counts.get(label, 0) + int(n)
        if set(report.bots) != set(counts):
            raise disagree("bots", sorted(report.bots), sorted(counts))
        for label, bot in report.bots.items():
            if bot.seat_games != counts[label]:
                raise disagree(f"bots.{label}.seat_games", bot.seat_games, counts[label])


def _agree(disagree: Any, key: str, found: float, recomputed: float) -> None:
    if not math.isclose(found, recomputed, rel_tol=REL_TOLERANCE, abs_tol=ABS_TOLERANCE):
        raise disagree(key, found, recomputed)


def _game_named(value: Any) -> str | None:
    """The game a variant's `game:` names: a game's name, or a game file's path."""
    if not isinstance(value, str):
        return None
    from balancer.games import game_named

    return game_named(value)


def check_cards_held(games_frame: pl.DataFrame, players: int, kinds: int | None, path: str) -> None:
    """games.parquet's dealt hands (`held_<s>_<w>`) against the variant report.json holds:
    one bit per card kind of that variant's deck, no bit past it.

    A report from before card impact has no such columns, which is no contradiction.
    A deck edited in report.json (numbers 0-9 made 0-3) over hands dealt from the
    first would send card kinds the deck does not have into the card tally, which
    reads past its arrays: refused here, for every reader alike.
    """
    found = sorted(c for c in games_frame.columns if c.startswith("held_"))
    if not found:
        return
    if kinds is None:
        raise UserError(
            f"holds the cards each seat held ({found[0]}), but the game in report.json "
            "records none",
            file=path,
        )
    words = table.held_words(kinds)
    expected = sorted(table.held(s, w) for s in range(players) for w in range(words))
    if found != expected:
        odd = sorted(set(found) ^ set(expected))[0]
        has = "has" if odd in found else "has no"
        raise UserError(
            f"the deck in report.json's variant has {kinds} card kinds ({words} "
            f"{'word' if words == 1 else 'words'} per seat), but the file {has} column {odd}: "
            "not the deck these games were dealt from",
            file=path,
        )
    for column in expected:
        values = games_frame[column]
        if not values.dtype.is_integer() or values.null_count() or (values < 0).any():
            raise UserError(f"column {column} should hold card bit masks", file=path)
    # Kinds past the deck can only show in the last word's high bits.
    spare = 64 * words - kinds
    if spare:
        past_the_deck = ~np.uint64((1 << (64 - spare)) - 1)
        for s in range(players):
            column = table.held(s, words - 1)
            masks = games_frame[column].to_numpy().astype(np.uint64)
            bad = np.flatnonzero(masks & past_the_deck)
            if bad.size:
                row = int(bad[0])
                game = int(games_frame[table.GAME][row])
                past = int(masks[row] & past_the_deck)
                kind = 64 * (words - 1) + (past & -past).bit_length() - 1  # the lowest bit past
                raise UserError(
                    f"game {game}: seat {s} held card kind {kind}, but the deck in "
                    f"report.json's variant has {kinds} kinds (0..{kinds - 1}): not the deck "
                    "these games were dealt from",
                    file=path,
                    key=column,
                )


def check_played_as_the_variant_says(
    report: Report, variant: Variant, report_path: str, games_path: str
) -> None:
    """games.parquet against the variant report.json says played it: as many games as
    it allows (exactly as many unless a rule stopped the run early), seated as its
    `seat_rotation` seats them. A report edited to say otherwise would be replayed,
    diffed and tabled as a variant that did not play these games."""
    n_games, until = report.n_games, report.until
    if n_games > variant.games or (until is None and n_games != variant.games):
        allows = "at most " if until is not None else ""
        raise UserError(
            f"plays {allows}{variant.games} games, but games.parquet holds {n_games}: "
            "not the variant these games were played under",
            file=report_path,
            key="variant.games",
        )
    players, frame = variant.players, report.games
    columns = [frame[table.bot(s)] for s in range(players)]
    # The labels as small integers (a million games' strings compared one by one
    # take seconds; their codes, milliseconds).
    names = sorted(set().union(*(column.unique().to_list() for column in columns)))
    codes = np.column_stack(
        [column.cast(pl.Enum(names)).to_physical().to_numpy() for column in columns]
    )
    # Who sat where in game 0 says which bot is in each slot; the rotation (or none)
    # then says who sits where in every later game (table.seat_slots).
    slots = table.seat_slots(0, frame.height, players, variant.seat_rotation)
    wrong = (codes != codes[0][slots]).ravel()
    if wrong.any():
        game, seat = divmod(int(np.argmax(wrong)), players)
        rotation = "true" if variant.seat_rotation else "false"
        raise UserError(
            f"game {game}: seat {seat} holds {_short_label(names[codes[game, seat]])}, but "
            f"report.json's variant (seat_rotation: {rotation}) seats "
            f"{_short_label(names[codes[0][slots[game, seat]]])} there: not the seating "
            "these games were played in",
            file=games_path,
            key=table.bot(seat),
        )


def _short_label(label: str) -> str:
    text = repr(str(label))
    return text if len(text) <= 60 else text[:57] + "..."
