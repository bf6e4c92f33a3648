"""Shell completion of what a designer types most: shipped variants' names, games'
names and knobs (`--set rules.<TAB>`), beside the files the shell completes itself.

Enabled per shell as the README says (click's `_BALANCER_COMPLETE`); each function
here is a parameter's `shell_complete`, called with what is typed so far.
"""

from __future__ import annotations

from typing import Any

import click
from click.shell_completion import CompletionItem


def _names(candidates: list[str], incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(name) for name in candidates if name.startswith(incomplete)]


def _files(incomplete: str) -> list[CompletionItem]:
    # First: bash's script empties its list on a "file" item, then lets the shell
    # complete file names when no name above matched.
    return [CompletionItem(incomplete, type="file")]


def variant_names(incomplete: str) -> list[str]:
    from balancer.config.shipped import shipped_dir

    return sorted(path.stem for path in shipped_dir().glob("*.yaml"))


def complete_variant(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """A shipped variant's name, or a file."""
    return [*_files(incomplete), *_names(variant_names(incomplete), incomplete)]


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """A game's name or short name (the shipped game files' too), or a game file."""
    from balancer import games

    names = set(games.offered())
    for name in list(names):
        full = games.canonical(name)  # registers a shipped game file: its short name too
        if full is not None:
            names.add(games.get(full).short)
    return [*_files(incomplete), *_names(sorted(names), incomplete)]


def complete_shipped_game_file(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[Any]:
    """What `init --from` copies: a shipped game file, or a hand-written game written as one."""
    from balancer import games
    from balancer.games.roles import gamefile

    names = {*gamefile.shipped_names(), *games.HAND_WRITTEN}
    return _names(sorted(n for n in names if gamefile.shipped_file_of(n)), incomplete)


# Where each command keeps the variant a --set or --knob applies to.
_VARIANT_PARAMS = ("variants", "variant_path", "source")


def _variant_typed(ctx: click.Context) -> str | None:
    """The variant already on the command line: parsed, or (when the option being
    completed still lacks its value, which stops click's parse) the first word left."""
    for key in _VARIANT_PARAMS:
        given = ctx.params.get(key)
        first = given[0] if isinstance(given, tuple) and given else given
        if first:
            return str(first)
    words = [word for word in ctx.args if not word.startswith("-")]
    if not words:
        return None
    from balancer.config.shipped import find

    shipped = find(words[0])
    return str(shipped) if shipped is not None else words[0]


def _knobs_of(ctx: click.Context) -> list[tuple[str, str]]:
    """(section, name) of every knob of the variant already typed; with none (or one
    that doesn't load), every hand-written game's."""
    from balancer import games

    typed = _variant_typed(ctx)
    if typed is not None:
        from balancer.config.variant import load

        try:
            spec = load(typed).spec
        except Exception:  # a half-typed or broken file: complete from every game
            pass
        else:
            return [(k.section, k.name) for k in spec.knobs]
    return [(k.section, k.name) for g in games.HAND_WRITTEN for k in games.get(g).knobs]


def complete_knob(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """`SECTION.KNOB=` for --set and --knob: under the section typed (either names any
    knob), else the knob's own; `neko<TAB>` completes as `rules.neko<TAB>` does."""
    typed, dot, rest = incomplete.partition(".")
    if dot and typed in ("rules", "scoring"):
        section, start = typed, rest
    else:
        section, start = None, incomplete
    offered = sorted(
        {f"{section or own}.{name}=" for own, name in _knobs_of(ctx) if name.startswith(start)}
    )
    return [CompletionItem(o) for o in offered]
