"""`balancer design VARIANT --knob ... --goal ...`: a design search over many knobs
toward several goals, resumable, every trial a report folder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from balancer.cli.base import command
from balancer.cli.completion import complete_knob
from balancer.cli.options import VARIANT_PATH, check_placement, format_option, simulation_options

if TYPE_CHECKING:
    from balancer.analysis.design import Knob


@command()
@click.argument("variant_path", metavar="VARIANT", type=VARIANT_PATH)
@click.option(
    "--knob",
    "knob_texts",
    multiple=True,
    required=True,
    shell_complete=complete_knob,
    help="A knob and its values: rules.KNOB=LO..HI[:STEP] or rules.KNOB=a,b,c "
    "(players too); repeat for each knob.",
)
@click.option(
    "--goal",
    "goal_texts",
    multiple=True,
    required=True,
    help="'FIGURE=VALUE', 'FIGURE<=VALUE', 'FIGURE>=VALUE' or 'FIGURE min|max' "
    "(figures as in expect:); repeat for each goal.",
)
@click.option(
    "--trials",
    type=click.IntRange(1, 10_000),
    default=30,
    show_default=True,
    help="Settings to try in all (a continued study counts those it holds).",
)
@click.option(
    "--finalists",
    type=click.IntRange(1, 50),
    default=5,
    show_default=True,
    help="The best trials played again with --final-games to settle the answer.",
)
@click.option(
    "--final-games",
    type=click.IntRange(2, 100_000_000),
    default=None,
    help="Games per finalist (default: four times --games).",
)
@simulation_options
@format_option("Print the answer as a table or as JSON.")
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    help="The study's folder (default reports/<name>-design/); a second search with the "
    "same setup there continues it.",
)
def design(
    variant_path: str,
    knob_texts: tuple[str, ...],
    goal_texts: tuple[str, ...],
    trials: int,
    finalists: int,
    final_games: int | None,
    games: int | None,
    seed: int | None,
    workers: int,
    backend: str,
    scheduler: str | None,
    quiet: bool,
    check: bool,
    move_time_limit: float,
    trust_plugins: bool,
    fmt: str,
    out: str | None,
) -> None:
    """Search many knobs for the setting that meets several goals at once.

    A proposer (Optuna's TPE) picks each trial's setting from the trials before
    it; every trial plays --games games on common seeds and is a report folder.
    The best trials are played again with more games, and paired tests settle
    the answer: one best setting with an interval on every goal, or the front
    of settings the games can't tell apart. The study lives in the folder's
    study.db: run the same command again to continue it.
    """
    import json

    from balancer.analysis import design as analysis
    from balancer.analysis import design_page, design_study
    from balancer.analysis.plays import Games
    from balancer.analysis.sweep import folder_name
    from balancer.cli.simulate import simulate
    from balancer.config.variant import load
    from balancer.errors import UserError

    check_placement(backend, scheduler)
    base = load(variant_path).with_overrides(games=games, seed=seed)
    knobs = [analysis.parse_knob(text, base) for text in knob_texts]
    names = [k.name for k in knobs]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise UserError(f"knob {twice!r} is given twice", key="--knob")
    goals = [analysis.parse_goal(text, base) for text in goal_texts]
    per_final = final_games if final_games is not None else 4 * base.games
    folder = Path(out) if out is not None else Path("reports") / f"{base.name}-design"
    setup = design_study.setup_of(base, knobs, goals, base.games)

    def play(variant: object, name: str, final: bool = False) -> Games:
        from balancer.config.variant import Variant

        assert isinstance(variant, Variant)
        ran = variant.with_overrides(games=per_final) if final else variant
        report = simulate(
            ran,
            folder / name,
            workers,
            True,  # one line per trial below, not a bar per trial
            check,
            move_time_limit,
            what=f"design trial {name}",
            trust_plugins=trust_plugins,
            knobs=None,
            output=folder,
            backend=backend,
            scheduler=scheduler,
        )
        return Games.from_report(report, ran)

    def said(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    with design_study.study_folder(folder, setup):
        study = design_study.open_study(folder, len(goals), base.seed)
        done = design_study.run_trials(study, base, knobs, goals, trials, play, said)
        chosen = analysis.choose_finalists(done, goals, finalists)
        final = []
        for index, trial in enumerate(chosen):
            point = trial["point"]
            name = f"finalists/{folder_name(index + 1, point)}"
            said(f"finalist {index + 1}/{len(chosen)}: {analysis.label(point)}")
            variant = base.with_knobs(_typed(point, knobs))
            final.append(
                analysis.Finalist(point, trial["number"], play(variant, name, final=True), name)
            )
        analysis.settle(goals, final)
        answer = analysis.Answer(goals, final)
        lang = base.lang
        design_page.write(folder, base, knobs, goals, done, answer, lang)
    click.echo(
        json.dumps(design_page.document(base, knobs, goals, done, answer), indent=2)
        if fmt == "json"
        else design_page.text(goals, done, answer, lang)
    )
    if fmt != "json":
        click.echo(f"\ndesign: {folder}/ (design.html, design.json, design.csv, study.db)")
    from balancer.analysis.overview import refresh_for

    refresh_for(folder)


def _typed(point: dict[str, Any], knobs: Sequence[Knob]) -> dict[str, Any]:
    """A stored point with each value as the knob holds it (JSON turned tuples to lists)."""
    out = {}
    for knob in knobs:
        stored = point[knob.name]
        same = (v for v in knob.values if v == stored or str(v) == str(stored))
        out[knob.name] = next(same, stored)
    return out
