"""Load hand-edited YAML files safely, remembering where every key came from.

A variant file is written by a person, so every way it can go wrong must end
in a one-line `UserError` naming the file (and the line and key path where
there is one), never a traceback:

- only the safe YAML types are built: mappings, lists, str, int, float, bool
  and null; any other tag (``!!python/object``, ``!!set``, ``!foo``) is an
  error, and so is a merge key (``<<``): variants share settings with
  ``extends:``, and one way to do it is easier to read than two;
- dates stay strings (no ``datetime``) and a lone ``=`` is the string ``=``;
  other plain scalars follow YAML 1.1 as PyYAML reads them (``yes`` is True,
  ``010`` is 8, ``1e5`` is a string but ``1.0e+5`` is a float);
- a duplicate key is an error naming both lines, not "the last one wins";
- the Python data is built here by walking the composed node graph, so
  aliases cannot blow up memory or time: every value produced is counted
  (an alias counts again each time it is used) and the walk stops at
  `MAX_NODES`; nesting stops at `MAX_DEPTH`; an alias inside its own anchor
  is an error.

Each alias is expanded into a fresh copy, so the caller may mutate the data
(for example when merging a child variant over its parent) without one edit
showing up in two places.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, NoReturn

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from balancer.errors import UserError
from balancer.files import FILE, FOLDER, kind_of

# Where a value sits in a loaded document: its keys and list indices from the top,
# ("players", 2, "bot"); every error about a hand-written file names one.
KeyPath = tuple[Any, ...]

MAX_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_NODES = 100_000
# Longer numbers are never meant for a variant file, and bounding them keeps
# int() and YAML 1.1 base-60 numbers (1:2:3:...) from taking quadratic time.
MAX_NUMBER_CHARS = 1000

_STD = "tag:yaml.org,2002:"
_STR, _NULL, _BOOL = _STD + "str", _STD + "null", _STD + "bool"
_INT, _FLOAT, _MERGE = _STD + "int", _STD + "float", _STD + "merge"
_SEQ, _MAP = _STD + "seq", _STD + "map"
_NUMBER_KIND = {_BOOL: "boolean", _INT: "integer", _FLOAT: "number"}

# Timestamps would give datetime objects and "=" resolves to a tag that
# SafeConstructor cannot build; as strings both are plain data the caller can
# check. The "yaml" resolver never matches anything.
_UNRESOLVED = {_STD + "timestamp", _STD + "value", _STD + "yaml"}

_LINE_BREAKS = ("\r\n", "\r", "\x85", "\u2028", "\u2029")


@dataclass(frozen=True)
class Loaded:
    """A parsed file: its data, the line of every key and list item, its name."""

    data: Any
    lines: dict[tuple[Any, ...], int]
    path: str

    def line_of(self, keypath: tuple[Any, ...]) -> int | None:
        """The line of `keypath`, or of its longest prefix the file has.

        A key the file lacks (a default, say) is reported at its parent.
        """
        keypath = tuple(keypath)
        for end in range(len(keypath), -1, -1):
            line = self.lines.get(keypath[:end])
            if line is not None:
                return line
        return None


def format_keypath(keypath: tuple[Any, ...]) -> str:
    """Show a key path the way a user would write it: ``rules.hand_size``, ``seats[2]``."""
    out = ""
    for part in keypath:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
            continue
        if isinstance(part, str):
            text = part
        elif part is None:
            text = "null"
        elif isinstance(part, bool):
            text = "true" if part else "false"
        else:
            text = repr(part)
        out += ("." if out else "") + _clip(text)
    return out


def load_yaml(path: str | os.PathLike[str]) -> Loaded:
    """Read and parse the YAML file at `path`; any problem is a `UserError`."""
    name = os.fsdecode(path)
    # Looked at before it is opened: a FIFO would block the open, /dev/zero never ends.
    kind = kind_of(name)
    if kind is None:
        raise UserError("no such file", file=name)
    if kind != FILE:
        shown = "a directory" if kind == FOLDER else kind
        raise UserError(f"is {shown}, not a file", file=name)
    try:
        # Non-blocking, should it have been swapped for a FIFO since: then it reads as empty.
        with open(name, "rb", opener=_open_nonblocking) as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_BYTES:
                _too_large(name)
            # Read one byte past the limit: pipes and devices report no size.
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise UserError("no such file", file=name) from None
    except IsADirectoryError:
        raise UserError("is a directory, not a file", file=name) from None
    except NotADirectoryError:
        raise UserError("no such file (a parent is not a directory)", file=name) from None
    except PermissionError:
        what = "is a directory, not a file" if os.path.isdir(name) else "permission denied"
        raise UserError(what, file=name) from None
    except OSError as exc:
        raise UserError(f"cannot read the file: {exc.strerror or exc}", file=name) from None
    except ValueError as exc:  # a NUL byte in the path, for one
        raise UserError(f"cannot open the file: {exc}", file=name) from None
    return load_yaml_text(raw, name)


def _open_nonblocking(name: str, flags: int) -> int:
    return os.open(name, flags | os.O_NONBLOCK)


def load_yaml_text(text_or_bytes: str | bytes | bytearray, path: str) -> Loaded:
    """Parse YAML given as text or as the bytes of a file; `path` names it in errors."""
    text = _decode(text_or_bytes, path)
    root = _compose(text, path)
    if root is None:
        return Loaded(data=None, lines={(): 1}, path=path)
    builder = _Builder(path)
    data = builder.build(root, (), 1)
    return Loaded(data=data, lines=builder.lines, path=path)


def _too_large(path: str) -> NoReturn:
    raise UserError(f"file is larger than {MAX_BYTES // (1 << 20)} MiB", file=path)


def _clip(text: str, limit: int = 40) -> str:
    # Keys and values can be as long as the file; an error stays one readable line.
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _decode(text_or_bytes: str | bytes | bytearray, path: str) -> str:
    if isinstance(text_or_bytes, str):
        text = text_or_bytes
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            _too_large(path)
    elif isinstance(text_or_bytes, bytes | bytearray | memoryview):
        raw = bytes(text_or_bytes)
        if len(raw) > MAX_BYTES:
            _too_large(path)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise UserError(
                f"not UTF-8 text: byte 0x{raw[exc.start]:02x} is not valid UTF-8"
                " (save the file as UTF-8)",
                file=path,
                line=line,
            ) from None
    else:
        raise TypeError(f"expected str or bytes, got {type(text_or_bytes).__name__}")
    return text.removeprefix("\ufeff")


class _Alias:
    """Where an alias was written, wrapping the node it refers to.

    The composer hands back the anchored node itself, which would give every
    use of an alias the anchor's line; errors and `Loaded.lines` want the
    line of the use.
    """

    __slots__ = ("node", "line")

    def __init__(self, node: Node, line: int) -> None:
        self.node = node
        self.line = line


class _Stop(Exception):
    """A limit hit while composing; turned into a UserError with the file name."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Loader(yaml.SafeLoader):
    """SafeLoader that only composes, bounding depth and size as it goes.

    The stock composer recurses once per nesting level, so deep input would
    otherwise end in RecursionError; it also counts nodes so that a huge flat
    file stops early instead of being composed in full first.
    """

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in _UNRESOLVED]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def __init__(self, text: str) -> None:
        self._depth = 0
        self._nodes = 0
        super().__init__(text)

    def compose_node(self, parent: Node | None, index: Any) -> Any:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            return _Alias(super().compose_node(parent, index), line)
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _Stop(f"too many values (more than {MAX_NODES})", line)
        if self._depth >= MAX_DEPTH:
            raise _Stop(f"nested too deeply (more than {MAX_DEPTH} levels)", line)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _compose(text: str, path: str) -> Node | None:
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except _Stop as exc:
        raise UserError(exc.message, file=path, line=exc.line) from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, path) from None
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, path) from None
    except yaml.YAMLError as exc:
        raise UserError(f"invalid YAML: {_clip(str(exc), 200)}", file=path) from None
    except RecursionError:
        # Only reachable when the caller is already deep in its own stack.
        raise UserError("nested too deeply", file=path) from None


def _syntax_error(exc: yaml.MarkedYAMLError, path: str) -> UserError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    if exc.context == "expected a single document in the stream":
        return UserError(
            "a file holds one YAML document; a second starts here", file=path, line=line
        )
    message = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem:
        # PyYAML phrases these to be read context first: "while scanning a
        # simple key, could not find expected ':'".
        message = exc.context
        if exc.context_mark is not None and exc.context_mark.line + 1 != line:
            message += f" (line {exc.context_mark.line + 1})"
        message += f", {exc.problem}"
    message = _clip(message, 200)
    if "'\\t'" in message:
        message += "; indent with spaces, not tabs"
    return UserError(f"invalid YAML: {message}", file=path, line=line)


def _reader_error(exc: yaml.reader.ReaderError, text: str, path: str) -> UserError:
    before = text[: exc.position]
    # Count lines the way YAML marks do, so all errors agree on numbering.
    for brk in _LINE_BREAKS:
        before = before.replace(brk, "\n")
    line = before.count("\n") + 1
    return UserError(
        f"character U+{exc.character:04X} is not allowed in YAML",
        file=path,
        line=line,
    )


def _show_tag(tag: str) -> str:
    shown = "!!" + tag[len(_STD) :] if tag.startswith(_STD) else tag
    return _clip(shown)


class _Builder:
    """Turns a composed node graph into plain Python data, recording lines."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: dict[tuple[Any, ...], int] = {(): 1}
        self.count = 0
        # Collections being built right now: meeting one again means an alias
        # refers to an enclosing anchor, which would never end.
        self.open: set[int] = set()
        # The line of the outermost alias being expanded: a limit hit deep in
        # an expansion is the fault of that use, not of the anchored text.
        self.via: int | None = None
        self.scalars = yaml.constructor.SafeConstructor()

    def fail(self, message: str, line: int, keypath: tuple[Any, ...]) -> NoReturn:
        key = format_keypath(keypath)
        if len(key) > 80:
            key = key[:40] + "..." + key[-37:]
        raise UserError(message, file=self.path, line=line, key=key or None)

    def build(self, item: Node | _Alias, keypath: tuple[Any, ...], depth: int) -> Any:
        node, line = _unwrap(item)
        self.count += 1
        if self.count > MAX_NODES:
            self.fail(
                f"too many values (more than {MAX_NODES}; is an alias used too often?)",
                self.via or line,
                keypath,
            )
        if depth > MAX_DEPTH:
            self.fail(
                f"nested too deeply (more than {MAX_DEPTH} levels)", self.via or line, keypath
            )
        if isinstance(item, _Alias) and self.via is None:
            self.via = line
            try:
                return self.build_node(node, line, keypath, depth)
            finally:
                self.via = None
        return self.build_node(node, line, keypath, depth)

    def build_node(self, node: Node, line: int, keypath: tuple[Any, ...], depth: int) -> Any:
        if isinstance(node, ScalarNode):
            return self.scalar(node, keypath)
        if id(node) in self.open:
            self.fail("an alias refers to its own anchor (recursive alias)", line, keypath)
        if isinstance(node, SequenceNode):
            self.expect_tag(node, _SEQ, "a list", keypath)
            self.open.add(id(node))
            out = []
            for index, child in enumerate(node.value):
                self.lines[keypath + (index,)] = _unwrap(child)[1]
                out.append(self.build(child, keypath + (index,), depth + 1))
            self.open.discard(id(node))
            return out
        if isinstance(node, MappingNode):
            self.expect_tag(node, _MAP, "a mapping", keypath)
            self.open.add(id(node))
            result = self.mapping(node, keypath, depth)
            self.open.discard(id(node))
            return result
        raise AssertionError(f"unexpected YAML node {node!r}")

    def mapping(self, node: MappingNode, keypath: tuple[Any, ...], depth: int) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        first_line: dict[Any, int] = {}
        for key_item, value_item in node.value:
            key_node, key_line = _unwrap(key_item)
            if key_node.tag == _MERGE:
                self.fail(
                    "merge keys (<<) are not supported; use 'extends:' or repeat the keys",
                    key_line,
                    keypath,
                )
            if not isinstance(key_node, ScalarNode):
                kind = "a list" if isinstance(key_node, SequenceNode) else "a mapping"
                self.fail(f"a key must be a single value, not {kind}", key_line, keypath)
            key = self.build(key_item, keypath, depth + 1)
            if key in first_line:
                self.fail(
                    f"duplicate key (first at line {first_line[key]}, again at line {key_line})",
                    key_line,
                    keypath + (key,),
                )
            first_line[key] = key_line
            self.lines[keypath + (key,)] = key_line
            out[key] = self.build(value_item, keypath + (key,), depth + 1)
        return out

    def expect_tag(self, node: Node, tag: str, kind: str, keypath: tuple[Any, ...]) -> None:
        if node.tag != tag:
            self.fail(
                f"unsupported tag {_show_tag(node.tag)} on {kind}",
                node.start_mark.line + 1,
                keypath,
            )

    def scalar(self, node: ScalarNode, keypath: tuple[Any, ...]) -> Any:
        tag, value = node.tag, node.value
        line = node.start_mark.line + 1
        # A plain "<<" only means "merge" as a key; as a value it is just text.
        if tag in (_STR, _MERGE):
            return value
        if tag == _NULL:
            return None
        kind = _NUMBER_KIND.get(tag)
        if kind is None:
            self.fail(f"unsupported tag {_show_tag(tag)}", line, keypath)
        if len(value) > MAX_NUMBER_CHARS:
            self.fail(f"{kind} is too long ({len(value)} characters)", line, keypath)
        try:
            if tag == _BOOL:
                return self.scalars.construct_yaml_bool(node)
            if tag == _INT:
                return self.scalars.construct_yaml_int(node)
            return self.scalars.construct_yaml_float(node)
        except (ValueError, KeyError, IndexError):
            # Only an explicit tag (!!int abc) gets here: resolved plain
            # scalars already match the type's pattern.
            self.fail(f"not a valid {kind}: {_clip(value)!r}", line, keypath)


def _unwrap(item: Node | _Alias) -> tuple[Node, int]:
    if isinstance(item, _Alias):
        return item.node, item.line
    return item, item.start_mark.line + 1
