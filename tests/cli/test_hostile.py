"""Hostile variant files: whatever a hand (or a fuzzer) writes, one line and exit 2, bounded.

Hypothesis builds malformed and adversarial variants — wrong types at every
key, unknown keys at every level, huge and negative numbers, deep nesting,
alias bombs, duplicate keys, tabs, bytes that are not UTF-8, extends cycles —
and each must end, through the real entry point, with exit code 2 (or 0 when
the mutation happened to leave a valid file) and, on error, exactly one line
on stderr naming the file, never a traceback. A known attack must be refused
by the guard meant for it (a node count, a depth, a size, a range), which keeps
the work bounded whatever the machine's speed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balancer import games
from balancer.cli import main
from tests.helpers import one_error_line, safety_net

VALID = {
    "name": "hostile",
    "game": "fish-dash-cash",
    "players": 4,
    "games": 3,
    "seed": 1,
    "bots": "random",
    "seat_rotation": False,
    "rules": {"hand_size": 5, "neko_ni_koban": True, "deck": {"copies": 1, "numbers": [0, 9]}},
    "scoring": {"cash_value": "count"},
}

junk_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=4),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
    st.sampled_from([*games.names(), "heuristic", "none", "1e5"]),
)


def _paths(data: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*prefix, key))
    return out


def _set(data: dict, path: tuple, value: object) -> dict:
    if not path:
        return value  # type: ignore[return-value]
    copy = dict(data)
    head, rest = path[0], path[1:]
    inner = copy.get(head)
    copy[head] = _set(inner if isinstance(inner, dict) else {}, rest, value) if rest else value
    return copy


@st.composite
def mutated_variants(draw: st.DrawFn) -> bytes:
    data: object = dict(VALID)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths[1:])) if isinstance(data, dict) else ()
        action = draw(st.sampled_from(["replace", "unknown_key", "delete", "nest"]))
        if not isinstance(data, dict):
            break
        if action == "replace":
            data = _set(data, path, draw(junk_values))
        elif action == "unknown_key":
            data = _set(data, (*path[:-1], draw(st.text(min_size=1, max_size=12))), 1)
        elif action == "delete" and len(path) == 1:
            data = {k: v for k, v in data.items() if k != path[0]}
        elif action == "nest":
            depth = draw(st.integers(1, 300))
            value: object = 1
            for _ in range(depth):
                value = {"a": value}
            data = _set(data, path, value)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    raw = text.encode()
    tweak = draw(st.sampled_from(["none", "tab", "bad_bytes", "duplicate", "truncate"]))
    if tweak == "tab":
        raw = raw.replace(b"\n  ", b"\n\t", 1)
    elif tweak == "bad_bytes":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\x00", b"\xe9"])) + raw[at:]
    elif tweak == "duplicate":
        raw = raw + b"players: 4\n"
    elif tweak == "truncate":
        raw = raw[: draw(st.integers(0, len(raw)))]
    return raw


def _check(path: Path, capsys: pytest.CaptureFixture[str]) -> int:
    with safety_net(f"validate {path.name}"):
        code = main(["validate", str(path)])
    assert code in (0, 2), (code, capsys.readouterr())
    if code == 2:
        # validate reports every mistake: one line each, each naming the file.
        err = capsys.readouterr().err
        lines = err.splitlines()
        assert lines and "Traceback" not in err, err
        assert all(line.startswith("balancer: error: ") and path.name in line for line in lines)
    else:
        assert "Traceback" not in capsys.readouterr().err
    return code


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=mutated_variants())
def test_mutated_variants_fail_cleanly(
    raw: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_bytes(raw)
    _check(path, capsys)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_arbitrary_bytes_fail_cleanly(
    raw: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "noise.yaml"
    path.write_bytes(raw)
    _check(path, capsys)


BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9)
    )
    + "game: fish-dash-cash\nplayers: 4\nbots: random\n"
)


# Each attack, and what the refusal must name: the guard meant for it.
ATTACKS = [
    (BOMB, "too many values"),
    ("game: &g [*g]\n", "recursive alias"),
    ("rules:\n" + "  " * 1 + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    (
        "game: fish-dash-cash\nplayers: 99999999999999999999999999999\nbots: random\n",
        "players: must be between",
    ),
    ("game: fish-dash-cash\nplayers: 4\ngames: -1\nbots: random\n", "games: must be between"),
    (
        "game: fdc\nplayers: 4\nbots: random\nrules:\n  deck: {numbers: [0, 99999999]}\n",
        "the deck would hold",
    ),
    ("game: !!python/object:os.system [echo hacked]\n", "unsupported tag"),
    ("game: fish-dash-cash\nplayers: 4\nbots: random\nseed: .nan\n", "seed: expected"),
    ("x" * (2 * 1024 * 1024), "larger than"),
]


@pytest.mark.parametrize(("text", "refused"), ATTACKS, ids=[refused for _, refused in ATTACKS])
def test_known_attacks(
    text: str, refused: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "attack.yaml"
    path.write_text(text)
    with safety_net("validate attack.yaml"):
        assert main(["validate", str(path)]) == 2
    line = one_error_line(capsys)
    assert "attack.yaml" in line and refused in line, line


def test_extends_cycle_through_three_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, parent in (("a", "b"), ("b", "c"), ("c", "a")):
        (tmp_path / f"{name}.yaml").write_text(f"extends: {parent}.yaml\n")
    assert _check(tmp_path / "a.yaml", capsys) == 2


def test_extends_of_a_directory_or_self(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.yaml").write_text("extends: sub\n")
    assert _check(tmp_path / "a.yaml", capsys) == 2
    (tmp_path / "self.yaml").write_text("extends: self.yaml\n")
    assert _check(tmp_path / "self.yaml", capsys) == 2
