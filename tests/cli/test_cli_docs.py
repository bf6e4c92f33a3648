"""docs/rules.md can't drift from the code: every knob and every event of every game is in it."""

from __future__ import annotations

import pytest

from balancer import games
from tests.helpers import ROOT

RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", games.names())
def test_every_knob_is_in_the_rules_document_with_its_default(game: str) -> None:
    from balancer.cli.yamltext import knob_value

    for knob in games.get(game).knobs:
        row = f"| `{knob.name}` | {knob.section} | `{knob_value(knob, knob.default)}` |"
        assert row in RULES, f"docs/rules.md lacks the knob row for {game} {knob.name}: {row}"


@pytest.mark.parametrize("game", games.names())
def test_every_event_is_defined_in_the_rules_document(game: str) -> None:
    spec = games.get(game)
    for event in spec.events:
        assert f"| {spec.short} | `{event}` |" in RULES, f"docs/rules.md lacks {game} {event}"


def test_the_rules_document_has_the_differences_from_the_seeds() -> None:
    assert "## Where balancer and the seeds differ" in RULES
