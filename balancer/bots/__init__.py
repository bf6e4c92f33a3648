"""Bots: where they come from (registry.py, plugins hosted by host.py) and how a variant's are
resolved (build.py). What a bot is, every game's bots use too: ../bot.py."""
