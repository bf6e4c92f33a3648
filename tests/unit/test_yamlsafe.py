"""The safe YAML loader: every bad file is a one-line UserError with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer import yamlsafe
from balancer.errors import UserError
from balancer.yamlsafe import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    Loaded,
    format_keypath,
    load_yaml,
    load_yaml_text,
)
from tests.helpers import safety_net
from tests.helpers import write_file as write

SAMPLE = (
    "name: x\n"
    "game: fish-dash-cash\n"
    "players: 5\n"
    "rules:\n"
    "  hand_size: 5\n"
    "scoring:\n"
    "  cash_value: count\n"
)


def error_of(tmp_path: Path, content: str | bytes) -> tuple[str, str]:
    """Load `content` from a file; return (the file's name, the error line)."""
    path = write(tmp_path, content)
    with pytest.raises(UserError) as info:
        load_yaml(path)
    message = info.value.format_message()
    assert "\n" not in message
    return str(path), message


def assert_at(message: str, path: str, line: int, *words: str) -> None:
    assert message.startswith(f"{path}:{line}: "), message
    for word in words:
        assert word in message, message


# --- success -----------------------------------------------------------------


def test_sample_file_data_and_lines(tmp_path: Path) -> None:
    loaded = load_yaml(write(tmp_path, SAMPLE))
    assert isinstance(loaded, Loaded)
    assert loaded.path == str(tmp_path / "v.yaml")
    assert loaded.data == {
        "name": "x",
        "game": "fish-dash-cash",
        "players": 5,
        "rules": {"hand_size": 5},
        "scoring": {"cash_value": "count"},
    }
    assert loaded.lines[()] == 1
    assert loaded.lines[("players",)] == 3
    assert loaded.lines[("rules",)] == 4
    assert loaded.lines[("rules", "hand_size")] == 5
    assert loaded.lines[("scoring", "cash_value")] == 7


def test_lists_nested_keys_and_line_of() -> None:
    text = (
        "# a comment first\n"
        "seats:\n"
        "  - heuristic\n"
        "  - name: random\n"
        "    weight: 2\n"
        "  - [a, b]\n"
        "rules: {x: 1,\n"
        "        y: [true, null, 1.5]}\n"
    )
    loaded = load_yaml_text(text, "v.yaml")
    assert loaded.data == {
        "seats": ["heuristic", {"name": "random", "weight": 2}, ["a", "b"]],
        "rules": {"x": 1, "y": [True, None, 1.5]},
    }
    assert loaded.lines[("seats",)] == 2
    assert loaded.lines[("seats", 0)] == 3
    assert loaded.lines[("seats", 1)] == 4
    assert loaded.lines[("seats", 1, "weight")] == 5
    assert loaded.lines[("seats", 2, 1)] == 6
    assert loaded.lines[("rules", "y")] == 8
    assert loaded.lines[("rules", "y", 2)] == 8
    # A key the file lacks is placed at its nearest parent.
    assert loaded.line_of(("rules", "missing", "deeper")) == 7
    assert loaded.line_of(("nothing",)) == 1
    assert loaded.line_of(()) == 1


def test_alias_copies_data_and_reports_the_line_of_use() -> None:
    text = "base: &b\n  x: 1\nother:\n  - 0\n  - *b\n"
    loaded = load_yaml_text(text, "v.yaml")
    assert loaded.data == {"base": {"x": 1}, "other": [0, {"x": 1}]}
    assert loaded.lines[("other", 1)] == 5
    assert loaded.lines[("other", 1, "x")] == 2
    # Each use is its own copy, so the caller can edit one safely.
    assert loaded.data["base"] is not loaded.data["other"][1]


def test_scalars_stay_plain_data() -> None:
    text = "d: 2024-01-01\ne: =\nf: yes\ng: 0x1f\nh: 1.0e+5\ni: '<<'\nj: <<\nk: ~\n7: seven\n"
    data = load_yaml_text(text, "v.yaml").data
    assert data == {
        "d": "2024-01-01",
        "e": "=",
        "f": True,
        "g": 31,
        "h": 100000.0,
        "i": "<<",
        "j": "<<",
        "k": None,
        7: "seven",
    }


def test_bom_is_accepted() -> None:
    assert load_yaml_text(b"\xef\xbb\xbfa: 1\n", "v.yaml").data == {"a": 1}
    assert load_yaml_text("\ufeffa: 1\n", "v.yaml").data == {"a": 1}


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n", "\n\n"])
def test_empty_file_gives_none(tmp_path: Path, text: str) -> None:
    loaded = load_yaml(write(tmp_path, text))
    assert loaded.data is None
    assert loaded.lines == {(): 1}


def test_nesting_up_to_the_limit_is_fine() -> None:
    depth = MAX_DEPTH - 1
    assert load_yaml_text("[" * depth + "]" * depth, "v.yaml").data is not None


def test_format_keypath() -> None:
    assert format_keypath(("rules", "hand_size")) == "rules.hand_size"
    assert format_keypath(("seats", 2, "bot")) == "seats[2].bot"
    assert format_keypath((True, None)) == "true.null"
    assert format_keypath(()) == ""


# --- the file itself ---------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(UserError, match="no such file") as info:
        load_yaml(path)
    assert info.value.format_message().startswith(f"{path}: ")


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is a directory") as info:
        load_yaml(tmp_path)
    assert str(tmp_path) in info.value.format_message()


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, SAMPLE)

    # Tests may run as root, who can read anything; fake the refusal.
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(yamlsafe, "open", refuse, raising=False)
    with pytest.raises(UserError, match="permission denied") as info:
        load_yaml(path)
    assert str(path) in info.value.format_message()


def test_file_too_large(tmp_path: Path) -> None:
    path = write(tmp_path, b"#" * (MAX_BYTES + 1))
    with pytest.raises(UserError, match="larger than 1 MiB") as info:
        load_yaml(path)
    assert str(path) in info.value.format_message()
    with pytest.raises(UserError, match="larger than 1 MiB"):
        load_yaml_text("#" * (MAX_BYTES + 1), "v.yaml")


def test_non_utf8_names_the_line(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, b"a: 1\nb: 2\nc: caf\xe9\n")
    assert_at(message, path, 3, "UTF-8", "0xe9")


def test_control_character_names_the_line(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: 1\nb: x\x07y\n")
    assert_at(message, path, 2, "U+0007")


# --- YAML syntax --------------------------------------------------------------


def test_syntax_error(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: 1\nb: [1, 2\nc: 3\n")
    assert message.startswith(f"{path}:")
    assert "invalid YAML" in message


def test_tab_indentation(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "rules:\n  a: 1\n\tb: 2\n")
    assert_at(message, path, 3, "tabs")


def test_two_documents(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: 1\n---\nb: 2\n")
    assert_at(message, path, 2, "one YAML document")


@pytest.mark.parametrize(
    ("text", "line", "shown"),
    [
        ("a: 1\nb: !!python/object:os.system ls\n", 2, "!!python/object:os.system"),
        ("a: 1\nb:\n  c: !!python/tuple [1, 2]\n", 3, "!!python/tuple"),
        ("a: !!set {x, y}\n", 1, "!!set"),
        ("a: !!timestamp 2024-01-01\n", 1, "!!timestamp"),
        ("a:\n  - !mine 1\n", 2, "!mine"),
    ],
)
def test_unknown_tags(tmp_path: Path, text: str, line: int, shown: str) -> None:
    path, message = error_of(tmp_path, text)
    assert_at(message, path, line, "unsupported tag", shown)


def test_bad_value_for_explicit_tag(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: 1\nb: !!int twelve\n")
    assert_at(message, path, 2, "b:", "not a valid integer")


def test_overlong_number(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: " + "1" * 5000 + "\n")
    assert_at(message, path, 1, "a:", "too long")


# --- mappings -----------------------------------------------------------------


def test_duplicate_key_names_both_lines(tmp_path: Path) -> None:
    path, message = error_of(
        tmp_path, "name: x\nrules:\n  hand_size: 5\n  deck: 2\n  hand_size: 6\n"
    )
    assert_at(message, path, 5, "rules.hand_size", "duplicate key", "line 3", "line 5")


def test_duplicate_key_at_top_level(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "players: 4\ngame: g\nplayers: 5\n")
    assert_at(message, path, 3, "players", "line 1", "line 3")


@pytest.mark.parametrize(
    ("text", "kind"),
    [("a: 1\n? [x, y]\n: 2\n", "a list"), ("a: 1\n{x: 1}: 2\n", "a mapping")],
)
def test_key_must_be_scalar(tmp_path: Path, text: str, kind: str) -> None:
    path, message = error_of(tmp_path, text)
    assert_at(message, path, 2, "key must be a single value", kind)


def test_merge_key_is_rejected(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "base: &b\n  x: 1\nchild:\n  <<: *b\n  y: 2\n")
    assert_at(message, path, 4, "child", "merge keys", "extends")


# --- aliases and size ---------------------------------------------------------


def test_alias_bomb_is_refused_by_the_node_count(tmp_path: Path) -> None:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        refs = ", ".join([f"*l{level - 1}"] * 10)
        lines.append(f"l{level}: &l{level} [{refs}]")
    # Refused by the node count while composing, before any expansion: bounded work.
    with safety_net("the alias bomb"):
        path, message = error_of(tmp_path, "\n".join(lines) + "\n")
    assert "too many values" in message
    assert message.startswith(f"{path}:")
    assert f"{MAX_NODES}" in message


def test_recursive_alias(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: 1\nb: &loop\n  c:\n    - *loop\n")
    assert_at(message, path, 4, "b.c[0]", "recursive alias")


def test_undefined_alias(tmp_path: Path) -> None:
    path, message = error_of(tmp_path, "a: 1\nb: *nowhere\n")
    assert_at(message, path, 2, "undefined alias")


def test_too_many_plain_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A smaller limit keeps the test fast; the bomb test above uses the real one.
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 1000)
    path, message = error_of(tmp_path, "[" + "0," * 1005 + "]")
    assert_at(message, path, 1, "too many values")


# --- nesting ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        "{a: " * 10_000 + "1" + "}" * 10_000,
        "".join(f"{'  ' * i}a:\n" for i in range(200)) + "  " * 200 + "a: 1\n",
    ],
    ids=["lists", "mappings", "block"],
)
def test_deep_nesting(tmp_path: Path, text: str) -> None:
    path, message = error_of(tmp_path, text)
    assert message.startswith(f"{path}:")
    assert "nested too deeply" in message


def test_deep_nesting_through_aliases(tmp_path: Path) -> None:
    half = MAX_DEPTH - 10
    text = f"a: &a {'[' * half}1{']' * half}\nb: {'[' * half}*a{']' * half}\n"
    path, message = error_of(tmp_path, text)
    assert_at(message, path, 2, "nested too deeply")


def test_recursion_error_from_composer(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(self: object) -> None:
        raise RecursionError

    monkeypatch.setattr(yamlsafe._Loader, "get_single_node", explode)
    with pytest.raises(UserError, match="nested too deeply"):
        load_yaml_text(SAMPLE, "v.yaml")


# --- anything at all ----------------------------------------------------------

# No deadline (the suite's profile): an example's time says nothing of its correctness.
FUZZ = settings(max_examples=150)

# Characters that mean something to YAML, or to its reader, or to UTF-8.
_YAML_CHARS = list(":-[]{}&*!|>?,#%@`'\"\t\n\r \\<=~") + [
    "\x00",
    "\x85",
    "\ufeff",
    "\u2028",
    "\ud800",
    "!!python/object:os.system ",
    "*a",
    "&a ",
    "<<: ",
    "---\n",
    "  ",
]


def check_loads_or_user_error(content: str | bytes) -> None:
    try:
        loaded = load_yaml_text(content, "fuzz.yaml")
    except UserError as exc:
        message = exc.format_message()
        assert message.startswith("fuzz.yaml")
        assert "\n" not in message
    else:
        assert isinstance(loaded, Loaded)
        assert loaded.lines[()] == 1


@FUZZ
@given(st.text())
def test_any_text(text: str) -> None:
    check_loads_or_user_error(text)


@FUZZ
@given(st.binary())
def test_any_bytes(raw: bytes) -> None:
    check_loads_or_user_error(raw)


@st.composite
def mutated_sample(draw: st.DrawFn) -> str:
    text = SAMPLE
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "repeat"]))
        if op == "insert":
            piece = draw(st.sampled_from(_YAML_CHARS) | st.text(max_size=3))
            text = text[:at] + piece + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)) :]
        else:
            end = min(len(text), at + draw(st.integers(1, 20)))
            text = text[:at] + text[at:end] * draw(st.integers(2, 4)) + text[at:]
    return text


@FUZZ
@given(mutated_sample(), st.booleans())
def test_mutated_sample(text: str, as_bytes: bool) -> None:
    check_loads_or_user_error(text.encode("utf-8", "surrogatepass") if as_bytes else text)
