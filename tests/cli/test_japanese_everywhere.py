"""`--lang ja` reaches every page and terminal table: no English left but names and numbers.

Each command (run, diff, sweep, ladder, tune, check, cards) is run twice on the
same small games, once in Japanese and once in English. From each terminal
output and page the visible text is taken (a page's tags, scripts, styles and
SVG metadata dropped; of attributes only alt and title, which a reader sees),
and every ASCII word in it must be a name a designer types or reads as it is:
the ALLOWED list below (bot, game, variant, knob, event, card, figure and file
names, flags, units). The English run of the same check must find English
words on every output, so a check that looks at nothing can't pass.

Also: `lang: ja` in the variant and $BALANCER_LANG=ja choose Japanese as
`--lang ja` does, for the commands that now take it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from balancer.cli import cli as main
from tests.helpers import VARIANTS

pytestmark = pytest.mark.usefixtures("engine_unchecked")

# Every ASCII word a Japanese page or table may show: names, as typed or as shipped.
ALLOWED = frozenset(
    {
        # the program, its commands and their flags and formats
        "balancer", "run", "diff", "sweep", "ladder", "tune", "check", "cards", "events",
        "seed", "games", "format", "md", "json", "csv/json", "Holm", "holm",
        # statistics' own names and symbols
        "T²",
        # the game, variants and files of this test
        "kimekimera", "kk-2p", "c.yaml",
        "report.html", "report.json", "summary.md", "cards.csv", "sweep.csv", "sweep.svg",
        "index.html", "ladder.csv", "ladder.html", "tune.csv", "tune.svg", "tune.html",
        # the folders and files the test names (-o, --html) and a sweep's point folders
        "sw", "sw2", "lad", "tn", "d.html", "r1/cards.csv", "000-rounds", "001-rounds",
        "002-rounds", "003-rounds", "4_floor_at_zero", "5_floor_at_zero",
        "other", "reports/diff/kk-2p-vs-other/a", "reports/diff/kk-2p-vs-other/b",
        "reports/diff/kk-2p-vs-other/diff.html",
        # bots
        "expected", "random",
        # cards.csv's columns, named in the card-impact note
        "p_holm", "significant",
        # the variant's keys and values, as the YAML writes them (report.html's variant table)
        "name", "game", "players", "seat_rotation", "lang", "ja", "true", "false",
        "free_chimeras", "rounds", "rules.rounds", "rotate_first_player", "breeding_optional",
        "leftover",
        "discard", "robot_replacement", "at_next_breeding", "reshuffle_discards",
        "colour_bonus.1", "colour_bonus.2", "grey_blocks_colour_bonus", "floor_at_zero",
        # the game's events and card kinds
        "colour_bonus_1", "colour_bonus_2", "exact_hits", "robots_made", "reshuffles",
        "grey", "rainbow",
        # figure names (expect:, tune --target, sweep --figure, diff rows)
        "seat_win_share.<seat>", "seat_score_mean.<seat>", "events.<event>.per_game",
        "events.<event>.share_of_games", "margin.mean", "length.mean", "seat_win_share.0",
        "events.colour_bonus_1.per_game", "events.colour_bonus_2.per_game",
        "events.exact_hits.per_game", "events.robots_made.per_game", "events.reshuffles.per_game",
        "events.colour_bonus_1.share_of_games", "events.colour_bonus_2.share_of_games",
        "events.exact_hits.share_of_games", "events.robots_made.share_of_games",
        "events.reshuffles.share_of_games", "seat_win_share.1", "seat_score_mean.0",
        "seat_score_mean.1",
        # how the games played: a diff's section and rows, a sweep's columns
        "how_it_plays.<figure>", "lead_changes.mean", "decided_at.mean", "comeback.share",
        "drama.mean", "leader_wins_25.share", "leader_wins_50.share", "leader_wins_75.share",
        "how_it_plays.lead_changes.mean", "how_it_plays.decided_at.mean",
        "how_it_plays.comeback.share", "how_it_plays.drama.mean",
        "how_it_plays.leader_wins_25.share", "how_it_plays.leader_wins_50.share",
        "how_it_plays.leader_wins_75.share", "decision_share.share",
        "how_it_plays.decision_share.share",
        # --tolerance's kinds (win=0.01, ...), as the games-needed line names them
        "win", "score", "margin", "event", "share", "play",
        # expect: bounds, as the YAML writes them
        "within", "at_least", "at_most",
    }
)  # fmt: skip

# A word and the name-characters around it: `events.exact_hits.per_game` is one token.
TOKEN = re.compile(r"[A-Za-z0-9_.<>/²\-]*[A-Za-z]{2,}[A-Za-z0-9_.<>/²\-]*")


class _Visible(HTMLParser):
    """The text a browser shows: no tags, scripts, styles or SVG metadata; alt and title."""

    HIDDEN = frozenset({"script", "style", "metadata"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

        self.glue = False  # after a <wbr>: the text goes on the same word

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        self.parts += [value for key, value in attrs if key in ("alt", "title") and value]
        # <wbr> only lets a line break there (`length.<wbr>mean` reads length.mean).
        self.glue = tag == "wbr" and bool(self.parts)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            if self.glue:
                self.parts[-1] += data
            else:
                self.parts.append(data)
        self.glue = False


def visible_text(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return "\n".join(parser.parts)


def english_words(text: str) -> set[str]:
    """The ASCII words of `text` that are not in ALLOWED (leading dashes and trailing
    punctuation dropped: `--seed` is seed, `r1/` is r1)."""
    text = text.replace("\\", "")  # Markdown's escapes: kk\-2p is kk-2p
    words = {t.strip("./-") for t in TOKEN.findall(text)}
    return {w for w in words if re.search(r"[A-Za-z]{2,}", w) and w not in ALLOWED}


def test_the_check_sees_english_and_passes_names() -> None:
    page = (
        "<html><head><title>kk-2p</title><style>body { color: red }</style></head><body>"
        '<p title="hidden words">勝率 <b>expected</b> 0.5</p><img alt="a chart">'
        '<script>var x = "code";</script><svg><metadata>Matplotlib</metadata></svg>'
        '<a href="000-rounds=4/report.html">レポート</a><th>margin.<wbr>mean</th></body></html>'
    )
    text = visible_text(page)
    assert english_words(text) == {"hidden", "words", "chart"}  # `a`: one letter
    assert english_words("--seed 5, events.exact_hits.per_game; r1/ 95%信頼区間") == set()


# -- the outputs, in both languages ---------------------------------------------------

CHECK_YAML = (
    f"extends: {VARIANTS / 'kk-2p.yaml'}\ngames: 40\nexpect:\n"
    "  length.mean: {within: [4, 6]}\n  seat_win_share.0: {at_least: 0.9}\n"
    "  margin.mean: {at_most: 9}\n"
)


def _outputs(folder: Path, lang_args: list[str]) -> dict[str, str]:
    """Every terminal output and page of the seven commands, by name, as visible text."""
    kk = str(VARIANTS / "kk-2p.yaml")
    (folder / "c.yaml").write_text(CHECK_YAML, encoding="utf-8")
    runner = CliRunner()
    out: dict[str, str] = {}

    def cli(name: str, *args: str) -> None:
        result = runner.invoke(main, [*args, *lang_args], catch_exceptions=False)
        assert result.exit_code in (0, 3), (name, result.output)  # check: 3, a target failed
        out[name] = result.output.replace(str(folder), "")

    cli("run", "run", kk, "-n", "40", "-q", "-o", "r1")
    cli("run again", "run", kk, "-n", "40", "-s", "5", "-q", "-o", "r2")
    cli("diff table", "diff", "r1", "r2", "--html", "d.html")
    cli("diff md", "diff", "r1", "r2", "--format", "md")
    # Variant files: played first (the lines saying where), knobs and bots that differ.
    (folder / "other.yaml").write_text(
        f"extends: {kk}\nname: other\nbots: random\nrules:\n  rounds: 4\n", encoding="utf-8"
    )
    cli("diff of variant files", "diff", kk, "other.yaml", "-n", "30", "-q")
    cli("sweep table", "sweep", kk, "--set", "rules.rounds=4,5", "-n", "30", "-q", "-o", "sw")
    cli("sweep md", "sweep", kk, "--set", "rules.rounds=4,5", "-n", "30", "-q", "-o", "sw",
        "--format", "md")  # fmt: skip
    cli("sweep of two knobs", "sweep", kk, "--set", "rules.rounds=4,5", "--set",
        "rules.floor_at_zero=true,false", "-n", "20", "-q", "-o", "sw2")  # fmt: skip
    cli("ladder table", "ladder", "kimekimera", "-p", "2", "--bots", "random,expected",
        "-n", "40", "-q", "-o", "lad")  # fmt: skip
    cli("tune table", "tune", kk, "--knob", "rules.rounds=4..6", "--target", "length.mean=5",
        "-n", "120", "-q", "-o", "tn")  # fmt: skip
    cli("check table", "check", "c.yaml", "-q")
    cli("cards table", "cards", "r1")
    pages = {
        "summary.md": "r1/summary.md",
        "report.html": "r1/report.html",
        "diff page": "d.html",
        "sweep index": "sw/index.html",
        "sweep point's report": "sw/000-rounds=4/report.html",
        "heatmap sweep index": "sw2/index.html",
        "ladder page": "lad/ladder.html",
        "tune page": "tn/tune.html",
    }
    for name, path in pages.items():
        text = (folder / path).read_text(encoding="utf-8")
        out[name] = visible_text(text) if path.endswith(".html") else text
    return out


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, str]]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("BALANCER_LANG", raising=False)
        both = {}
        for lang, args in (("ja", ["--lang", "ja"]), ("en", [])):
            folder = tmp_path_factory.mktemp(f"lang-{lang}")
            patch.chdir(folder)  # reports/index.html and every folder land here
            both[lang] = _outputs(folder, args)
        yield both


NAMES = [
    "run", "run again", "diff table", "diff md", "diff of variant files", "sweep table",
    "sweep md", "sweep of two knobs", "heatmap sweep index", "ladder table",
    "tune table", "check table", "cards table", "summary.md", "report.html", "diff page",
    "sweep index", "sweep point's report", "ladder page", "tune page",
]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_japanese_output_has_no_english_but_names(
    outputs: dict[str, dict[str, str]], name: str
) -> None:
    left = english_words(outputs["ja"][name])
    assert not left, f"{name}: English left in Japanese output: {sorted(left)}"
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", outputs["ja"][name]), name


@pytest.mark.parametrize(
    "name", ["summary.md", "report.html", "sweep point's report", "diff table"]
)
def test_how_it_plays_is_on_the_pages_in_either_language(
    outputs: dict[str, dict[str, str]], name: str
) -> None:
    """The section on how the games played (its title on a report, its figures' names in a
    diff) is there in both languages, so the check above does read it."""
    said = {
        "summary.md": ("ゲームの展開", "How it plays"),
        "report.html": ("ゲームの展開", "How it plays"),
        "sweep point's report": ("首位の勝率", "leader's win share"),  # the curve's axis
        "diff table": ("how_it_plays.<figure>", "how_it_plays.<figure>"),
    }[name]
    for lang, words in zip(("ja", "en"), said, strict=True):
        assert words in outputs[lang][name], (lang, name)


@pytest.mark.parametrize("name", NAMES)
def test_english_output_fails_the_same_check(outputs: dict[str, dict[str, str]], name: str) -> None:
    # The control: the check finds English where there is English.
    assert english_words(outputs["en"][name]), name


# -- the language chosen without --lang -------------------------------------------------


def test_a_variants_lang_and_the_environment_choose_japanese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BALANCER_LANG", raising=False)
    (tmp_path / "c.yaml").write_text(CHECK_YAML + "lang: ja\n", encoding="utf-8")
    runner = CliRunner()
    by_file = runner.invoke(main, ["check", "c.yaml", "-q"], catch_exceptions=False)
    assert "合格 1、不合格 1、判定不能 1" in by_file.output
    flag_wins = runner.invoke(main, ["check", "c.yaml", "-q", "--lang", "en"])
    assert "1 passed, 1 failed, 1 undecided" in flag_wins.output
    monkeypatch.setenv("BALANCER_LANG", "ja")
    ladder = runner.invoke(
        main, ["ladder", "kimekimera", "-p", "2", "--bots", "random,expected", "-n", "40", "-q"]
    )
    assert ladder.exit_code == 0, ladder.output
    assert "直接対決" in ladder.output and "head to head" not in ladder.output


def test_the_progress_line_and_its_announcement_in_japanese() -> None:
    import io

    from balancer.cli.progress import Progress, bar_line

    line = bar_line("kk-2p", 5, 15, 2.0, lang="ja")
    assert line.endswith("5/15   33%  2.5 ゲーム/秒  残り 0:04"), line
    assert english_words(bar_line("kk-2p", 5, 15, 2.0)) == {"games/s", "ETA"}  # the control
    stream = io.StringIO()
    Progress(40, "kk-2p", False, stream=stream, terminal=False, lang="ja").started(2)
    assert stream.getvalue() == "balancer: kk-2p を 40 ゲーム、2 ワーカーでプレイ中\n"
    assert english_words(stream.getvalue()) == set()


# -- the analysis records' sentences, translated at the edge -------------------------------


@pytest.mark.parametrize(
    ("english", "japanese"),
    [
        (
            "rules_version differs (A 2, B 3): part of any change may come from the program, "
            "not the variant",
            "rules_version が違う（A 2、B 3）: "
            "変化の一部はバリアントでなくプログラムの違いによるかもしれない",
        ),
        (
            "stopped early after 400 games per run (at most 5000): every win share is changed "
            "or equivalent.",
            "各ラン 400 ゲームで早期終了（最大 5000）: "
            "すべての勝率が「有意差あり」か「同等」に決まった。",
        ),
        ("  every seat: heuristic → random", "  全席: heuristic → random"),
        ("  seat 2 cautious parameters: {} → {a: 1}", "  席 2 cautious のパラメータ: {} → {a: 1}"),
        ("no skill gap: random is the best bot", "腕の差なし: random が最も強いボット"),
    ],
)
def test_records_sentences_in_japanese(english: str, japanese: str) -> None:
    from balancer.i18n.phrases import phrase

    assert phrase(english, "ja") == japanese
    assert phrase(english, "en") == english  # English is the record itself
    assert english_words(japanese) <= {"rules_version", "heuristic", "cautious"}


def test_a_sentence_no_pattern_knows_passes_through() -> None:
    # ...and is then caught by the outputs' check above, as English on a Japanese page.
    from balancer.i18n.phrases import phrase

    assert phrase("a brand-new sentence", "ja") == "a brand-new sentence"
    assert phrase(None, "ja") == ""
