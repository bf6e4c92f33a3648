"""Every key of report.json is documented in docs/figures-and-outputs.md ("Every key").

Real reports of every game (and of a game file, whose report adds `game_file`) are
walked key by key; a key the table does not name fails, and so does a row of the
table that no report holds (a key renamed in the code but not in the docs).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from balancer.config import variant
from balancer.report.build import from_run
from balancer.report.figures import SweepPoint
from balancer.sim import runner
from tests.helpers import ROOT, VARIANTS

pytestmark = pytest.mark.usefixtures("engine_unchecked")

DOC = ROOT / "docs" / "figures-and-outputs.md"
# One per game, each seating different bots (so `bots` and `head_to_head` are there);
# mega-racer is a game file.
SHIPPED = (
    "fdc-5p-vs-random.yaml",
    "kk-4p-bots.yaml",
    "dqz-4p-vs-random.yaml",
    "mega-racer-4p-vs-random.yaml",
)
# Documented keys no fresh report holds: an old report's figure, still read.
ONLY_OLD = {"seat_advantage.chi2"}


def documented() -> list[str]:
    """The keys of the table under "### Every key", as written there."""
    section = DOC.read_text(encoding="utf-8").split("### Every key", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.M)


def pattern(key: str) -> re.Pattern[str]:
    """A documented key as a pattern: `seats[]` any element, a word in capitals any name."""
    parts = [r"[^.]+" if re.fullmatch(r"[A-Z]+", part) else re.escape(part)
             for part in key.split(".")]  # fmt: skip
    return re.compile(r"\.".join(parts).replace(re.escape("[]"), r"\[\]"))


def undocumented(document: Any, keys: list[str], seen: set[str]) -> list[str]:
    """Every path of `document` no documented key names. A path a key names is not
    looked into (`variant` holds the variant's own keys, an interval its two ends); a
    mapping or a list of mappings that no key names is. `seen` gathers the keys used."""
    patterns = [(key, pattern(key)) for key in keys]
    missing: list[str] = []

    def walk(value: Any, path: str) -> None:
        if path:
            named = [key for key, p in patterns if p.fullmatch(path)]
            if named:
                seen.update(named)
                return
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, f"{path}.{key}" if path else key)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for inner in value:
                walk(inner, path + "[]")
        else:
            missing.append(path)

    walk(document, "")
    return missing


@pytest.fixture(scope="module")
def documents() -> list[dict[str, Any]]:
    found = []
    for name in SHIPPED:
        loaded = variant.load(VARIANTS / name).with_overrides(games=8, seed=None)
        report = from_run(runner.run(loaded))
        found.append(report.to_json())
    # The keys only some runs write, set as `run --until`, `--set`, `sweep` and a variant's
    # comeback_margin set them.
    assert report.how_it_plays is not None
    report = replace(
        report, how_it_plays=replace(report.how_it_plays, comeback_margin=3)
    )  # fmt: skip
    report = replace(
        report,
        until="win_ci<=0.02",
        stopped_at=8,
        command_line=("--set", "rules.hand_size=5"),
        sweep_point=SweepPoint(sweep="mega-racer-4p", point="hand_size=5", index=1, points=2),
    )
    found.append(report.to_json())
    return found


def test_every_key_of_every_report_is_documented(documents: list[dict[str, Any]]) -> None:
    keys = documented()
    assert len(keys) > 50 and "bots.BOT.seat_games" in keys
    seen: set[str] = set()
    for document in documents:
        assert undocumented(document, keys, seen) == [], document["game"]
    # And the table names nothing a report doesn't hold.
    assert set(keys) - seen == ONLY_OLD


def test_the_walk_finds_an_undocumented_key(documents: list[dict[str, Any]]) -> None:
    """The check can fail: a key the table lacks, at any depth, is named with its path."""
    keys = documented()
    document = dict(documents[0])
    document["seats"] = [{**document["seats"][0], "lucky_number": 7}, *document["seats"][1:]]
    document["events"] = {**document["events"], "steals": {"per_game": 1.0, "odd": 2}}
    assert undocumented(document, keys, set()) == ["seats[].lucky_number", "events.steals.odd"]
    without = [k for k in keys if k != "bots.BOT.seat_games"]
    assert undocumented(documents[0], without, set()) == [
        f"bots.{label}.seat_games" for label in documents[0]["bots"]
    ]
