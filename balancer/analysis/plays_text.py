"""`balancer plays`'s result: decisions, kingmaking and luck of one variant, as a table
for a terminal (English or Japanese) or as JSON."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from balancer.analysis.decisions import DecisionFigures
from balancer.analysis.luck import LuckFigures
from balancer.stats.intervals import Interval


@dataclass(frozen=True)
class Plays:
    """What `balancer plays` measured of one variant."""

    variant: str
    game: str
    players: int
    seed: int
    decisions: DecisionFigures
    luck: LuckFigures | None  # None: no duplicate play (--deals 0)


def _interval(iv: Interval) -> dict[str, Any]:
    return {"estimate": iv.estimate, "ci95": [iv.low, iv.high], "n": iv.n}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def as_json(plays: Plays) -> dict[str, Any]:
    """Every figure with its 95% interval; seats are physical seats, "all" every seat."""
    d = plays.decisions
    seats: list[int | str] = [*range(plays.players), "all"]
    decisions: dict[str, Any] = {
        "games": d.games,
        "search_samples": d.samples,
        "margin": d.margin,
        "threshold": d.threshold,
        "seats": [
            {
                "seat": seat,
                "turns": d.turns[i],
                "choice_share": _interval(d.choice[i]),
                **({"real_decision_share": _interval(d.real[i])} if d.real else {}),
            }
            for i, seat in enumerate(seats)
        ],
    }
    out: dict[str, Any] = {
        "variant": plays.variant,
        "game": plays.game,
        "players": plays.players,
        "seed": plays.seed,
        "decisions": decisions,
    }
    if d.kingmaking_games is not None:
        out["kingmaking"] = {
            "games_share": _interval(d.kingmaking_games),
            "moves": d.kingmaking_moves,
            "choices_out_of_contention": d.out,
        }
    luck = plays.luck
    if luck is not None:
        split = luck.deal
        out["luck"] = {
            "deals": luck.deals,
            "field": luck.field,
            "bots": list(luck.bots),
            "deal_share": {
                "estimate": _finite(split.share),
                "ci95": [_finite(split.low), _finite(split.high)],
                "raw": _finite(split.raw),
                "between_mean_square": split.between,
                "within_mean_square": split.within,
            },
            "win_share": {bot: _interval(iv) for bot, iv in luck.win_share.items()},
            "search_over": {bot: _interval(iv) for bot, iv in luck.search_over.items()},
        }
    return out


def json_text(plays: Plays) -> str:
    return json.dumps(as_json(plays), indent=2, ensure_ascii=False)


def _percent(iv: Interval) -> str:
    return f"{100 * iv.estimate:5.1f}% [{100 * iv.low:.1f}, {100 * iv.high:.1f}]"


def _points(iv: Interval) -> str:
    return f"{100 * iv.estimate:+.1f} [{100 * iv.low:+.1f}, {100 * iv.high:+.1f}]"


def text(plays: Plays, lang: str | None = None) -> str:
    """The figures for a terminal, in `lang`."""
    from balancer import i18n
    from balancer.escape import terminal

    t = i18n.text
    d = plays.decisions
    lines = [
        t(
            "plays.title",
            lang,
            variant=terminal(plays.variant),
            game=plays.game,
            players=plays.players,
            seed=plays.seed,
        ),
        "",
    ]
    if d.samples > 0:
        lines.append(
            t("plays.decisions", lang, games=d.games, samples=d.samples, margin=f"{d.margin:g}")
        )
    else:
        lines.append(t("plays.decisions_unsearched", lang, games=d.games))
    heads = [t("plays.seat", lang), t("plays.turns", lang), t("plays.choice", lang)]
    if d.real:
        heads.append(t("plays.real", lang))
    widths = [max(6, i18n.width(heads[0])), max(7, i18n.width(heads[1])), 24]
    lines.append(
        "  ".join(i18n.ljust(h, w) for h, w in zip(heads, [*widths, 0], strict=False)).rstrip()
    )
    for i in range(plays.players + 1):
        seat = str(i) if i < plays.players else t("plays.all", lang)
        cells = [seat, str(d.turns[i]), _percent(d.choice[i])]
        if d.real:
            cells.append(_percent(d.real[i]))
        lines.append(
            "  ".join(i18n.ljust(c, w) for c, w in zip(cells, [*widths, 0], strict=False)).rstrip()
        )
    if d.kingmaking_games is not None:
        lines += [
            "",
            t("plays.kingmaking", lang, threshold=f"{100 * d.threshold:g}", margin=f"{d.margin:g}"),
            "  "
            + t(
                "plays.kingmaking_games",
                lang,
                share=_percent(d.kingmaking_games).strip(),
                moves=d.kingmaking_moves,
                out=d.out,
            ),
        ]
    luck = plays.luck
    if luck is not None:
        split = luck.deal
        share = (
            "—"
            if math.isnan(split.share)
            else f"{100 * split.share:.1f}% [{100 * split.low:.1f}, {100 * split.high:.1f}]"
        )
        lines += [
            "",
            t("plays.luck", lang, deals=luck.deals, field=luck.field),
            "  " + t("plays.deal_share", lang, share=share),
            "  "
            + t(
                "plays.win_share",
                lang,
                shares=", ".join(
                    f"{bot} {_percent(iv).strip()}" for bot, iv in luck.win_share.items()
                ),
            ),
        ]
        for bot, iv in luck.search_over.items():
            lines.append("  " + t("plays.search_over", lang, bot=bot, points=_points(iv)))
    return "\n".join(lines)
