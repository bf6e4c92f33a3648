"""Fish! Dash! Cash!: rules.py, bots.py; registered in games/__init__.py."""

from balancer.games.fdc.rules import SPEC

__all__ = ["SPEC"]
