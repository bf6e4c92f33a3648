"""`balancer plays VARIANT`: real decisions, kingmaking, and luck by duplicate play."""

from __future__ import annotations

import click

from balancer.cli.base import command
from balancer.cli.options import (
    VARIANT_PATH,
    format_option,
    lang_option,
    move_time_limit_option,
    plugin_memory_option,
    quiet_option,
    seed_option,
    trust_plugins_option,
)

# The defaults a variant's `plays:` takes too.
from balancer.config.plays_sample import (
    DEFAULT_BUDGET,
    DEFAULT_DEALS,
    DEFAULT_GAMES,
    DEFAULT_MARGIN,
    DEFAULT_THRESHOLD,
    MAX_BUDGET,
)


@command()
@click.argument("source", metavar="VARIANT", type=VARIANT_PATH)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1, 1_000_000),
    default=DEFAULT_GAMES,
    show_default=True,
    help="Games of the variant watched move by move (its games 0..N-1).",
)
@click.option(
    "--deals",
    type=click.IntRange(0, 1_000_000),
    default=DEFAULT_DEALS,
    show_default=True,
    help="Deals of duplicate play (0: none; else at least 2).",
)
@click.option(
    "--search-budget",
    type=click.IntRange(0, MAX_BUDGET),
    default=DEFAULT_BUDGET,
    show_default=True,
    help="Worlds search samples per move, for its estimates and as a player (0: no search: "
    "no real decisions, no kingmaking, no search seat; else at least 2).",
)
@seed_option
@click.option(
    "--margin",
    type=click.FloatRange(0, 1, max_open=True),
    default=DEFAULT_MARGIN,
    show_default=True,
    help="Win probability by which a real decision's moves differ, and a kingmaking move "
    "swings the race for the win.",
)
@click.option(
    "--threshold",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=DEFAULT_THRESHOLD,
    show_default=True,
    help="Win probability under which a seat can no longer win (search's estimate).",
)
@quiet_option
@move_time_limit_option
@plugin_memory_option
@trust_plugins_option
@format_option("Print the figures as a table or as JSON.")
@lang_option
def plays(
    source: str,
    games: int,
    deals: int,
    search_budget: int,
    seed: int | None,
    margin: float,
    threshold: float,
    quiet: bool,
    move_time_limit: float,
    trust_plugins: bool,
    fmt: str,
) -> None:
    """How a variant plays: real decisions, kingmaking, and the deal's share of the outcome.

    Watches games 0..N-1 of the variant (its bots and seating) move by move: the
    share of each seat's turns with more than one legal move; with search's
    estimates, the share whose moves differ by more than --margin of a win (real
    decisions), and the games in which a seat under --threshold of a win made a
    move whose alternative, on the same worlds, changes the favourite (kingmaking).
    Then plays --deals deals in duplicate: each seat by search, the scripted bot and
    random against the scripted bot, and splits the outcome's variance between the
    deal and the play. Every figure has its 95% interval (docs/analysis.md).
    """
    import contextlib

    from balancer import i18n
    from balancer.analysis import decisions, luck
    from balancer.analysis import plays_text as render
    from balancer.bots.host import trusting
    from balancer.bots.search import can_search
    from balancer.cli.options import chosen_lang
    from balancer.cli.progress import Progress
    from balancer.config.variant import load
    from balancer.errors import UserError

    # Every flag is checked before the first game is played.
    if search_budget == 1:
        # One world gives no standard error: its noise would pass for real decisions.
        raise UserError("must be 0 (no search) or at least 2 worlds", key="--search-budget")
    if deals == 1:
        raise UserError("duplicate play needs at least 2 deals (0: none)", key="--deals")
    variant = load(source).with_overrides(seed=seed)
    if search_budget > 0 and not can_search(variant.game):
        raise UserError(
            f"{variant.game} has no search (no kernel or no determinize): use --search-budget 0",
            key="--search-budget",
        )
    if deals and variant.players < 2:
        raise UserError("duplicate play needs at least 2 players: use --deals 0", key="--deals")
    lang = i18n.choose(chosen_lang(), variant.lang)
    bots = luck.measured_bots(variant.game, search_budget) if deals else ()
    if not quiet and search_budget > 0:
        from balancer.sim import first_compile

        first_compile.prepare_game(
            variant.game,
            ["search"],
            False,
            tell=lambda line: click.echo(line, err=True),
            lang=lang,
        )
    total = games + (luck.games_needed(variant, deals, bots) if deals else 0)
    progress = Progress(total, f"plays {variant.name}", quiet, lang=lang)
    with contextlib.ExitStack() as stack:
        advance = stack.enter_context(progress)
        stack.enter_context(trusting(trust_plugins))
        progress.started(1)
        watched = decisions.decision_figures(
            variant,
            games,
            search_budget,
            margin,
            threshold,
            progress=advance,
            move_time_limit=move_time_limit,
        )
        duplicate = luck.luck_figures(variant, deals, search_budget, advance) if deals else None
    result = render.Plays(
        variant.name, variant.game, variant.players, variant.seed, watched, duplicate
    )
    click.echo(render.json_text(result) if fmt == "json" else render.text(result, lang))
