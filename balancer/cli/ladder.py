"""`balancer ladder GAME --players P`: every bot of a game against the others."""

from __future__ import annotations

from pathlib import Path

import click

from balancer.cli.base import command
from balancer.cli.completion import complete_game
from balancer.cli.options import (
    allow_plugins_option,
    budget_option,
    format_option,
    many_runs_options,
    out_folder_option,
)
from balancer.errors import UserError

LADDER_CSV = "ladder.csv"


@command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--players", "-p", type=click.IntRange(1, 64), required=True, help="Seats at the table."
)
@budget_option("Games in all, split evenly over the lineups (at least 30 deals each).")
@click.option(
    "--bots",
    help="Comma-separated bots (default: every built-in bot of the game); a plugin is "
    "package.module:Factory and needs --allow-plugins.",
)
@many_runs_options
@allow_plugins_option
@format_option("Print the ladder as a table or as JSON.")
@out_folder_option("Also write ladder.csv and ladder.html (self-contained) into this folder.")
def ladder(
    game: str,
    players: int,
    games: int,
    bots: str | None,
    seed: int | None,
    workers: int,
    quiet: bool,
    move_time_limit: float,
    trust_plugins: bool,
    allow_plugins: bool,
    fmt: str,
    out: str | None,
) -> None:
    """Rank the bots of GAME (fdc, kk, dqz, a game file, or a variant file for its rules).

    Every seat assignment of the bots is played (B bots at P seats: B^P − B
    lineups; one-bot tables are left out), each lineup on the same deals
    (common seeds), so every bot sits in every seat equally often against
    every mix of opponents. Shows each bot's win share (per seat-game, ties
    split) with a 95% interval clustered by deal, the head-to-head matrix
    (the row bot's share in games where the column bot sits), and the skill
    gap: the best bot's share minus random's, paired over deals.
    """
    as_json = fmt == "json"
    import contextlib

    from balancer import i18n
    from balancer.analysis import ladder as analysis
    from balancer.bots.host import trusting
    from balancer.cli.options import chosen_lang
    from balancer.cli.progress import Progress
    from balancer.config.variant import load

    names = [b.strip() for b in bots.split(",")] if bots else None
    file_seed = None
    file_lang = None
    from balancer import games as registry
    from balancer.config.shipped import find
    from balancer.games.roles import is_game_file

    if registry.canonical(game) is None and (shipped := find(game)) is not None:
        game = str(shipped)  # a shipped variant's name, as every command takes it
    if Path(game).suffix in (".yaml", ".yml") and is_game_file(game):
        from balancer.games import register_file

        game = register_file(game)  # a designer's game file is its game, as for `knobs`
    elif Path(game).suffix in (".yaml", ".yml"):
        # A variant file lends its game, rules and seed; its bots and seats are the ladder's.
        base = load(game)
        file_seed = base.seed
        file_lang = base.lang
        game = base.game
    variant = analysis.game_variant(game, players, seed if seed is not None else file_seed or 0)
    if file_seed is not None:
        # The file's knobs were checked as it loaded: set as they are (checked again,
        # fdc's deck, already in its checked form, was refused as if written so).
        variant = variant.with_knobs(dict(base.rules))
        why = variant.spec.unplayable(variant.rules, variant.players)
        if why:
            raise UserError(f"can't be played at {players} players: {why}", key="--players")
    lang = i18n.choose(chosen_lang(), file_lang)
    chosen = analysis.choose_bots(variant, names, allow_plugins)
    the_plan = analysis.plan(variant, chosen, games)
    if not quiet:  # what its games will compile, compiled first and said (if numba does)
        from balancer.sim import compiled, first_compile

        kernel = compiled.kernel_of(variant.game)
        loop = kernel is not None and any(b in kernel.compiled_bots for b in chosen)
        first_compile.prepare_game(
            variant.game, chosen, loop, tell=lambda line: click.echo(line, err=True), lang=lang
        )
    with contextlib.ExitStack() as stack:
        held = None
        if out is not None:
            from balancer.report.folder import claim

            # Checked and locked before the first game, held until it is written.
            held = stack.enter_context(claim(Path(out), LADDER_CSV))
        progress = Progress(the_plan.games, f"ladder {variant.game} {players}p", quiet, lang=lang)
        with progress as advance, trusting(trust_plugins):
            result = analysis.run_ladder(
                the_plan,
                workers=workers,
                progress=advance,
                started=progress.started,
                plugin_move_limit=move_time_limit,
            )
        click.echo(result.json_text() if as_json else analysis.text(result, lang))
        if held is not None:

            def fill(tmp: Path) -> None:
                analysis.write_csv(result, tmp / LADDER_CSV)
                (tmp / "ladder.html").write_text(analysis.html_page(result, lang), encoding="utf-8")

            held.write(fill)
            if not as_json:
                written = i18n.text("ladder.written", lang)
                click.echo(f"\n{written}: {out}/ (ladder.csv, ladder.html)")
            from balancer.analysis.overview import refresh_for

            refresh_for(Path(str(out)))
