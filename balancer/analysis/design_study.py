"""A design search's folder and study: Optuna's proposals in SQLite, trials as reports.

The folder (`reports/<name>-design/` by default) is the study's home and is
written piece by piece, so that a killed search loses at most the trial in
flight: `study.json` (what is searched, written first: the folder's mark),
`study.db` (Optuna's study; SQLite commits each trial whole), one report
folder per trial under `trials/` (each written whole, as `run` writes one),
and at the end `finalists/` and the pages (`design.json`, `design.csv`,
`design.html`, each swapped in whole). A second search with the same setup
continues the study; a folder holding anything else is left alone.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from balancer.analysis.design import Goal, Knob, Measured, label, losses, measure
from balancer.analysis.plays import Games
from balancer.analysis.sweep import folder_name
from balancer.config.variant import Variant
from balancer.errors import UserError

STUDY_JSON = "study.json"
STUDY_DB = "study.db"
STUDY_NAME = "balancer-design"
TRIALS = "trials"
LOCK = ".design.lock"
# An unplayable setting's losses (worse than any real one) and how many in a row end the
# search: a space almost all unplayable is the designer's to narrow.
UNPLAYABLE = 1e300
MAX_MISSES = 200

# Plays `variant` into the report folder `folder` (relative to the search's folder).
PlayFn = Callable[[Variant, str], Games]


def setup_of(
    base: Variant, knobs: Sequence[Knob], goals: Sequence[Goal], games: int
) -> dict[str, Any]:
    """What a study searches, as stored in study.json: a study is continued only with
    the same variant, seed, knobs and values, goals and games per trial."""
    setup = {
        "variant": base.resolved(),
        "knobs": {k.name: list(k.values) for k in knobs},
        "goals": [g.text for g in goals],
        "games_per_trial": games,
    }
    return json.loads(json.dumps(setup, sort_keys=True, default=str))


@contextmanager
def study_folder(folder: Path, setup: dict[str, Any]) -> Iterator[Path]:
    """Check `folder` is new, empty or this setup's study, mark it, lock it."""
    import fcntl

    where = str(folder)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UserError("is not a folder; name a folder for the design search", file=where)
    if folder.is_dir():
        entries = [p.name for p in folder.iterdir()]
        mark = folder / STUDY_JSON
        if entries and not mark.is_file():
            raise UserError(
                "holds files that are not a design search's, so it is left alone; "
                "name another output folder",
                file=where,
            )
        if mark.is_file():
            try:
                held = json.loads(mark.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise UserError(f"its {STUDY_JSON} can't be read", file=where) from None
            if held != setup:
                raise UserError(
                    "holds a design search of another setup (variant, knobs, goals or "
                    f"games per trial differ: see its {STUDY_JSON}); name another output "
                    "folder to start a new one",
                    file=where,
                )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise UserError(f"can't write: {exc.strerror or exc}", file=where) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError("another design search is running in this folder", file=where) from None
        write_whole(folder / STUDY_JSON, json.dumps(setup, indent=2, sort_keys=True) + "\n")
        # A trial a killed search was writing: its scratch, never a finished report.
        for leftover in (folder / TRIALS).glob(".*") if (folder / TRIALS).is_dir() else ():
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
        yield folder
    finally:
        os.close(fd)


def write_whole(path: Path, text: str) -> None:
    """Write `path` so that a reader sees the old file or the new one, never a part."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def open_study(folder: Path, goals: int, seed: int) -> Any:
    """The study in folder/study.db (created or continued), with a trial that a killed
    search left running marked failed (its games are lost; its setting may come again)."""
    import optuna
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(f"sqlite:///{folder / STUDY_DB}")
    study = optuna.create_study(
        study_name=STUDY_NAME,
        storage=storage,
        directions=["minimize"] * goals,
        load_if_exists=True,
    )
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(trial.number, state=TrialState.FAIL)
    # Seeded by the trials so far: a continued study proposes on from where it stopped,
    # not the first proposals again (TPE's first trials are random draws).
    study.sampler = optuna.samplers.TPESampler(seed=seed + len(study.trials))
    return study


def completed(study: Any) -> list[dict[str, Any]]:
    """Every finished trial: its number, point, losses, figures and report folder."""
    from optuna.trial import TrialState

    return [
        {
            "number": t.number,
            "point": t.user_attrs["point"],
            "losses": list(t.values),
            "measured": t.user_attrs["measured"],
            "folder": t.user_attrs["folder"],
        }
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if "unplayable" not in t.user_attrs
    ]


def run_trials(
    study: Any,
    base: Variant,
    knobs: Sequence[Knob],
    goals: Sequence[Goal],
    trials: int,
    play: PlayFn,
    said: Callable[[str], None] = lambda line: None,
) -> list[dict[str, Any]]:
    """Propose and play trials until the study holds `trials` finished ones."""
    done = {json.dumps(t["point"], sort_keys=True): t for t in completed(study)}
    misses = 0
    while len(completed(study)) < trials:
        trial = study.ask()
        point = {k.name: k.values[trial.suggest_int(k.name, 0, len(k.values) - 1)] for k in knobs}
        key = json.dumps(point, sort_keys=True, default=str)
        variant = base.with_knobs(point)
        why = variant.spec.unplayable(variant.rules, variant.players)
        if why:
            # Told as the worst possible result, not as failed: TPE learns from it to
            # propose elsewhere (a failed trial teaches it nothing, and it came back).
            trial.set_user_attr("unplayable", why)
            study.tell(trial, [UNPLAYABLE] * len(goals))
            misses += 1
            if misses > MAX_MISSES:
                raise UserError(f"the search keeps proposing unplayable settings ({why})")
            continue
        misses = 0
        before = done.get(key)
        if before is not None:  # proposed again: its games are the same games
            folder, measured = before["folder"], before["measured"]
        else:
            folder = f"{TRIALS}/{folder_name(trial.number, point)}"
            said(f"trial {trial.number + 1}: {label(point)}")
            found = measure(goals, play(variant, folder))
            measured = [[m.estimate, m.low, m.high] for m in found]
        values = losses(goals, [Measured(*m) for m in measured])
        trial.set_user_attr("point", json.loads(json.dumps(point, default=str)))
        trial.set_user_attr("measured", measured)
        trial.set_user_attr("folder", folder)
        study.tell(trial, values)
        done[key] = {"folder": folder, "measured": measured}
    return completed(study)
