"""The entry points the report and the diff call: one run's figures, and A/B rows.

`RunData` holds a run's per-game arrays (read from the games table through
table.py only). `figures_for_run` gives every interval of one run;
`diff_rows` every row of a diff. Both return plain dataclasses with a
`to_json()` / `record()` that is already JSON-safe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer.stats import compare, intervals
from balancer.stats.play_names import DECISION_SHARE, HOW_IT_PLAYS
from balancer.stats.seat_advantage import SeatAdvantage, seat_advantage


@dataclass(frozen=True)
class RunData:
    """One run's per-game arrays. Games are rows; seats columns.

    scores, wins: games × seats floats (wins: 1, 1/k in a k-way tie, 0);
    bot_labels: games × seats labels; lengths: per game; events: name → per
    game values; value_events: the events that are a value per game (no
    "share of games"); rotate: the variant's seat_rotation; figures: how each
    game played (games × games/progress.py's FIGURES, NaN where undefined), or
    None when the games kept no record of their steps (or the table is older);
    decisions: each game's (turns, choices) (games × DECISION_WORDS), or None
    where they were not counted (an older table).
    """

    scores: np.ndarray
    wins: np.ndarray
    bot_labels: np.ndarray
    lengths: np.ndarray
    events: Mapping[str, np.ndarray]
    value_events: tuple[str, ...] = ()
    higher_is_better: bool = True
    rotate: bool = False
    figures: np.ndarray | None = None
    decisions: np.ndarray | None = None

    @property
    def games(self) -> int:
        return int(self.wins.shape[0])

    @property
    def players(self) -> int:
        return int(self.wins.shape[1])

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        players: int,
        events: Sequence[str],
        value_events: Sequence[str],
        higher_is_better: bool,
        rotate: bool,
    ) -> RunData:
        """From a games table (polars frame), naming columns only through table.py."""
        from balancer import table

        def column(name: str) -> np.ndarray:
            return frame[name].cast(float).to_numpy().astype(float)

        return cls(
            scores=np.column_stack([column(table.score(s)) for s in range(players)]),
            wins=np.column_stack([column(table.win(s)) for s in range(players)]),
            bot_labels=np.column_stack(
                [frame[table.bot(s)].cast(str).to_numpy().astype(str) for s in range(players)]
            ),
            lengths=column(table.LENGTH),
            events={name: column(table.event(name)) for name in events},
            value_events=tuple(value_events),
            higher_is_better=higher_is_better,
            rotate=rotate,
            figures=table.how_it_plays_matrix(frame) if table.has_how_it_plays(frame) else None,
            decisions=table.decisions_matrix(frame) if table.has_decisions(frame) else None,
        )

    def margins(self) -> np.ndarray:
        from balancer.stats.describe import winning_margin

        return winning_margin(self.scores, self.higher_is_better)

    def labels(self) -> list[str]:
        return sorted(set(self.bot_labels.ravel().tolist()))


def _interval_json(iv: intervals.Interval) -> dict[str, Any]:
    return {"mean": iv.estimate, "ci95": iv.ci95, "se": iv.se, "n": iv.n}


@dataclass
class SeatFigures:
    seat: int
    bot: str  # the label, or "rotating"
    win: intervals.Interval
    score: intervals.Interval


@dataclass
class EventFigures:
    per_game: intervals.Interval
    share_of_games: intervals.Interval | None  # None for a value event


@dataclass
class RunFigures:
    """Every interval of one run. `to_json()` is the plan for report.json (see the report)."""

    seats: list[SeatFigures]
    bots: dict[str, intervals.Interval]
    bot_seat_games: dict[str, int]
    seat_advantage: SeatAdvantage
    margin: intervals.Interval | None
    length: intervals.Interval
    events: dict[str, EventFigures] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        adv = self.seat_advantage
        return {
            "seats": [
                {
                    "seat": s.seat,
                    "bot": s.bot,
                    "win_share": s.win.estimate,
                    "win_ci95": s.win.ci95,
                    "score_mean_ci95": s.score.ci95,
                }
                for s in self.seats
            ],
            "bots": {
                label: {
                    "win_share": iv.estimate,
                    "win_ci95": iv.ci95,
                    "seat_games": self.bot_seat_games[label],
                }
                for label, iv in self.bots.items()
            },
            "seat_advantage": {
                "test": adv.test,
                "statistic": adv.statistic,
                "f": adv.f,
                "df": list(adv.df) if adv.df else None,
                "p_value": adv.p_value,
                "note": adv.note,
            },
            "margin": _interval_json(self.margin) if self.margin else None,
            "length": _interval_json(self.length),
            "events": {
                name: {
                    "per_game": e.per_game.estimate,
                    "per_game_ci95": e.per_game.ci95,
                    **(
                        {
                            "share_of_games": e.share_of_games.estimate,
                            "share_of_games_ci95": e.share_of_games.ci95,
                        }
                        if e.share_of_games
                        else {}
                    ),
                }
                for name, e in self.events.items()
            },
        }


def figures_for_run(data: RunData) -> RunFigures:
    """Every interval of one run (assumptions: see intervals.py and seat_advantage.py)."""
    seats = []
    for s, win in enumerate(intervals.seat_share_intervals(data.wins)):
        column = set(data.bot_labels[:, s].tolist())
        bot = column.pop() if len(column) == 1 else "rotating"
        seats.append(SeatFigures(s, bot, win, intervals.mean_interval(data.scores[:, s])))
    labels = data.labels()
    bots: dict[str, intervals.Interval] = {}
    seat_games: dict[str, int] = {}
    if len(labels) > 1:
        bots = intervals.bot_share_intervals(data.wins, data.bot_labels)
        seat_games = {label: int((data.bot_labels == label).sum()) for label in labels}
    events = {}
    for name, values in data.events.items():
        fired = None
        if name not in data.value_events:
            fired = intervals.share_interval((np.asarray(values) > 0).astype(float))
        events[name] = EventFigures(intervals.mean_interval(values), fired)
    return RunFigures(
        seats=seats,
        bots=bots,
        bot_seat_games=seat_games,
        seat_advantage=seat_advantage(data.wins, data.bot_labels, data.rotate),
        margin=intervals.mean_interval(data.margins()) if data.players > 1 else None,
        length=intervals.mean_interval(data.lengths),
        events=events,
    )


# --- diff ---------------------------------------------------------------------------


def bot_name(label: str) -> str:
    """A bot label without its parameters: 'cautious(rank=1)' -> 'cautious'."""
    return label.split("(", 1)[0]


def match_bots(
    labels_a: Sequence[str], labels_b: Sequence[str]
) -> tuple[list[tuple[str, str, str]], list[str], list[str]]:
    """Pair bot labels of A and B by bot name, whatever their parameters.

    Returns (name shown, label in A, label in B) pairs and the labels left
    alone in A and in B. A name held by one label in each run matches even
    when the parameters differ; a name held by several labels in a run (the
    same bot twice with different parameters) matches label for label.
    """
    by_a: dict[str, list[str]] = {}
    by_b: dict[str, list[str]] = {}
    for label in labels_a:
        by_a.setdefault(bot_name(label), []).append(label)
    for label in labels_b:
        by_b.setdefault(bot_name(label), []).append(label)
    pairs: list[tuple[str, str, str]] = []
    lone_a: list[str] = []
    lone_b: list[str] = []
    for name in sorted(set(by_a) | set(by_b)):
        in_a, in_b = sorted(by_a.get(name, [])), sorted(by_b.get(name, []))
        if len(in_a) == 1 and len(in_b) == 1:
            pairs.append((name, in_a[0], in_b[0]))
            continue
        for label in in_a:
            if label in in_b:
                pairs.append((label, label, label))
            else:
                lone_a.append(label)
        lone_b += [label for label in in_b if label not in in_a]
    return pairs, lone_a, lone_b


@dataclass
class DiffResult:
    """Rows in display order, warnings, and the contract's top-level `changed`."""

    rows: list[compare.Row]
    warnings: list[str]
    paired: bool
    alpha: float
    stopped_at: int | None = None  # games per run when an --until-decided run stopped

    @property
    def changed(self) -> bool:
        return any(row.verdict == "changed" for row in self.rows)

    @property
    def family_size(self) -> int:
        return sum(row.in_family for row in self.rows)

    def to_json(self) -> dict[str, Any]:
        """The diff JSON contract's computed part: changed, stopped_at, rows (+ extras)."""
        return {
            "changed": self.changed,
            "stopped_at": self.stopped_at,
            "paired": self.paired,
            "alpha": self.alpha,
            "correction": "holm",
            "family_size": self.family_size,
            "games_needed": compare.games_needed_line(self.rows),
            "warnings": list(self.warnings),
            "rows": [row.record() for row in self.rows],
        }


FigurePairs = list[tuple[compare.Figure, compare.Figure]]


def figure_pairs(a: RunData, b: RunData) -> tuple[FigurePairs, list[str]]:
    """Every comparable figure of A and B, in display order, and warnings for the rest."""
    if a.players != b.players:
        raise ValueError("runs with different player counts can't be compared")
    pairs: list[tuple[compare.Figure, compare.Figure]] = []
    warnings: list[str] = []

    def add(name: str, kind: str, va: np.ndarray, vb: np.ndarray, **extra: Any) -> None:
        wa, wb = extra.get("weights_a"), extra.get("weights_b")
        note = extra.get("note", "")
        pairs.append(
            (
                compare.Figure(name, kind, np.asarray(va, float), wa, note),
                compare.Figure(name, kind, np.asarray(vb, float), wb),
            )
        )

    for s in range(a.players):
        add(f"seat_win_share.{s}", "win", a.wins[:, s], b.wins[:, s])
    labels_a, labels_b = a.labels(), b.labels()
    if len(labels_a) > 1 and len(labels_b) > 1:
        matched, lone_a, lone_b = match_bots(labels_a, labels_b)
        for name, la, lb in matched:
            ya, ma = intervals.bot_columns(a.wins, a.bot_labels, la)
            yb, mb = intervals.bot_columns(b.wins, b.bot_labels, lb)
            note = f"parameters: A {la}, B {lb}" if la != lb else ""
            add(f"bots.{name}.win_share", "win", ya, yb, weights_a=ma, weights_b=mb, note=note)
        for lone, only in ((lone_a, "A"), (lone_b, "B")):
            if lone:
                warnings.append(f"bots only in {only}, not compared: {', '.join(lone)}")
    for s in range(a.players):
        add(f"seat_score_mean.{s}", "score", a.scores[:, s], b.scores[:, s])
    if a.players > 1:
        if a.higher_is_better != b.higher_is_better:
            warnings.append("A and B disagree on whether high scores win; margins use each run's")
        add("margin.mean", "margin", a.margins(), b.margins())
    add("length.mean", "length", a.lengths, b.lengths)
    values = set(a.value_events) | set(b.value_events)
    for name in [n for n in a.events if n in b.events]:
        ea, eb = np.asarray(a.events[name], float), np.asarray(b.events[name], float)
        add(f"events.{name}.per_game", "event", ea, eb)
        if name not in values:
            add(f"events.{name}.share_of_games", "share", (ea > 0) * 1.0, (eb > 0) * 1.0)
    for mine, theirs, only in ((a.events, b.events, "A"), (b.events, a.events, "B")):
        lone = [n for n in mine if n not in theirs]
        if lone:
            warnings.append(f"events only in {only}, not compared: {', '.join(lone)}")
    if a.figures is not None and b.figures is not None:
        for name, kind, va, wa, vb, wb in how_it_plays_pairs(a.figures, b.figures):
            add(name, kind, va, vb, weights_a=wa, weights_b=wb)
    elif a.figures is not None or b.figures is not None:
        only = "A" if a.figures is not None else "B"
        warnings.append(f"how the games played is known only in {only}, not compared")
    if a.decisions is not None and b.decisions is not None:
        from balancer.games.progress import decision_shares

        # Each game's share of turns that were choices, a share per game as comeback is.
        add(DECISION_SHARE, "share", decision_shares(a.decisions), decision_shares(b.decisions))
    return pairs, warnings


def how_it_plays_pairs(
    a: np.ndarray, b: np.ndarray
) -> list[tuple[str, str, np.ndarray, np.ndarray | None, np.ndarray, np.ndarray | None]]:
    """The diff rows of how the games played: (name, kind, A's values, A's weights, B's, B's).

    Lead changes, decided-at and drama are means over games (kind `play`); comeback a
    share of the win per game (`share`); a leader-wins share a ratio, as a bot's win share
    is: the leader's win share summed over the games with a sole leader at the
    checkpoint, over those games (weight 1 where a game had one, 0 where it had none).
    A leader-wins row is left out when either run had no game with a leader there.
    """
    from balancer.games.progress import NAMES

    rows: list[tuple[str, str, np.ndarray, np.ndarray | None, np.ndarray, np.ndarray | None]] = []
    for name, key in HOW_IT_PLAYS.items():
        k = NAMES.index(key)
        va, vb = a[:, k], b[:, k]
        if not key.startswith("leader_wins"):
            rows.append((name, "share" if key == "comeback" else "play", va, None, vb, None))
            continue
        wa, wb = (~np.isnan(va)).astype(float), (~np.isnan(vb)).astype(float)
        if wa.any() and wb.any():
            rows.append((name, "share", np.nan_to_num(va), wa, np.nan_to_num(vb), wb))
    return rows


def diff_rows(
    a: RunData,
    b: RunData,
    paired: bool,
    tolerances: dict[str, str] | None = None,
    alpha: float = 0.05,
    estimates: Sequence[tuple[compare.Estimate, compare.Estimate]] = (),
) -> DiffResult:
    """Every row of `balancer diff`: tested, Holm-adjusted, with verdicts.

    `paired` only when both runs share seed and game count (game g of both
    began from the same deal). `tolerances`: kind → '0.01' or '0.1sd'
    (compare.parse_tolerances merges a --tolerance string over the defaults);
    None turns off equivalence and games-needed. `estimates`: figures known by their
    estimate and standard error alone (a variant's `plays:` figures), after the others,
    tested by z and in the same Holm family.
    """
    if paired and a.games != b.games:
        raise ValueError("paired runs need the same number of games")
    pairs, warnings = figure_pairs(a, b)
    every: list[tuple[compare.Figure, compare.Figure] | tuple[compare.Estimate, compare.Estimate]]
    every = [*pairs, *estimates]
    rows = compare.compare_figures(every, paired, tolerances, alpha)
    return DiffResult(rows, warnings, paired, alpha)


def anytime_diff_rows(
    a: RunData,
    b: RunData,
    tolerances: dict[str, str] | None = None,
    alpha: float = 0.05,
    n_star: int = 5000,
) -> DiffResult:
    """The rows of `diff --until-decided`: anytime-valid, so right at any stopping time.

    Game g of A is paired with game g of B (both runs the same length). The
    rows, their order, Holm's family (rows with variation, duplicates left
    out) and A, B and the change are those of `diff_rows`; the interval is
    each row's 95% confidence sequence, p its anytime-valid p-value (see
    stats.sequential.AnytimeDiff), adjusted by Holm over the family, and the
    verdict `changed` (adjusted p ≤ alpha), `equivalent` (the CS lies inside
    ±tolerance) or blank. The same numbers as the AnytimeDiff the run was
    stopped by, batch by batch: its results do not depend on the batches.
    """
    from balancer.stats.sequential import AnytimeDiff

    if a.games != b.games:
        raise ValueError("an anytime diff pairs game g of A with game g of B: same game counts")
    result = diff_rows(a, b, True, tolerances, alpha)
    pairs, _ = figure_pairs(a, b)
    watch = AnytimeDiff(alpha=alpha, tolerances=tolerances, n_star=n_star)
    watch.update(pairs)
    family = [row.figure for row in result.rows if row.in_family]
    adjusted = watch.adjusted(family)
    verdicts = watch.verdicts(family)
    for row in result.rows:
        seq = watch.rows[row.figure]
        row.ci95 = seq.interval()
        row.tolerance = watch.tolerance(seq)
        row.p_equivalence = None
        if row.in_family or row.duplicate_of is not None:
            row.test = "anytime betting CS" if seq.bounded else "anytime asymptotic CS"
            row.p_value = seq.p_value()
        original = row.duplicate_of or row.figure
        row.p_adjusted = adjusted.get(original, 1.0)
        row.verdict = verdicts[original]  # a duplicate shares its original's test
    return result
