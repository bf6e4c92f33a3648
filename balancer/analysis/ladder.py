"""The skill ladder: every bot of a game against the others, seats rotated, common seeds.

Design. For B bots and P seats the ladder plays every seat assignment of
the bots to the seats (B^P of them) except the B where one bot holds every
seat (a bot against itself says nothing about skill). This full factorial
is balanced: every bot sits in every seat equally often, against every
combination of opponents, so seat advantage cancels and no bot is favoured
by whom it meets. Every lineup plays the same games 0..k-1 (common seeds:
game g of every lineup starts from the same deal), so differences between
bots are the bots', not the shuffles'.

Statistics. A bot's win share is per seat-game (its summed shares over its
seats, split ties as 1/k, over the seats it held). The independent unit is
the deal g: all lineups' games from deal g share the cards, so a bot's
shares from every lineup of deal g are one cluster (stats/intervals.py:
share_interval with weights; a bot's several seats in a game sit inside the
same cluster). The head-to-head cell (i, j) is bot i's win share over the
games where i and j both sit. The skill gap is the best bot's win share
minus `random`'s, a paired difference over deals (stats/compare.py), with a
95% t interval; naming the best after looking makes the gap's estimate a
little optimistic when the top bots are close.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from balancer import games as game_registry
from balancer import knobs
from balancer.analysis.plays import Games, Job, play
from balancer.bots import registry as bot_registry
from balancer.config.variant import SeatSpec, Variant
from balancer.errors import UserError
from balancer.numbers import column_decimals, decimals, ends, fixed
from balancer.stats import compare, intervals

MAX_LINEUPS = 1000
MIN_DEALS = 30  # deals per lineup: the clusters the intervals rest on
DEFAULT_GAMES = 20_000
RANDOM = "random"


def lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """Every assignment of bots to seats, bar those where one bot holds every seat."""
    return [combo for combo in itertools.product(bots, repeat=players) if len(set(combo)) > 1]


def game_variant(game: str, players: int, seed: int) -> Variant:
    """A variant of `game` as printed (every knob at its default), for the ladder's tables."""
    full = game_registry.canonical(game)
    if full is None:
        raise UserError(
            f"unknown game {game!r} (one of {', '.join(game_registry.names())})", key="GAME"
        )
    spec = game_registry.get(full)
    if players < 2:
        raise UserError("a ladder needs two seats or more", key="--players")
    if not spec.min_players <= players <= spec.max_players:
        raise UserError(
            f"{full} takes {spec.min_players} to {spec.max_players} players, got {players}",
            key="--players",
        )
    rules = knobs.defaults(spec.knobs)
    why = spec.unplayable(rules, players)
    if why:
        raise UserError(f"can't be played: {why}", key="--players")
    return Variant(
        name=f"{game}-{players}p-ladder",
        path=full,
        game=full,
        players=players,
        games=1,
        seed=seed,
        seats=(SeatSpec(RANDOM),) * players,
        seat_rotation=False,
        rules=knobs.freeze(rules),
    )


def choose_bots(variant: Variant, names: list[str] | None, allow_plugins: bool) -> list[str]:
    """The ladder's bots: the game's built-ins but the search (it costs a thousand times a
    scripted bot's move: name it in --bots), or those named (plugins only if allowed)."""
    from balancer.bots.search import SEARCH

    builtin = list(bot_registry.builtin(variant.game))
    if not names:
        return [name for name in builtin if name != SEARCH]
    chosen: list[str] = []
    for name in names:
        if bot_registry.is_plugin(name):
            try:
                bot_registry.check_plugin_name(name)
            except ValueError as exc:
                raise UserError(str(exc), key="--bots") from None
            if not allow_plugins:
                raise UserError(
                    f"{name!r} is a plugin bot, which is code: it runs only with --allow-plugins",
                    key="--bots",
                )
        elif name not in builtin:
            raise UserError(
                f"unknown bot {name!r} for {variant.game} (built-in: {', '.join(builtin)})",
                key="--bots",
            )
        if name in chosen:
            raise UserError(f"{name!r} is named twice", key="--bots")
        chosen.append(name)
    if len(chosen) < 2:
        raise UserError("a ladder needs at least two bots", key="--bots")
    return chosen


@dataclass(frozen=True)
class Plan:
    """What the ladder will play: its lineups and the deals each plays."""

    variant: Variant
    bots: list[str]
    lineups: list[tuple[str, ...]]
    deals: int

    @property
    def games(self) -> int:
        return self.deals * len(self.lineups)

    def jobs(self) -> list[Job]:
        return [
            Job(
                replace(
                    self.variant,
                    seats=tuple(SeatSpec(b) for b in lineup),
                    seat_rotation=False,
                    games=self.deals,
                ),
                0,
                self.deals,
            )
            for lineup in self.lineups
        ]


def plan(variant: Variant, bots: list[str], games: int) -> Plan:
    """Lineups for `variant`'s seats and the deals per lineup for about `games` games."""
    found = lineups(bots, variant.players)
    if len(found) > MAX_LINEUPS:
        raise UserError(
            f"{len(bots)} bots at {variant.players} seats make {len(found)} lineups "
            f"(at most {MAX_LINEUPS}); name fewer bots",
            key="--bots",
        )
    deals = max(MIN_DEALS, math.ceil(games / len(found)))
    return Plan(variant, bots, found, deals)


@dataclass
class Share:
    estimate: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        # As report.json writes a figure's interval: a [low, high] pair under `ci95`.
        return {"estimate": self.estimate, "ci95": [self.low, self.high]}


@dataclass
class Ladder:
    game: str
    players: int
    seed: int
    lineups: int
    deals: int
    games: int
    bots: list[str]
    shares: dict[str, Share]  # by bot, in ladder order (best first)
    seat_games: dict[str, int]
    head_to_head: dict[str, dict[str, Share]]  # [i][j]: i's share in games with j
    skill_gap: Share | None
    best: str
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "design": "every seat assignment of the bots but one-bot tables, common seeds",
            "lineups": self.lineups,
            "deals_per_lineup": self.deals,
            "games": self.games,
            "bots": [
                {"bot": b, "win_share": self.shares[b].to_json(), "seat_games": self.seat_games[b]}
                for b in self.bots
            ],
            "head_to_head": {
                i: {j: cell.to_json() for j, cell in row.items()}
                for i, row in self.head_to_head.items()
            },
            "skill_gap": None
            if self.skill_gap is None
            else {"best": self.best, "minus": RANDOM, **self.skill_gap.to_json()},
            "notes": self.notes,
        }

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2, allow_nan=False)


def per_deal(results: list[Games], deals: int, bot: str, also: str | None = None) -> tuple:
    """Per deal: bot's summed win shares y and its seats m, over every lineup (with `also`)."""
    y = np.zeros(deals)
    m = np.zeros(deals)
    for games in results:
        if games.n == 0:
            continue
        held = games.labels == bot
        if not held[0].any():
            continue
        if also is not None and not (games.labels[0] == also).any():
            continue
        y[: games.n] += (games.wins * held).sum(axis=1)
        m[: games.n] += held.sum(axis=1)
    return y, m


def _share(y: np.ndarray, m: np.ndarray) -> Share:
    found = intervals.share_interval(y, m)
    return Share(found.estimate, found.low, found.high)


def analyse(the_plan: Plan, results: list[Games]) -> Ladder:
    deals = the_plan.deals
    bots = the_plan.bots
    columns = {b: per_deal(results, deals, b) for b in bots}
    shares = {b: _share(*columns[b]) for b in bots}
    order = sorted(bots, key=lambda b: -shares[b].estimate)
    h2h: dict[str, dict[str, Share]] = {}
    for i in order:
        h2h[i] = {}
        for j in order:
            if i != j:
                h2h[i][j] = _share(*per_deal(results, deals, i, also=j))
    best = order[0]
    gap = None
    notes = []
    if RANDOM in bots and best != RANDOM:
        a = compare.Figure(RANDOM, "win", *columns[RANDOM])
        b = compare.Figure(best, "win", *columns[best])
        diff = compare.difference(a, b, paired=True)
        low, high = diff.interval(0.95)
        gap = Share(diff.change, low, high)
    elif RANDOM not in bots:
        notes.append("no skill gap: the ladder has no random bot")
    else:
        notes.append("no skill gap: random is the best bot")
    return Ladder(
        game=the_plan.variant.game,
        players=the_plan.variant.players,
        seed=the_plan.variant.seed,
        lineups=len(the_plan.lineups),
        deals=deals,
        games=the_plan.games,
        bots=order,
        shares={b: shares[b] for b in order},
        seat_games={b: int(columns[b][1].sum()) for b in order},
        head_to_head=h2h,
        skill_gap=gap,
        best=best,
        notes=notes,
    )


def run_ladder(the_plan: Plan, **play_options: Any) -> Ladder:
    return analyse(the_plan, play(the_plan.jobs(), **play_options))


# --- output --------------------------------------------------------------------------


def _places(shares: Iterable[Share]) -> int | None:
    """One precision, in percentage points, for a column (or matrix) of win shares."""
    return column_decimals((100 * s.low, 100 * s.high) for s in shares)


def _cell(share: Share, places: int | None) -> str:
    """`68.1% [63.8%, 72.1%]` at `places` decimals (the column's, balancer/numbers.py)."""
    if places is None:
        places = 1  # no interval width to go by (a single deal): one decimal, as a share reads
    pct = [fixed(100 * v, places) + "%" for v in (share.estimate, share.low, share.high)]
    return f"{pct[0]} [{pct[1]}, {pct[2]}]"


def _gap_fields(gap: Share) -> dict[str, str]:
    """The skill gap in signed percentage points, at the precision its interval backs."""
    places = decimals(100 * gap.low, 100 * gap.high)
    places = 1 if places is None else places
    return {
        k: fixed(100 * v, places, signed=True)
        for k, v in (("gap", gap.estimate), ("low", gap.low), ("high", gap.high))
    }


def _matrix_places(ladder: Ladder) -> int | None:
    return _places(ladder.head_to_head[i][j] for i in ladder.bots for j in ladder.bots if i != j)


def text(ladder: Ladder, lang: str | None = None) -> str:
    """The ladder for a terminal, in `lang` (bot names as they are typed)."""
    from balancer import i18n
    from balancer.escape import terminal
    from balancer.i18n.phrases import phrase

    t = i18n.text
    bot_word = t("ladder.bot", lang)
    width = max(len(terminal(b)) for b in ladder.bots)
    share_head = t("ladder.win_share", lang)
    lines = [
        t(
            "ladder.title",
            lang,
            game=ladder.game,
            players=ladder.players,
            lineups=ladder.lineups,
            deals=ladder.deals,
            games=ladder.games,
            seed=ladder.seed,
        ),
        "",
        f"{i18n.ljust(bot_word, width)}  {i18n.ljust(share_head, 26)} "
        + t("ladder.seat_games", lang),
    ]
    places = _places(ladder.shares.values())
    for b in ladder.bots:
        lines.append(
            f"{terminal(b):<{width}}  {_cell(ladder.shares[b], places):<26} {ladder.seat_games[b]}"
        )
    lines += ["", t("ladder.h2h", lang)]
    matrix_places = _matrix_places(ladder)
    cells = {
        (i, j): ("—" if i == j else _cell(ladder.head_to_head[i][j], matrix_places))
        for i in ladder.bots
        for j in ladder.bots
    }
    col = max(len(c) for c in cells.values()) + 2
    col = max(col, *(len(terminal(b)) + 2 for b in ladder.bots))
    lines.append(
        (" " * (width + 2) + "".join(f"{terminal(j):<{col}}" for j in ladder.bots)).rstrip()
    )
    for i in ladder.bots:
        row = "".join(f"{cells[(i, j)]:<{col}}" for j in ladder.bots)
        lines.append(f"{terminal(i):<{width}}  {row}".rstrip())
    lines.append("")
    if ladder.skill_gap is not None:
        lines.append(
            t(
                "ladder.gap",
                lang,
                best=terminal(ladder.best),
                **_gap_fields(ladder.skill_gap),
            )
        )
    lines += [phrase(note, lang) for note in ladder.notes]
    return "\n".join(lines)


def csv_rows(ladder: Ladder) -> list[dict[str, Any]]:
    from balancer.escape import csv_cell

    rows = []
    for i in ladder.bots:
        share = ladder.shares[i]
        row: dict[str, Any] = {
            "kind": "bot",
            "bot": csv_cell(i),
            "win_share": share.estimate,
            **dict(zip(ends("win_share"), (share.low, share.high), strict=True)),
            "seat_games": ladder.seat_games[i],
        }
        for j in ladder.bots:
            cell = ladder.head_to_head[i].get(j)
            column = f"vs_{csv_cell(j)}"
            row[column] = None if cell is None else cell.estimate
            low, high = ends(column)  # spelled as in every file (numbers.py)
            row[low] = None if cell is None else cell.low
            row[high] = None if cell is None else cell.high
        rows.append(row)
    if ladder.skill_gap is not None:
        gap = ladder.skill_gap
        rows.append(
            {
                "kind": "skill_gap",
                "bot": csv_cell(f"{ladder.best} - {RANDOM}"),
                "win_share": gap.estimate,
                **dict(zip(ends("win_share"), (gap.low, gap.high), strict=True)),
                "seat_games": None,
            }
        )
    return rows


def write_csv(ladder: Ladder, path: Any) -> None:
    import csv

    rows = csv_rows(ladder)
    names = list(rows[0])
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=names, restval="")
        writer.writeheader()
        writer.writerows(rows)


def html_page(ladder: Ladder, lang: str | None = None) -> str:
    """A self-contained page in report.html's style: the ladder with interval bars, the
    matrix, the skill gap."""
    from html import escape

    from balancer import i18n
    from balancer.i18n.phrases import phrase
    from balancer.report import svg
    from balancer.report.html_format import ACCENT
    from balancer.report.page import render_page, section, table_wrap

    t = i18n.text

    def bar(share: Share) -> str:
        # The interval on a 0..100% axis, the same axis on every row so rows compare.
        chart = svg.Chart(18, width=300)
        x = svg.Scale(0, 1, 4, 296)
        chart.line(x(0), 9, x(1), 9, svg.GRID, 1)
        chart.line(x(share.low), 9, x(share.high), 9, ACCENT, 4, cls="ci")
        chart.circle(x(share.estimate), 9, 4, svg.INK, cls="point")
        return chart.render()

    places = _places(ladder.shares.values())
    matrix_places = _matrix_places(ladder)
    rows = [
        [
            f"<code>{escape(b)}</code>",
            f'<td class="num">{escape(_cell(ladder.shares[b], places))}</td>',
            bar(ladder.shares[b]),
            f'<td class="num">{ladder.seat_games[b]}</td>',
        ]
        for b in ladder.bots
    ]
    head = [
        escape(t("ladder.bot", lang)),
        f'<th class="num">{escape(t("ladder.html.share", lang))}</th>',
        "0% – 100%",
        f'<th class="num">{escape(t("ladder.seat_games", lang))}</th>',
    ]
    matrix = [
        [
            f"<th><code>{escape(i)}</code></th>",
            *(
                '<td class="num">—</td>'
                if i == j
                else '<td class="num">'
                + escape(_cell(ladder.head_to_head[i][j], matrix_places))
                + "</td>"
                for j in ladder.bots
            ),
        ]
        for i in ladder.bots
    ]
    sections = [
        section(t("ladder.html.ranking", lang), table_wrap(head, rows, "ladder")),
        section(
            t("ladder.html.h2h", lang),
            f'<p class="note">{escape(t("ladder.html.h2h_note", lang), quote=False)}</p>'
            + table_wrap(["", *(f"<code>{escape(j)}</code>" for j in ladder.bots)], matrix),
        ),
    ]
    if ladder.skill_gap is not None:
        g = ladder.skill_gap
        gap = t(
            "ladder.html.gap",
            lang,
            best=escape(ladder.best),
            **_gap_fields(g),
        )
        sections.append(f"<section>{gap}</section>")
    if ladder.notes:
        notes = "".join(f'<p class="note">{escape(phrase(n, lang))}</p>' for n in ladder.notes)
        sections.append(f"<section>{notes}</section>")
    title = t("ladder.html.title", lang, game=ladder.game, players=ladder.players)
    about = t(
        "ladder.html.about",
        lang,
        lineups=ladder.lineups,
        deals=ladder.deals,
        games=ladder.games,
        seed=ladder.seed,
    )
    return render_page(
        lang=lang,
        title=title,
        heading=title,
        sub=escape(about, quote=False),
        sections=sections,
        generator="balancer ladder",
        footer="balancer ladder",
    )
