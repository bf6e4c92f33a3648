"""Kimekimera in Japanese: the seed's own words for the game and its events.

The words are the seed's (『キメキメラ』, オオシマハル): 「マイキメラ」, 「テーマキメラ」,
「交配」, 「色合わせボーナス」, 「グレーカード」, 「ロボット」, 「山札」, 「ラウンド」.
EVENTS is keyed exactly by SPEC.events (tests/unit/test_i18n.py checks it): name, meaning.
"""

TITLE = "キメキメラ"
LENGTH_UNITS = {"rounds": "ラウンド"}

EVENTS: dict[str, tuple[str, str]] = {
    "colour_bonus_1": (
        "色合わせボーナス（1色）",
        "テーマキメラと色がちょうど1色合ったマイキメラの採点1回（プレイヤー×ラウンド）",
    ),
    "colour_bonus_2": (
        "色合わせボーナス（2色）",
        "テーマキメラと色が2色合ったマイキメラの採点1回（プレイヤー×ラウンド）",
    ),
    "exact_hits": (
        "誤差ゼロ",
        "マイキメラの合計値がテーマキメラと同じ（誤差0、ロボットを含む）採点1回",
    ),
    "robots_made": (
        "ロボット",
        "交配で生まれた新しいマイキメラがグレーカードを含んだ（ロボット）",
    ),
    "reshuffles": ("山札の作り直し", "捨て札を切り直して新しい山札にした"),
}
