"""Japanese for the sentences the analysis layers write in English.

A diff, a ladder or a seat-advantage test describes itself in English
records (`DiffTable.mode`, its warnings, a row's note, a Setup's lines):
those records are also the JSON contract, read by scripts, so they stay
English. The pages and terminal tables a person reads translate them at
the edge, here: each known sentence is a pattern over the English with
named parts, and its Japanese template re-uses those parts (names, numbers,
folders) untouched. A sentence no pattern knows passes through unchanged,
which tests/test_japanese_everywhere.py catches as English left on a page.

`phrase(line, lang)` is the identity for English, so English output stays
byte for byte what the records say.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Match = re.Match[str]

# (English pattern, whole line) -> Japanese; a template's {name} is the part the
# pattern named, itself translated first when it is a sentence in its own right.
_PATTERNS: list[tuple[re.Pattern[str], str]] = []


def _add(english: str, japanese: str) -> None:
    _PATTERNS.append((re.compile(english), japanese))


# -- a diff's header
_add(r"(?P<letter>[AB]): (?P<folder>.*) \((?P<about>.*)\)", "{letter}: {folder}（{about}）")
_add(r"game file changes \((?P<n>\d+)\):", "ゲームファイルの変更（{n}）:")
_add(r"game file: the same in A and B", "ゲームファイル: A と B で同じ")
_add(r"knobs that differ \((?P<n>\d+)\):", "違うノブ（{n}）:")
_add(r"knobs: the same in A and B", "ノブ: A と B で同じ")
_add(r"bots that differ \((?P<n>\d+)\):", "違うボット（{n}）:")
_add(r"bots: the same in A and B \((?P<who>.*)\)", "ボット: A と B で同じ（{who}）")
_add(r"bots: the same in A and B", "ボット: A と B で同じ")
_add(r"other settings that differ \((?P<n>\d+)\):", "違うその他の設定（{n}）:")
_add(r"(?P<bot>\S+) at every seat", "全席 {bot}")
_add(r"every seat(?P<what>.*?): (?P<a>.*) → (?P<b>.*)", "全席{what}: {a} → {b}")
_add(r"seat (?P<i>\d+)(?P<what>.*?): (?P<a>.*) → (?P<b>.*)", "席 {i}{what}: {a} → {b}")
_add(r"(?P<bot>\S+) parameters", "{bot} のパラメータ")
_add(
    r"(?P<game>.+), (?P<players>\d+) players, (?P<games>[\d,]+) games, seed (?P<seed>\d+), "
    r"rules v(?P<rules>\S+), balancer (?P<version>\S+)",
    "{game}、{players}人、{games}ゲーム、シード {seed}、ルール版 {rules}、balancer {version}",
)
_add(
    r"(?P<name>[^,]+), (?P<games>[\d,]+) games, seed (?P<seed>\d+)(?:, rules v(?P<rules>\S+), "
    r"balancer (?P<version>\S+))?",
    "{name}、{games}ゲーム、シード {seed}{versions}",
)
_add(r"(?P<game>.+), (?P<players>\d+) players", "{game}、{players}人")
_add(r"paired: same seed and games", "対応あり: 同じシードとゲーム数")
_add(r"unpaired: different seed or game count", "対応なし: シードかゲーム数が違う")
_add(
    r"anytime-valid: game g of A paired with game g of B, confidence sequences",
    "いつ止めても有効: A の g ゲーム目と B の g ゲーム目を対にした信頼系列",
)
_add(r"paired t", "対応のある t 検定")
_add(r"anytime betting CS", "いつ止めても有効な信頼系列（ベッティング法）")
_add(r"anytime asymptotic CS", "いつ止めても有効な信頼系列（漸近）")
_add(
    r"(?P<who>.+) was run into (?P<folder>.+/)(?P<again> \(the previous diff's run there "
    r"replaced\))?",
    "{who} を実行 → {folder}{replaced}",
)
_add(r"Welch t", "ウェルチの t 検定")
_add(
    r"unpaired: A played (?P<an>\d+) games from seed (?P<aseed>\d+), B (?P<bn>\d+) from seed "
    r"(?P<bseed>\d+), so each change is tested by Welch's t, which needs more games than a "
    r"paired test to see the same change\. To pair them, run B's variant with "
    r"(?P<flags>--seed \d+ --games \d+) \(or write (?P<seed>seed: \d+) and (?P<games>games: \d+) "
    r"in it\), "
    r"or diff the two variant files, which plays both with the same seed\.",
    "対応なし: A はシード {aseed} から {an} ゲーム、B はシード {bseed} から {bn} ゲームを"
    "プレイしたため、各変化はウェルチの t 検定で調べる（同じ変化を見分けるのに対応のある検定より"
    "多くのゲームが要る）。対応させるには B のバリアントを {flags} で実行する"
    "（またはファイルに {seed} と {games} と書く）か、2つのバリアントファイルどうしを diff する"
    "（両方を同じシードでプレイする）。",
)
_add(
    r"(?P<key>rules_version|balancer_version) differs \(A (?P<a>\S+), B (?P<b>\S+)\): "
    r"part of any change may come from the program, not the variant",
    "{key} が違う（A {a}、B {b}）: 変化の一部はバリアントでなくプログラムの違いによるかもしれない",
)
_add(
    r"stopped early after (?P<n>\d+) games per run \(at most (?P<most>\d+)\): "
    r"every win share is changed or equivalent\.",
    "各ラン {n} ゲームで早期終了（最大 {most}）: "
    "すべての勝率が「有意差あり」か「同等」に決まった。",
)
_add(
    r"not decided within (?P<most>\d+) games per run: played them all\.",
    "各ラン {most} ゲームでは決まらず: すべてプレイした。",
)
_add(r"games needed: no tolerance given", "必要なゲーム数: 許容幅の指定なし")
_add(
    r"games per run to detect a change of the tolerance \(80% power\): (?P<parts>.*)",
    "許容幅ぶんの変化を検出するのに必要な各ランのゲーム数（検出力 80%）: {parts}",
)
# -- the seat-advantage test and its notes
_add(
    r"Hotelling T² on seat shares \(per-game covariance\)",
    "ホテリングの T² 検定（席ごとの勝率、ゲームごとの共分散）",
)
_add(r"none \(no variation\)", "なし（ばらつきなし）")
_add(
    r"seats hold different bots without rotation: seat and bot are confounded, "
    r"so no seat-advantage test \(turn on seat_rotation to separate them\)",
    "席ごとに違うボットが座り席を回さないため、席とボットが交絡している: 席順の有利不利は検定しない"
    "（分けるには seat_rotation をオンに）",
)
_add(r"no skill gap: the ladder has no random bot", "腕の差なし: ラダーに random ボットがいない")
_add(r"no skill gap: random is the best bot", "腕の差なし: random が最も強いボット")
_add(r"too few seats or games to test", "席かゲームが少なすぎて検定できない")
_add(r"too few games to test", "ゲームが少なすぎて検定できない")


def _replaced(match: Match) -> str:
    return "（前回の diff の実行を置き換え）" if match.group("again") else ""


def _versions(match: Match) -> str:
    rules, version = match.groupdict().get("rules"), match.groupdict().get("version")
    return f"、ルール版 {rules}、balancer {version}" if rules else ""


_EXTRA: dict[str, Callable[[Match], str]] = {"versions": _versions, "replaced": _replaced}
# Parts that are sentences themselves (a mode, an "about", a list of bots).
_NESTED = ("about", "who", "what")


def phrase(line: str | None, lang: str | None) -> str:
    """`line` in `lang`: Japanese when a pattern knows the sentence, else `line` itself
    ("" for None, so a missing note stays falsy)."""
    if not line:
        return ""
    if lang != "ja":
        return line
    indent = line[: len(line) - len(line.lstrip(" "))]
    if indent:  # an item of a list (a Setup's changes): the indent kept, the item translated
        return indent + phrase(line[len(indent) :], lang)
    for pattern, template in _PATTERNS:
        match = pattern.fullmatch(line)
        if match is None:
            continue
        parts = {k: v or "" for k, v in match.groupdict().items()}
        for name in _NESTED:
            if parts.get(name):
                parts[name] = phrase(parts[name], lang)
        for name, make in _EXTRA.items():
            if "{" + name + "}" in template:
                parts[name] = make(match)
        return template.format(**parts)
    return line
