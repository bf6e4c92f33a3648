"""One-off changes to a variant from the command line: `--set`, `--players`, `--bots`.

`balancer run fdc-5p.yaml --set rules.neko_ni_koban=false --players 4 --bots
heuristic,random,random,random` plays the variant as if its file said so: the
result is checked exactly as a variant file is (knob values, the player
range, one bot per seat, a deck big enough to deal), so a one-off can't play
what a file couldn't. Each change is also kept as written, in the order
given, so the report says what the command line changed (`command_line` in
report.json) and `diff` shows it beside the variant's name.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from balancer import knobs
from balancer.config.variant import Variant, from_resolved
from balancer.errors import UserError
from balancer.yamlsafe import load_yaml_text


def _knob(text: str, variant: Variant) -> tuple[str, str, Any]:
    """`rules.KNOB=V` (or `scoring.KNOB=V`, or `KNOB=V`) -> (section, knob, value as written).

    The value is checked here, so a bad one is named by its --set; the variant
    is then built from the value as written, as a file's would be.
    """
    where = f"--set {text}"
    path, sep, raw = text.partition("=")
    if not sep or not raw.strip():
        raise UserError("expected --set section.KNOB=VALUE", key=where)
    parts = path.strip().split(".")
    name = parts[-1]
    if len(parts) > 2 or (len(parts) == 2 and parts[0] not in knobs.SECTIONS):
        raise UserError("name a knob as rules.KNOB, scoring.KNOB or KNOB", key=where)
    by_name = {k.name: k for k in variant.spec.knobs}
    if name not in by_name:
        import difflib

        close = difflib.get_close_matches(name, list(by_name), n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"knobs: {', '.join(by_name)}"
        raise UserError(f"{variant.game} has no knob {name!r} ({hint})", key=where)
    # Either section names any knob, as a variant file may put it under either: the
    # change is recorded under the knob's own (`balancer knobs` shows which).
    knob = by_name[name]
    value = load_yaml_text(raw.strip(), where).data
    try:
        knob.check(value)
    except ValueError as exc:  # `where` holds the value as written
        raise UserError(str(exc), key=where) from None
    return knob.section, name, value


def _bot_list(text: str, players: int) -> list[str]:
    """`heuristic` (every seat) or `heuristic,random,...` (one per seat)."""
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise UserError("an empty bot name in the list", key=f"--bots {text}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise UserError(
            f"{len(names)} bots for {players} players: give one bot, or one per seat",
            key=f"--bots {text}",
        )
    return names


def apply(
    variant: Variant,
    settings: tuple[str, ...] = (),
    players: int | None = None,
    bots: str | None = None,
) -> tuple[Variant, tuple[str, ...]]:
    """The variant with the command line's changes, checked, and those changes as written."""
    if not settings and players is None and bots is None:
        return variant, ()
    # As report.json holds it (lists, not the frozen tuples of a loaded variant): the
    # form from_resolved checks.
    data = json.loads(json.dumps(variant.resolved()))
    changes: list[str] = []
    seen: set[str] = set()
    for text in settings:
        section, name, value = _knob(text, variant)
        if name in seen:
            raise UserError(f"knob {name!r} is set twice", key="--set")
        seen.add(name)
        data[section] = {**data.get(section, {}), name: value}
        changes.append(f"{section}.{name}={text.partition('=')[2].strip()}")
    if players is not None and players != variant.players:
        data["players"] = players
        changes.append(f"players={players}")
        labels = {(s["bot"], str(s["params"])) for s in data["seats"]}
        if bots is None and len(labels) > 1:
            raise UserError(
                f"the variant's seats hold different bots: say who sits at the {players} "
                "seats with --bots",
                key="--players",
            )
        if bots is None:
            data["seats"] = [data["seats"][0]] * players
    if bots is not None:
        data["seats"] = [{"bot": b, "params": {}} for b in _bot_list(bots, data["players"])]
        changes.append(f"bots={bots}")
    where = f"{variant.path} with {' '.join(changes)}"
    changed = from_resolved(data, where, allow_plugins=True)
    # Still the variant file's: its name and path (replay, diff headers), its language.
    return replace(changed, name=variant.name, path=variant.path, lang=variant.lang), tuple(changes)


def knobs_set(variant: Variant, changes: tuple[str, ...]) -> dict[str, Any]:
    """The knobs `--set` changed, with the values the variant now has (for a replay)."""
    names = [c.partition("=")[0].split(".", 1)[1] for c in changes if c.startswith(knobs.SECTIONS)]
    return {name: variant.rules[name] for name in names}


def folder_suffix(changes: tuple[str, ...]) -> str:
    """The changes as part of a folder name: `-neko_ni_koban=false-players=4`, or ''.

    A one-off run's default folder is not the variant's own, so it never
    replaces the report of the variant as its file says it.
    """
    if not changes:
        return ""
    short = [change.split(".", 1)[1] if change.startswith(knobs.SECTIONS) else change
             for change in changes]  # fmt: skip
    return "-" + re.sub(r"[^A-Za-z0-9_.=,-]+", "_", "-".join(short))[:120]
