"""Balance targets (`expect:` in a variant) and their tests: pass, fail or undecided.

A variant may say what its balance should be::

    expect:
      alpha: 0.05                                   # optional, for every target
      seat_win_share: {within: [0.17, 0.23]}        # every seat
      length.mean: {within: [10, 14], alpha: 0.01}
      events.neko_ni_koban.per_game: {at_least: 0.5}
      bots.heuristic.win_share: {above: bots.random.win_share}

Figures (all per-game means, so every one has an interval): `seat_win_share`
(every seat), `seat_win_share.S` (seat S), `seat_win_share.spread` (largest
minus smallest seat win share), `bots.LABEL.win_share`, `length.mean`,
`seat_score_mean.S`, `margin.mean`, `events.NAME.per_game`,
`events.NAME.share_of_games`, how the games played (`how_it_plays.comeback.share`,
`how_it_plays.lead_changes.mean`, ...): the names of `tune --target`, `sweep --figure`
and `diff` (analysis/figure_names.py). A leader-wins share is over the games
with a sole leader at its checkpoint, so it is never paired game by game with
another figure.
Bounds: `within: [lo, hi]`, `at_least` / `above` (same test), `at_most` /
`below`, each a number or (not for `within`) another figure.

Tests. With [L, H] the figure's two-sided 1 − 2α interval (so each side
errs with probability α):

- at least c: pass when L ≥ c, fail when H < c, else undecided;
- at most c: pass when H ≤ c, fail when L > c;
- within [a, b]: pass when [L, H] lies inside [a, b]: the two one-sided
  tests of TOST at α, i.e. an equivalence test; fail when the interval lies
  wholly outside one end.

So a target that truly fails passes with probability at most α, and one that
truly holds fails with probability at most α. Against another figure the
test is on the per-game difference (paired: the same games). A figure of k
members (`seat_win_share`: every seat; `spread`: every pair of seats, as
|difference|) passes when every member passes at α (an intersection-union
test needs no correction) and fails when any member fails at α / k
(Bonferroni). α is per target: with many targets, the chance that some
true target fails somewhere grows with their number.

Intervals: shares in [0, 1] (win shares, share of games) take the
design-effect Wilson interval of stats/intervals.py, means and differences
Student t. With `--until-decided` the intervals are anytime-valid confidence
sequences (stats/sequential.py: betting CS for bounded per-game values,
asymptotic CS otherwise), checked after every chunk, so stopping as soon as
every target is decided keeps the error rates above.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from balancer.config.variant import Variant
from balancer.errors import UserError
from balancer.numbers import decimals, plain, with_interval
from balancer.yamlsafe import format_keypath, load_yaml

# Only what reads the targets is imported with the module: `balancer validate` checks
# them, and its start-up would otherwise pay for numba, polars and scipy.stats (3 s of
# CPU); what tests them imports the rest when it is called.
if TYPE_CHECKING:
    import numpy as np

    from balancer.analysis.plays import Games
    from balancer.stats.sequential import AsymptoticCS, BettingCS

PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"
DEFAULT_ALPHA = 0.05
LOWER = ("at_least", "above")
UPPER = ("at_most", "below")
BOUNDS = ("within", *LOWER, *UPPER)


# --- figures -------------------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    """One per-game series whose mean is (part of) a figure.

    `per_game(games)` gives one value per game; `bounds` the range every value
    lies in (None: unbounded); `share` says the values are shares in [0, 1]
    (a Wilson interval rather than t); `absolute` that the figure is |mean|.
    """

    label: str
    per_game: Callable[[Games], np.ndarray]
    bounds: tuple[float, float] | None
    share: bool = False
    absolute: bool = False
    # Its values come from some games only (a leader-wins share: those with a sole
    # leader at the checkpoint), so it can't be paired game by game with another series.
    some_games: bool = False
    # A `plays:` figure, measured once on the variant's own sample, not from these games:
    # (games, level) -> its estimate and two-sided `level` interval (analysis/plays_measure.py).
    interval_at: Callable[[Games, float], tuple[float, float, float]] | None = None


@dataclass(frozen=True)
class FigureDef:
    name: str
    members: tuple[Member, ...]
    spread: bool = False  # the figure is the largest |member|: only bounded above

    def value(self, games: Games) -> float:
        """The figure's point estimate on these games (a family: its largest member)."""
        import numpy as np

        means = [float(np.mean(m.per_game(games))) for m in self.members]
        if self.spread:
            return max(abs(v) for v in means)
        if len(means) != 1:
            raise ValueError(f"{self.name} is one figure per seat, not one number")
        return means[0]


def _seat(s: int) -> Callable[[Games], np.ndarray]:
    return lambda g: g.wins[:, s]


def _score(s: int) -> Callable[[Games], np.ndarray]:
    return lambda g: g.scores[:, s]


def _seat_diff(i: int, j: int) -> Callable[[Games], np.ndarray]:
    return lambda g: g.wins[:, i] - g.wins[:, j]


def _bot(label: str) -> Callable[[Games], np.ndarray]:
    def per_game(g: Games) -> np.ndarray:
        held = g.labels == label
        # The bot holds the same number of seats in every game (the slots only move).
        return (g.wins * held).sum(axis=1) / held.sum(axis=1)

    return per_game


def _event(name: str, share: bool) -> Callable[[Games], np.ndarray]:
    if share:
        return lambda g: (g.events[name] > 0).astype(float)
    return lambda g: g.events[name]


def _played(key: str) -> Callable[[Games], np.ndarray]:
    """How the games played (games/progress.py's figure `key`), leaving out the games
    where it is undefined (a leader-wins figure where no seat led alone)."""
    from balancer.games.progress import NAMES

    column = NAMES.index(key)

    def per_game(g: Games) -> np.ndarray:
        import numpy as np

        if g.figures is None:
            raise UserError(
                f"{key}: these games kept no record of their steps (a plugin seat played on "
                "the stepped kernel); --check plays them on the engine, which keeps it"
            )
        values = g.figures[:, column]
        return values[~np.isnan(values)]

    return per_game


def _decision_share(g: Games) -> np.ndarray:
    """Each game's share of turns that offered a choice (games/progress.py's decision_shares)."""
    from balancer.games.progress import decision_shares

    if g.decisions is None:
        raise UserError("decision_share: these games' turns were not counted")
    return decision_shares(g.decisions)


def _sampled(name: str, key: str) -> Member:
    """A `plays:` figure (stats/play_names.py's OPT_IN `key`): no per-game values, an
    interval from the variant's sample, measured the first time a target asks for it."""

    def per_game(g: Games) -> np.ndarray:
        raise UserError(f"{name} is measured on the variant's plays: sample, not game by game")

    def interval_at(g: Games, level: float) -> tuple[float, float, float]:
        from balancer.analysis.plays_measure import intervals

        found = intervals(g.plays_sample(), level).get(key)
        if found is None:
            raise UserError(f"{name}: every outcome of duplicate play was the same: no split")
        return found.estimate, found.low, found.high

    # What search buys is a difference of win shares, in [-1, 1]; the rest are shares.
    share = not key.startswith("search_over")
    bounds = (0.0, 1.0) if share else (-1.0, 1.0)
    return Member(name, per_game, bounds, share, some_games=True, interval_at=interval_at)


def _margin(scores: np.ndarray, higher_is_better: bool) -> np.ndarray:
    from balancer.stats.describe import winning_margin

    return winning_margin(scores, higher_is_better)


def figure_names(variant: Variant) -> list[str]:
    """Every figure a target may name for this variant."""
    spec = variant.spec
    names = ["seat_win_share", "seat_win_share.spread"]
    names += [f"seat_win_share.{s}" for s in range(variant.players)]
    names += [f"bots.{label}.win_share" for label in dict.fromkeys(s.label for s in variant.seats)]
    names += [f"seat_score_mean.{s}" for s in range(variant.players)]
    names += ["length.mean", "margin.mean"]
    for e in spec.events:
        names.append(f"events.{e}.per_game")
        if e not in spec.value_events:
            names.append(f"events.{e}.share_of_games")
    from balancer.analysis.figure_names import ALL, plays_names

    return names + list(ALL) + plays_names(variant)


def resolve(name: str, variant: Variant) -> FigureDef:
    """The figure `name` names for this variant; ValueError (with the valid names) if none."""
    players = variant.players
    spec = variant.spec
    hib = spec.higher_is_better
    if name == "seat_win_share":
        return FigureDef(
            name,
            tuple(Member(f"seat {s}", _seat(s), (0.0, 1.0), share=True) for s in range(players)),
        )
    if name == "seat_win_share.spread":
        pairs = [(i, j) for i in range(players) for j in range(i + 1, players)]
        if not pairs:
            raise ValueError("seat_win_share.spread needs two seats or more")
        return FigureDef(
            name,
            tuple(
                Member(f"seat {i} − seat {j}", _seat_diff(i, j), (-1.0, 1.0), absolute=True)
                for i, j in pairs
            ),
            spread=True,
        )
    parts = name.split(".")
    if parts[0] == "seat_win_share" and len(parts) == 2 and parts[1].isdigit():
        s = int(parts[1])
        if s < players:
            return FigureDef(name, (Member(f"seat {s}", _seat(s), (0.0, 1.0), share=True),))
    if parts[0] == "seat_score_mean" and len(parts) == 2 and parts[1].isdigit():
        s = int(parts[1])
        if s < players:
            return FigureDef(name, (Member(f"seat {s}", _score(s), None),))
    if name == "length.mean":
        return FigureDef(name, (Member(name, lambda g: g.lengths, None),))
    if name == "margin.mean":
        return FigureDef(name, (Member(name, lambda g: _margin(g.scores, hib), None),))
    if len(parts) >= 3 and parts[0] == "bots" and parts[-1] == "win_share":
        label = ".".join(parts[1:-1])
        if label in {s.label for s in variant.seats}:
            return FigureDef(name, (Member(label, _bot(label), (0.0, 1.0), share=True),))
    if len(parts) == 3 and parts[0] == "events" and parts[1] in spec.events:
        event = parts[1]
        if parts[2] == "per_game":
            return FigureDef(name, (Member(name, _event(event, False), None),))
        if parts[2] == "share_of_games" and event not in spec.value_events:
            return FigureDef(name, (Member(name, _event(event, True), (0.0, 1.0), share=True),))
    from balancer.analysis.figure_names import DECISION_SHARE, HOW_IT_PLAYS, NOT_MEANS, nearest

    if name in HOW_IT_PLAYS:
        key = HOW_IT_PLAYS[name]
        share = name.endswith(".share")
        # Lead changes are a count per game; decided-at, drama and the shares lie in [0, 1].
        bounds = None if key == "lead_changes" else (0.0, 1.0)
        leader = key.startswith("leader_wins")
        return FigureDef(name, (Member(name, _played(key), bounds, share, some_games=leader),))
    if name == DECISION_SHARE:
        return FigureDef(name, (Member(name, _decision_share, (0.0, 1.0), share=True),))
    from balancer.analysis.figure_names import needs_plays
    from balancer.stats.play_names import OPT_IN

    if name in OPT_IN:
        why = needs_plays(name, variant)
        if why is not None:
            raise ValueError(why)
        return FigureDef(name, (_sampled(name, OPT_IN[name]),))
    if name in NOT_MEANS:
        raise ValueError(
            f"{name} is no mean of per-game values, so it has no interval to test: "
            "sweep can chart it, a target can't hold it"
        )
    valid = figure_names(variant)
    close = nearest(name, valid)
    hint = f"did you mean {close!r}?" if close else "figures: " + ", ".join(valid)
    raise ValueError(f"unknown figure {name!r} for {variant.game} ({hint})")


def unpaired(figure: FigureDef) -> str:
    """Why `figure` (a Member.some_games one) can't be compared game by game."""
    if figure.members[0].interval_at is not None:
        return (
            f"{figure.name} is measured once on the variant's plays: sample, not game by "
            "game, so it can't be compared with another figure or setting; give it a number"
        )
    return (
        f"{figure.name} is over the games with a sole leader at its checkpoint, not every "
        "game, so it can't be compared game by game with another figure or setting; "
        "give it a number"
    )


# --- targets -------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """`figure` against a bound: within [lo, hi], at least `ref`, or at most `ref`."""

    figure: FigureDef
    kind: str  # "within", "at_least" or "at_most"
    low: float | None = None
    high: float | None = None
    other: FigureDef | None = None  # at_least / at_most another figure: test the difference
    alpha: float = DEFAULT_ALPHA
    text: str = ""  # as written, for the output

    def members(self) -> tuple[Member, ...]:
        """The series tested: the figure's, or (against another figure) the paired difference."""
        if self.other is None:
            return self.figure.members
        mine, theirs = self.figure.members[0], self.other.members[0]
        bounded = mine.bounds is not None and theirs.bounds is not None
        return (
            Member(
                f"{self.figure.name} − {self.other.name}",
                lambda g: mine.per_game(g) - theirs.per_game(g),
                (-1.0, 1.0) if bounded else None,
            ),
        )

    def limits(self) -> tuple[float, float]:
        """The bounds the members are held to: (lower or -inf, upper or inf)."""
        if self.other is not None:
            return (0.0, math.inf) if self.kind == "at_least" else (-math.inf, 0.0)
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        return low, high


def _where(
    loaded_path: str, lines: Mapping[tuple[Any, ...], int], path: tuple[Any, ...]
) -> tuple[str, int | None]:
    for end in range(len(path), -1, -1):
        line = lines.get(path[:end])
        if line is not None:
            return loaded_path, line
    return loaded_path, None


def _blocks(path: Path) -> list[tuple[str, dict[tuple[Any, ...], int], Any]]:
    """The `expect` block of each file of the extends chain, the root ancestor first."""
    chain: list[tuple[str, dict[tuple[Any, ...], int], Any]] = []
    seen: set[Path] = set()
    current: Path | None = path
    while current is not None and current.resolve() not in seen and len(seen) < 64:
        seen.add(current.resolve())
        loaded = load_yaml(current)
        data = loaded.data if isinstance(loaded.data, dict) else {}
        chain.append((str(current), loaded.lines, data.get("expect")))
        parent = data.get("extends")
        current = (current.parent / parent) if isinstance(parent, str) and parent else None
    return chain[::-1]


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _alpha(value: Any, error: Callable[[tuple[Any, ...], str], UserError], at: tuple) -> float:
    alpha = _number(value)
    if alpha is None or not 0 < alpha < 0.5:
        raise error(at, f"alpha must be a number between 0 and 0.5, got {value!r}")
    return alpha


def load_targets(variant: Variant, default_alpha: float | None = None) -> list[Target]:
    """The variant file's targets, checked against the variant; raises UserError on the first
    mistake, naming the file, line and key. A child's target replaces its parent's of the
    same figure."""
    targets, problems = _read_targets(variant, default_alpha)
    if problems:
        raise problems[0]
    if not targets:
        raise UserError(
            "has no expect: targets (add e.g. expect: {length.mean: {within: [10, 14]}})",
            file=variant.path,
        )
    return targets


def target_problems(variant: Variant) -> list[UserError]:
    """Every mistake in the variant's expect: targets (none when it has no targets)."""
    return _read_targets(variant, None)[1]


def _read_targets(
    variant: Variant, default_alpha: float | None
) -> tuple[list[Target], list[UserError]]:
    written: dict[str, tuple[str, dict, Any]] = {}
    alpha_entry: tuple[str, dict, Any] | None = None
    for file, lines, block in _blocks(Path(variant.path)):
        if block is None:
            continue
        if not isinstance(block, dict):
            where = _where(file, lines, ("expect",))
            message = "expected a mapping of figure: {bound: value}"
            return [], [UserError(message, file=where[0], line=where[1], key="expect")]
        for key, value in block.items():
            if key == "alpha":
                alpha_entry = (file, lines, value)
            else:
                written[key] = (file, lines, value)

    def erring(file: str, lines: dict) -> Callable[[tuple[Any, ...], str], UserError]:
        def error(path: tuple[Any, ...], message: str) -> UserError:
            where = _where(file, lines, ("expect", *path))
            return UserError(
                message, file=where[0], line=where[1], key=format_keypath(("expect", *path))
            )

        return error

    problems: list[UserError] = []
    alpha = DEFAULT_ALPHA if default_alpha is None else default_alpha
    if alpha_entry is not None and default_alpha is None:
        try:
            alpha = _alpha(alpha_entry[2], erring(alpha_entry[0], alpha_entry[1]), ("alpha",))
        except UserError as exc:
            problems.append(exc)
    targets = []
    for key, (file, lines, value) in written.items():
        try:
            targets.append(_target(key, value, variant, alpha, erring(file, lines)))
        except UserError as exc:
            problems.append(exc)
    return targets, problems


def _target(
    key: Any,
    value: Any,
    variant: Variant,
    alpha: float,
    error: Callable[[tuple[Any, ...], str], UserError],
) -> Target:
    if not isinstance(key, str):
        raise error((key,), f"a target is a figure name, got {key!r}")
    try:
        figure = resolve(key, variant)
    except ValueError as exc:
        raise error((key,), str(exc)) from None
    if not isinstance(value, dict):
        raise error((key,), f"expected {{bound: value}} with a bound of {', '.join(BOUNDS)}")
    unknown = [k for k in value if k not in (*BOUNDS, "alpha")]
    if unknown:
        raise error(
            (key, unknown[0]), f"unknown bound {unknown[0]!r} (bounds: {', '.join(BOUNDS)})"
        )
    given = [k for k in value if k in BOUNDS]
    if len(given) != 1:
        raise error((key,), f"give exactly one bound of {', '.join(BOUNDS)}, got {len(given)}")
    bound = given[0]
    raw = value[bound]
    if "alpha" in value:
        alpha = _alpha(value["alpha"], error, (key, "alpha"))
    at = (key, bound)
    if bound == "within":
        pair = [_number(v) for v in raw] if isinstance(raw, list) and len(raw) == 2 else None
        if pair is None or None in pair:
            raise error(at, f"expected [low, high], two numbers, got {raw!r}")
        low, high = pair
        assert low is not None and high is not None
        if not low < high:
            raise error(at, f"expected low < high, got [{low:g}, {high:g}]")
        text = f"within [{low:g}, {high:g}]"
        return Target(figure, "within", low, high, alpha=alpha, text=text)
    kind = "at_least" if bound in LOWER else "at_most"
    if figure.spread and kind == "at_least":
        raise error(at, "seat_win_share.spread takes at_most or below (a spread is kept small)")
    number = _number(raw)
    if number is not None:
        text = f"{bound} {number:g}"
        if kind == "at_least":
            return Target(figure, kind, low=number, alpha=alpha, text=text)
        return Target(figure, kind, high=number, alpha=alpha, text=text)
    if not isinstance(raw, str):
        raise error(at, f"expected a number or a figure name, got {raw!r}")
    try:
        other = resolve(raw, variant)
    except ValueError as exc:
        raise error(at, str(exc)) from None
    if len(figure.members) != 1 or len(other.members) != 1 or figure.spread or other.spread:
        raise error(at, "a figure is compared with another only when each is one number")
    if figure.members[0].some_games or other.members[0].some_games:
        raise error(at, unpaired(figure if figure.members[0].some_games else other))
    return Target(figure, kind, other=other, alpha=alpha, text=f"{bound} {raw}")


# --- verdicts ------------------------------------------------------------------------


def member_verdict(low: float, high: float, limits: tuple[float, float]) -> str:
    """pass / fail / undecided for an interval [low, high] against (lower, upper) limits."""
    lower, upper = limits
    if high < lower or low > upper:
        return FAIL
    if low >= lower and high <= upper:
        return PASS
    return UNDECIDED


def _absolute(low: float, high: float) -> tuple[float, float]:
    """The interval for |x| from one for x."""
    if low >= 0:
        return low, high
    if high <= 0:
        return -high, -low
    return 0.0, max(-low, high)


@dataclass
class Outcome:
    target: Target
    verdict: str
    estimate: float
    low: float  # the decisive member's interval (pass level)
    high: float
    games: int
    members: list[tuple[str, float, float, float, str]] = field(default_factory=list)
    decisive: str = ""  # the member whose interval is shown (a family's least clear one)

    def line(self, lang: str | None = None) -> str:
        """`pass      length.mean within [4, 6]: 5 [5, 5], 200 games`; the words in `lang`,
        the verdict first, padded to 9 columns (cli/check.py colours it there)."""
        from balancer import i18n
        from balancer.escape import terminal

        t = self.target
        name = terminal(t.figure.name)
        # As every table writes an estimate (numbers.py): at the precision its interval backs;
        # an interval of no width (every game 20 tricks) still shown, as `20 [20, 20]`.
        detail = with_interval(self.estimate, self.low, self.high)
        if decimals(self.low, self.high) is None:
            detail += f" [{plain(self.low)}, {plain(self.high)}]"
        if t.other is not None:
            detail = i18n.text("check.difference", lang) + detail
        if len(self.members) > 1:
            detail += f" ({terminal(self.decisive)})"
        verdict = i18n.ljust(verdict_word(self.verdict, lang), 9)
        games = i18n.text("check.games", lang, n=self.games)
        return f"{verdict} {name} {terminal(t.text)}: {detail}, {games}"

    def to_json(self) -> dict[str, Any]:
        return {
            "figure": self.target.figure.name,
            "bound": self.target.text,
            "alpha": self.target.alpha,
            "verdict": self.verdict,
            "estimate": self.estimate,
            "interval": [self.low, self.high],
            "games": self.games,
            "decisive_member": self.decisive,
            "members": [
                {"member": m[0], "estimate": m[1], "interval": [m[2], m[3]], "verdict": m[4]}
                for m in self.members
            ],
        }


def verdict_word(verdict: str, lang: str | None = None) -> str:
    """pass, fail or undecided in `lang` (report.json and --format json keep the English)."""
    from balancer import i18n

    return i18n.text(f"check.verdict.{verdict}", lang)


def combine(pass_verdicts: list[str], fail_verdicts: list[str]) -> str:
    """A family: fail when any member fails at α / k, pass when every member passes at α."""
    if FAIL in fail_verdicts:
        return FAIL
    if all(v == PASS for v in pass_verdicts):
        return PASS
    return UNDECIDED


def fixed_interval(member: Member, values: np.ndarray, alpha: float) -> tuple[float, float]:
    """The two-sided 1 − 2α interval of the member's mean from n games."""
    from balancer.stats import intervals

    level = 1 - 2 * alpha
    if member.share:
        found = intervals.share_interval(values, level=level)
    else:
        found = intervals.mean_interval(values, level=level)
    low, high = found.low, found.high
    return _absolute(low, high) if member.absolute else (low, high)


def _assemble(
    target: Target,
    games: int,
    rows: list[tuple[str, float, tuple[float, float], tuple[float, float]]],
) -> Outcome:
    """rows: per member (label, estimate, pass-level interval, fail-level interval)."""
    limits = target.limits()
    pass_v = [member_verdict(*p, limits) for _, _, p, _ in rows]
    fail_v = [member_verdict(*f, limits) for _, _, _, f in rows]
    verdict = combine(pass_v, fail_v)
    members = [
        (label, est, p[0], p[1], FAIL if fv == FAIL else PASS if pv == PASS else UNDECIDED)
        for (label, est, p, _), pv, fv in zip(rows, pass_v, fail_v, strict=True)
    ]
    # Show the member that decided: the failing one, else the least clear one.
    if verdict == FAIL:
        shown = next(i for i, v in enumerate(fail_v) if v == FAIL)
    else:
        lower, upper = limits
        shown = min(
            range(len(rows)),
            key=lambda i: min(rows[i][2][0] - lower, upper - rows[i][2][1]),
        )
    label, est, (low, high), _ = rows[shown]
    if target.figure.spread:
        est = max(r[1] for r in rows)
    return Outcome(target, verdict, est, low, high, games, members, decisive=label)


def evaluate(target: Target, games: Games) -> Outcome:
    """The target tested on n games with fixed-n intervals."""
    import numpy as np

    series = target.members()
    k = len(series)
    rows = []
    for member in series:
        if member.interval_at is not None:  # a `plays:` figure: one of its own, k = 1
            estimate, *ends = member.interval_at(games, 1 - 2 * target.alpha)
            rows.append((member.label, estimate, (ends[0], ends[1]), (ends[0], ends[1])))
            continue
        values = member.per_game(games)
        estimate = float(np.mean(values))
        if member.absolute:
            estimate = abs(estimate)
        p = fixed_interval(member, values, target.alpha)
        f = p if k == 1 else fixed_interval(member, values, target.alpha / k)
        rows.append((member.label, estimate, p, f))
    return _assemble(target, games.n, rows)


class Sequential:
    """Anytime-valid confidence sequences for every member of every target, fed chunk by chunk.

    Each member keeps a CS at 2α (two-sided: α each side) and, in a family of
    k, one at 2α / k for the fail decision. Bounded members take the betting
    CS, unbounded ones the asymptotic CS.
    """

    def __init__(self, targets: list[Target], grid: int = 1001) -> None:
        self.targets = targets
        self.grid = grid  # candidate means of each betting CS (its resolution)
        self.series = [t.members() for t in targets]
        for target, series in zip(targets, self.series, strict=True):
            if any(member.interval_at is not None for member in series):
                raise UserError(
                    f"{target.figure.name} is measured once on the variant's plays: sample, "
                    "so no number of games decides it: check it without --until-decided"
                )
        self.cs: list[list[tuple[Any, Any]]] = []
        for target, series in zip(targets, self.series, strict=True):
            k = len(series)
            row = []
            for member in series:
                at_pass = self._new(member, 2 * target.alpha)
                at_fail = at_pass if k == 1 else self._new(member, 2 * target.alpha / k)
                row.append((at_pass, at_fail))
            self.cs.append(row)
        self.n = 0
        self._sums: list[list[float]] = [[0.0] * len(s) for s in self.series]

    def _new(self, member: Member, alpha: float) -> BettingCS | AsymptoticCS:
        from balancer.stats.sequential import AsymptoticCS, BettingCS

        if member.bounds is None:
            return AsymptoticCS(alpha=alpha)
        return BettingCS(alpha=alpha, lo=member.bounds[0], hi=member.bounds[1], grid=self.grid)

    def update(self, games: Games) -> None:
        for t, series in enumerate(self.series):
            for m, member in enumerate(series):
                values = member.per_game(games)
                self._sums[t][m] += float(values.sum())
                at_pass, at_fail = self.cs[t][m]
                at_pass.extend(values)
                if at_fail is not at_pass:
                    at_fail.extend(values)
        self.n += games.n

    def outcomes(self) -> list[Outcome]:
        out = []
        for t, target in enumerate(self.targets):
            rows = []
            for m, member in enumerate(self.series[t]):
                at_pass, at_fail = self.cs[t][m]
                p, f = at_pass.interval(), at_fail.interval()
                estimate = self._sums[t][m] / self.n if self.n else math.nan
                if member.absolute:
                    p, f, estimate = _absolute(*p), _absolute(*f), abs(estimate)
                rows.append((member.label, estimate, p, f))
            out.append(_assemble(target, self.n, rows))
        return out

    def decided(self) -> bool:
        return all(o.verdict != UNDECIDED for o in self.outcomes())


EXIT_FAIL = 3
EXIT_UNDECIDED = 4


def exit_code(outcomes: list[Outcome]) -> int:
    """0 when every target passes, 3 when any fails, else 4 (some undecided)."""
    verdicts = {o.verdict for o in outcomes}
    if FAIL in verdicts:
        return EXIT_FAIL
    if UNDECIDED in verdicts:
        return EXIT_UNDECIDED
    return 0
