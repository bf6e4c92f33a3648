"""The words of the reports, in English (the default and fallback) or Japanese.

`text(key, lang, **fields)` looks a phrase up in the language's catalog
(`en.py`, `ja.py`: plain dicts of `str.format` templates, the same keys and
fields in both, which tests/unit/test_i18n.py checks) and fills in its fields.

A game's own words (its title, its length unit, each event's name and
meaning) live in the game's package, beside the events it declares:
`games/<g>/events.py` holds the English meanings and `games/<g>/names_ja.py`
the Japanese, so whoever adds an event to a game writes its words in the same
package, and the test that every event has them fails there. `game_texts`
reads them; a game without Japanese words falls back to English.

Which language a run writes in: `--lang`, else the variant's `lang:`, else
$BALANCER_LANG, else English (`choose`). The choice is recorded in the
resolved variant (report.json), so report.html and summary.md stay a
function of the report folder.
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from balancer import environment
from balancer.errors import UserError

LANGS = ("en", "ja")
DEFAULT_LANG = "en"
ENV_VAR = environment.LANG


def _catalog(lang: str) -> Mapping[str, str]:
    module = importlib.import_module(f"balancer.i18n.{lang}")
    catalog: Mapping[str, str] = module.CATALOG
    return catalog


def text(key: str, lang: str | None = None, /, **fields: Any) -> str:
    """The phrase `key` in `lang` (English when the language lacks it), fields filled in."""
    template = None
    if lang and lang != DEFAULT_LANG and lang in LANGS:
        template = _catalog(lang).get(key)
    if template is None:
        template = _catalog(DEFAULT_LANG)[key]  # a missing English key is a bug: KeyError
    return template.format(**fields) if fields else template.format()


def check_lang(value: Any, where: str) -> str:
    """`value` if it names a language balancer writes, else a UserError naming `where`."""
    if isinstance(value, str) and value in LANGS:
        return value
    raise UserError(f"expected {' or '.join(LANGS)}, not {value!r}", key=where)


def choose(flag: str | None, variant_lang: str | None) -> str | None:
    """The run's language: `--lang`, else the variant's `lang:`, else $BALANCER_LANG.

    None when none of them says (the reports are then in English). The
    environment is the weakest: it is a standing preference, while a variant
    file or a flag is said for this run.
    """
    if flag is not None:
        return check_lang(flag, "--lang")
    if variant_lang is not None:
        return variant_lang
    return environment.lang()


def report_lang(variant: Mapping[str, Any]) -> str:
    """The language a report's resolved variant records (English when it records none)."""
    lang = variant.get("lang")
    return lang if isinstance(lang, str) and lang in LANGS else DEFAULT_LANG


# -- a game's own words ------------------------------------------------------------


@dataclass(frozen=True)
class GameTexts:
    """A game's words in one language: title, length unit, each event's name and meaning."""

    title: str
    length_unit: str
    event_names: Mapping[str, str]
    event_meanings: Mapping[str, str]

    def event_name(self, event: str) -> str:
        return self.event_names.get(event, event)

    def event_meaning(self, event: str) -> str:
        return self.event_meanings.get(event, "")


def game_texts(game: str, lang: str, length_unit: str | None = None) -> GameTexts:
    """`game`'s words in `lang`; English (the game's own ids) where there are none.

    `length_unit` is the report's own unit, used for English and for a game
    balancer doesn't know. A report of an unknown game gets its ids back.
    """
    from balancer import games

    unit = length_unit or ""
    if games.canonical(game) is None:
        return GameTexts(game, unit, {}, {})
    definition = games.definition(game)
    spec = definition.spec
    texts = GameTexts(spec.name, unit or spec.length_unit, {}, dict(definition.event_meanings))
    if lang == DEFAULT_LANG:
        return texts
    local = definition.local_names(lang)
    if local is None:
        return texts
    return GameTexts(
        title=local.title,
        length_unit=local.length_units.get(texts.length_unit, texts.length_unit),
        event_names={name: label for name, (label, _) in local.events.items()},
        event_meanings={
            **texts.event_meanings,
            **{name: meaning for name, (_, meaning) in local.events.items()},
        },
    )


# -- text in a terminal -------------------------------------------------------------


def width(s: str) -> int:
    """Columns `s` takes in a terminal: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def ljust(s: str, columns: int) -> str:
    return s + " " * max(0, columns - width(s))


def rjust(s: str, columns: int) -> str:
    return " " * max(0, columns - width(s)) + s
