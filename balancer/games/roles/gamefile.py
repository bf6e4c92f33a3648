"""Reading a game file: its YAML, its `extends:` chain, and where every key was written.

`extends:` names a shipped game (`fish-dash-cash`) or another game file
(relative to this one). Mappings merge, the child wins; a list (a role's
effects, the score) is replaced whole, so a child that rewrites one role
rewrites all of it; a child's `null` removes a key the parent has. Each key
path remembers the file and line that wrote it last, so the validator blames
the file a designer has to edit (a shipped one by its name, `mega-racer.yaml`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from balancer.errors import UserError
from balancer.files import FILE, kind_of
from balancer.yamlsafe import KeyPath, format_keypath, load_yaml

SHIPPED = Path(__file__).parent / "shipped"
MAX_EXTENDS_DEPTH = 16


@dataclass
class Source:
    """A game file merged with its ancestors, and the origin of every key path."""

    data: dict[str, Any]
    path: str
    where: dict[KeyPath, tuple[str, int]] = field(default_factory=dict)

    def locate(self, keypath: KeyPath) -> tuple[str, int | None]:
        for end in range(len(keypath), -1, -1):
            found = self.where.get(tuple(keypath[:end]))
            if found:
                return found
        return self.path, None

    def error(self, keypath: KeyPath, message: str) -> UserError:
        file, line = self.locate(keypath)
        return UserError(message, file=file, line=line, key=format_keypath(keypath) or None)


def shipped_path(name: str) -> Path | None:
    """The shipped game file of that name (`mega-racer`), or None.

    Looked up among the shipped names, never by making a path of `name`: any
    text may come here (a variant's `game:`), a name too long for the file system too."""
    return SHIPPED / f"{name}.yaml" if name in _shipped() else None


def shipped_file_of(name: str) -> Path | None:
    """The shipped game file a designer names to start from: by its name, or by the
    hand-written game it writes as a file (`fish-dash-cash`: fish-dash-cash-roles)."""
    return shipped_path(name) or shipped_path(f"{name}-roles")


def shipped_names() -> list[str]:
    return sorted(_shipped())


@lru_cache(maxsize=1)
def shipped_shorts() -> dict[str, str]:
    """Each shipped game file's short name -> its name (`mr` -> `mega-racer`)."""
    out = {}
    for name in shipped_names():
        data = load_yaml(SHIPPED / f"{name}.yaml").data
        if isinstance(data, dict) and isinstance(data.get("short"), str):
            out[data["short"]] = name
    return out


def shipped_owner(word: str, path: str) -> str | None:
    """The shipped game file whose name or short name `word` is, when `path` is not that
    file itself: a copy keeping the name would stand in for the shipped game."""
    owner = word if word in _shipped() else shipped_shorts().get(word)
    if owner is None:
        return None
    try:
        same = Path(path).resolve() == (SHIPPED / f"{owner}.yaml").resolve()
    except (OSError, RuntimeError):  # a path the file system can't resolve is no shipped file
        same = False
    return None if same else f"{owner}.yaml"


@lru_cache(maxsize=1)
def _shipped() -> frozenset[str]:
    return frozenset(p.stem for p in SHIPPED.glob("*.yaml"))


def read(path: str | Path) -> Source:
    """The game file at `path` with its extends chain merged; a broken chain is a UserError."""
    return _read(Path(path), [])


def _read(path: Path, stack: list[Path], shown: str | None = None) -> Source:
    """`shown`: how errors name the file (a shipped one by its name, `mega-racer.yaml`,
    never the folder balancer happens to be installed in)."""
    shown = shown or str(path)
    loaded = load_yaml(path)
    if not isinstance(loaded.data, dict):
        raise UserError(
            "a game file must be a mapping of keys (name:, deck:, roles:, ...)", file=shown
        )
    data = dict(loaded.data)
    own = {kp: (shown, line) for kp, line in loaded.lines.items()}
    parent_name = data.pop("extends", None)
    if parent_name is None:
        return Source(data, str(path), own)
    file, line = own.get(("extends",), (str(path), 1))
    if not isinstance(parent_name, str) or not parent_name or "\x00" in parent_name:
        raise UserError(
            "must name a shipped game or a game file", file=file, line=line, key="extends"
        )
    shipped = shipped_file_of(parent_name)
    parent = shipped or (path.parent / parent_name)
    try:
        kind = kind_of(parent, name=parent_name)
    except UserError as exc:  # a name the file system can't hold, a loop of links
        raise UserError(exc.message, file=file, line=line, key="extends") from None
    if kind != FILE:
        raise UserError(
            f"no shipped game or game file {parent_name!r} (shipped: {', '.join(shipped_names())})",
            file=file,
            line=line,
            key="extends",
        )
    chain = [*stack, path.resolve()]
    if parent.resolve() in chain:
        cycle = " -> ".join(p.name for p in [*chain, parent])
        raise UserError(f"extends makes a cycle: {cycle}", file=file, line=line, key="extends")
    if len(chain) > MAX_EXTENDS_DEPTH:
        raise UserError("extends chain too deep", file=file, line=line, key="extends")
    base = _read(parent, chain, shipped.name if shipped else None)
    # A child names its own game: the parent's name and short name are not inherited.
    for key in ("name", "short"):
        base.data.pop(key, None)
    merged = _merge(base.data, data)
    where = {kp: at for kp, at in base.where.items() if _still_there(merged, kp)}
    where.update(own)
    return Source(merged, str(path), where)


def _merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """The child's keys over the parent's; a child's `null` for a key the parent has
    removes it (`events: {blocks: null}`: the game no longer reports blocks)."""
    out = dict(base)
    for key, value in child.items():
        old = out.get(key)
        if value is None and key in base:
            del out[key]
            continue
        out[key] = (
            _merge(old, value) if isinstance(value, dict) and isinstance(old, dict) else value
        )
    return out


def _still_there(data: Any, keypath: KeyPath) -> bool:
    """Whether the merged data still holds `keypath` as the parent wrote it (the child
    may have replaced a list: its old items' lines must not be blamed)."""
    for part in keypath:
        in_dict = isinstance(data, dict) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if in_dict or in_list:
            data = data[part]
        else:
            return False
    return True
