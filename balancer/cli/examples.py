"""The examples that close each command's --help: one or two lines a designer can
paste, using only names that ship (so they work from any folder, installed).

tests/cli/test_help_examples.py parses every line with its command's own options.
"""

from __future__ import annotations

import click

EXAMPLES: dict[str, tuple[str, ...]] = {
    "cards": (
        "balancer cards reports/fdc-5p",
        "balancer cards fdc-5p -o fdc-5p-cards.csv    # the report `balancer run fdc-5p` wrote",
    ),
    "check": ("balancer check my-fdc.yaml --until-decided",),
    "csv": ("balancer csv reports/fdc-5p --excel",),
    "diff": (
        "balancer diff fdc-4p my-fdc.yaml    # a shipped variant against yours, paired",
        "balancer diff reports/a reports/b --format md",
    ),
    "design": (
        "balancer design mega-racer-4p --knob goal=6..16 --knob accident_loss=0..6 "
        "--goal 'length.mean=8' --goal 'seat_win_share.spread<=0.05' --trials 40",
        "balancer design dqz-4p --knob starting_chips=10..40 --goal 'length.mean=8' -n 500",
    ),
    "docs": ("balancer docs", "balancer docs rules 4    # docs/rules.md §4"),
    "events": ("balancer events mega-racer",),
    "init": ("balancer init fdc my-fdc.yaml", "balancer init --from mega-racer my-race.yaml"),
    "kk-odds": ("balancer kk-odds --theme r5,b7 --mine y3,g12 --free r1,rainbow",),
    "knobs": ("balancer knobs fdc", "balancer knobs ./my-race.yaml"),
    "ladder": ("balancer ladder fdc --players 3 -n 6000",),
    "plays": (
        "balancer plays fdc-5p",
        "balancer plays mega-racer-4p --games 50 --deals 100 --search-budget 50 --format json",
    ),
    "replay": ("balancer replay fdc-4p --game 12", "balancer replay reports/fdc-4p -g 12 --seat 0"),
    "run": (
        "balancer run fdc-5p -n 2000 --trace 100    # and each trick's scores of games 0-99",
        "balancer run fdc-5p --set rules.neko_ni_koban=false",
    ),
    "show": ("balancer show fdc-5p-no-neko",),
    "sweep": (
        "balancer sweep fdc-4p --set rules.hand_size=4,5,6 -n 2000",
        "balancer sweep fdc-5p --set players=3,4,5    # the player count, like a knob",
    ),
    "tune": ("balancer tune mega-racer-4p --knob rules.goal=6..12 --target 'length.mean=8'",),
    "validate": ("balancer validate my-fdc.yaml my-race-4p.yaml",),
    "variants": ("balancer variants", "balancer variants my-variants/ --format json"),
}


def write_examples(command: str, formatter: click.HelpFormatter) -> None:
    """COMMAND's examples as the last section of its --help, each line as written
    (click would rewrap a long one, and a pasted command must stay one line)."""
    lines = EXAMPLES.get(command)
    if not lines:
        return
    with formatter.section("Examples"):
        for line in lines:
            formatter.write(f"{'':>{formatter.current_indent}}{line}\n")
