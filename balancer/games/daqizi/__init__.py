"""打棋子 Da Qi Zi: rules.py, bots.py; registered in games/__init__.py."""

from balancer.games.daqizi.rules import SPEC

__all__ = ["SPEC"]
