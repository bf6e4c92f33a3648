"""`balancer check VARIANT...`: test each variant's `expect:` targets; exit 0, 3 or 4 for CI."""

from __future__ import annotations

import click

from balancer.cli.base import command
from balancer.cli.options import (
    VARIANT_PATH,
    format_option,
    games_option,
    lang_option,
    move_time_limit_option,
    plugin_memory_option,
    quiet_option,
    seed_option,
    trust_plugins_option,
    workers_option,
)

# Games between looks with --until-decided: the CS is valid at any look, so
# looking often costs nothing but time.
LOOK_EVERY = 200


@command()
@click.argument("variants", nargs=-1, required=True, type=VARIANT_PATH)
@games_option
@seed_option
@workers_option
@quiet_option
@move_time_limit_option
@plugin_memory_option
@trust_plugins_option
@click.option(
    "--until-decided",
    is_flag=True,
    help="Stop as soon as every target is decided, with anytime-valid confidence "
    "sequences; the variant's games (or --games) are the most played.",
)
@click.option(
    "--alpha",
    type=float,
    help="Error rate per target (default: the file's expect.alpha, else 0.05).",
)
@format_option("Print the verdicts as a table or as JSON.")
@lang_option
def check(
    variants: tuple[str, ...],
    games: int | None,
    seed: int | None,
    workers: int,
    quiet: bool,
    move_time_limit: float,
    trust_plugins: bool,
    until_decided: bool,
    alpha: float | None,
    fmt: str,
) -> None:
    """Test the expect: targets of VARIANTS: pass, fail or undecided per target.

    Each target is an equivalence test (within) or a one-sided test (at_least,
    above, at_most, below) at its alpha. Exit code: 0 every target passed, 3
    some target failed, 4 none failed but some are undecided (play more games,
    or use --until-decided); 2 a bad variant or target.
    """
    as_json = fmt == "json"
    import sys

    from balancer.cli.colour import painter

    paint = None if as_json else painter(sys.stdout)
    import json

    from balancer import i18n
    from balancer.analysis import expect
    from balancer.analysis.plays import Games, Job, play
    from balancer.bots.host import trusting
    from balancer.cli.options import chosen_lang
    from balancer.cli.progress import Progress
    from balancer.config.variant import Variant, load
    from balancer.errors import GameFault, UserError
    from balancer.sim.runner import ChunkResult

    if alpha is not None and not 0 < alpha < 0.5:
        raise UserError(f"must be between 0 and 0.5, got {alpha:g}", key="--alpha")
    # Every file and target is checked before the first game is played.
    loaded = [load(path).with_overrides(games=games, seed=seed) for path in variants]
    targets = [expect.load_targets(v, alpha) for v in loaded]
    everything: list[expect.Outcome] = []
    report: list[dict] = []
    # One language for the whole table: --lang, else the first variant's lang:, else the env.
    lang = i18n.choose(chosen_lang(), loaded[0].lang if loaded else None)
    for variant, its_targets in zip(loaded, targets, strict=True):
        progress = Progress(variant.games, f"check {variant.name}", quiet, lang=lang)
        watch = expect.Sequential(its_targets) if until_decided else None

        def on_chunk(
            index: int,
            result: ChunkResult,
            variant: Variant = variant,
            watch: expect.Sequential | None = watch,
        ) -> bool:
            if watch is None:
                return False
            watch.update(Games.from_chunks(variant, [result]))
            return watch.decided()

        with progress as advance, trusting(trust_plugins):
            try:
                (played,) = play(
                    [Job(variant, 0, variant.games)],
                    workers=workers,
                    progress=advance,
                    started=progress.started,
                    plugin_move_limit=move_time_limit,
                    on_chunk=on_chunk,
                    chunk=LOOK_EVERY if until_decided else None,
                )
            except GameFault as fault:
                from balancer.cli.simulate import replay_command
                from balancer.escape import terminal

                if fault.plugin_traceback:
                    click.echo(fault.plugin_traceback.rstrip(), err=True)
                again = replay_command(variant, fault, move_time_limit, trust_plugins)
                raise UserError(f"{terminal(str(fault))}. Replay it: {again}") from None
        if watch is not None:
            outcomes = watch.outcomes()
        else:
            outcomes = [expect.evaluate(t, played) for t in its_targets]
        everything += outcomes
        if as_json:
            report.append(
                {
                    "variant": variant.path,
                    "games": played.n,
                    "until_decided": until_decided,
                    "targets": [o.to_json() for o in outcomes],
                }
            )
        else:
            from balancer.escape import terminal

            stopped = until_decided and played.n < variant.games
            how = i18n.text("check.stopped", lang) if stopped else ""
            games_text = i18n.text("check.games", lang, n=played.n)
            click.echo(f"{terminal(variant.path)}: {games_text}{how}")
            for outcome in outcomes:
                line = outcome.line(lang)
                if paint is not None:  # the verdict leads the line, padded to 9
                    word = expect.verdict_word(outcome.verdict, lang)
                    line = paint(word, outcome.verdict) + line[len(word) :]
                click.echo(f"  {line}")
    code = expect.exit_code(everything)
    if as_json:
        click.echo(json.dumps({"exit_code": code, "variants": report}, indent=2))
    else:
        counts = {v: sum(o.verdict == v for o in everything) for v in ("pass", "fail", "undecided")}
        click.echo(
            i18n.text(
                "check.summary",
                lang,
                passed=counts["pass"],
                failed=counts["fail"],
                undecided=counts["undecided"],
            )
        )
    if code:
        click.get_current_context().exit(code)
