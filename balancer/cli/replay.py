"""`balancer replay VARIANT|REPORT --game I`: a play-by-play of one game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from balancer.cli.base import command
from balancer.cli.completion import complete_knob
from balancer.cli.options import (
    MAX_SEED,
    VARIANT_OR_REPORT,
    allow_plugins_option,
    chosen_lang,
    lang_option,
    move_time_limit_option,
    plugin_memory_option,
    trust_plugins_option,
)
from balancer.errors import UserError

if TYPE_CHECKING:
    from balancer.report.model import Report


@command()
@click.argument("source", metavar="VARIANT|REPORT", type=VARIANT_OR_REPORT)
@click.option("--game", "-g", "index", type=click.IntRange(0), required=True, help="Game index.")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), help="The run's seed.")
@click.option("--seat", type=click.IntRange(0), help="Show only what this seat could see.")
@click.option(
    "--set",
    "settings",
    shell_complete=complete_knob,
    multiple=True,
    help="A knob's value as the run set it: rules.KNOB=VALUE (a sweep point's, say).",
)
@move_time_limit_option
@plugin_memory_option
@trust_plugins_option
@allow_plugins_option
@lang_option
def replay(
    source: Path,
    index: int,
    seed: int | None,
    seat: int | None,
    settings: tuple[str, ...],
    move_time_limit: float,
    trust_plugins: bool,
    allow_plugins: bool,
) -> None:
    """Print a play-by-play of game I, exactly as the run played it.

    SOURCE is a variant file (with --seed if the run overrode it) or a report
    folder, whose report.json holds the variant and seed as run. A report is
    data: a plugin bot it names is run only with --allow-plugins. The play-by-play
    is in --lang, else the variant's lang:, else $BALANCER_LANG, else English (a game
    whose narration has no words in that language: English).
    """
    from balancer.analysis.sweep import parse_setting
    from balancer.bots.host import trusting
    from balancer.config import variant
    from balancer.escape import terminal
    from balancer.files import FOLDER, kind_of
    from balancer.i18n import DEFAULT_LANG, choose
    from balancer.report import model as reportio
    from balancer.report.folder import restore_interrupted
    from balancer.sim import replay as replay_mod

    restore_interrupted(source)  # a report a run killed mid-swap set aside
    if kind_of(source) == FOLDER:
        data = reportio.load_report(source)
        where = str(source / reportio.REPORT_JSON)
        for note in reportio.version_notes(data, where):
            click.echo(f"balancer: note: {note}", err=True)
        _same_game_file(data, where)
        loaded = variant.from_resolved(data.variant, where, allow_plugins=allow_plugins)
        if index >= data.n_games:
            raise UserError(f"the run played games 0..{data.n_games - 1}", key="--game")
    else:
        loaded = variant.load(source)
    loaded = loaded.with_overrides(seed=seed)
    knobs = {}
    for text in settings:
        name, values = parse_setting(text, loaded)
        if len(values) != 1:
            raise UserError("a replay plays one game: give one value", key=f"--set {text}")
        knobs[name] = values[0]
    if knobs:
        loaded = loaded.with_knobs(knobs)
    if seat is not None and seat >= loaded.players:
        raise UserError(f"seat {seat} does not exist with {loaded.players} players", key="--seat")
    lang = choose(chosen_lang(), loaded.lang) or DEFAULT_LANG
    try:
        with trusting(trust_plugins):
            text = replay_mod.replay_text(loaded, index, seat, move_time_limit, lang)
        click.echo(terminal_lines(text, terminal))
    except replay_mod.ReplayFault as stopped:
        click.echo(terminal_lines(stopped.played, terminal))
        raise UserError(f"the game stopped: {terminal(str(stopped.fault))}") from None


def _same_game_file(report: Report, where: str) -> None:
    """A replay plays the game file as it is now: refuse one edited since the report's
    run, which would replay another game than the one the report holds."""
    import json

    from balancer import games
    from balancer.analysis.diff_setup import game_file_changes

    if report.game_file is None:
        return
    now = games.game_file_of(report.game)
    if now is None:
        return
    kept = report.game_file.get("content") or {}
    # As report.json holds it (JSON), so a YAML key or number compares as written there.
    current = json.loads(json.dumps(now["content"]))
    if current == kept:
        return
    changes = game_file_changes(kept, current)
    said = changes[0].text() if changes else "its names"
    more = f", and {len(changes) - 1} more" if len(changes) > 1 else ""
    raise UserError(
        f"the game file {now['path']} changed since the run ({said}{more}): a replay "
        "would play another game; restore the file, or run the variant again",
        file=where,
        key="game_file",
    )


def terminal_lines(text: str, escape: object) -> str:
    """Each line escaped for the terminal (a name may hold escape sequences)."""
    return "\n".join(escape(line) for line in text.split("\n"))  # type: ignore[operator]
