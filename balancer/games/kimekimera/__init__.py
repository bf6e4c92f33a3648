"""キメキメラ Kimekimera: rules.py, bots.py; registered in games/__init__.py."""

from balancer.games.kimekimera.rules import SPEC

__all__ = ["SPEC"]
