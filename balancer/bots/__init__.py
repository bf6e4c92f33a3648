"""Bots: what a bot is (api.py) and where bots come from (registry.py)."""
