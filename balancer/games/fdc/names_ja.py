"""Fish! Dash! Cash! in Japanese: the seed's own words for the game and its events.

The words are the seed's (フィッシュ！ダッシュ！キャッシュ！, JIM GAMES):
「猫に小判」, 「縄張り」, 「お魚」, 「換金」, 「捨て札」, 「リード」, 「トップ」.
EVENTS is keyed exactly by SPEC.events (tests/unit/test_i18n.py checks it): name, meaning.
"""

TITLE = "フィッシュ！ダッシュ！キャッシュ！"
LENGTH_UNITS = {"tricks": "トリック"}

EVENTS: dict[str, tuple[str, str]] = {
    "neko_ni_koban": (
        "猫に小判",
        "猫に小判が発生したトリック（リード以外すべての人がリードと違う色のカードを出した）："
        "リードのカードは捨て札になり、フォローしたカードが数字の低い順に処理される",
    ),
    "cards_cancelled": (
        "処理されず捨て札",
        "処理されずに捨て札になったカード1枚：リードと違う色、同じ色で重なった数字、"
        "または猫に小判でのリードのカード",
    ),
    "steals": ("ダッシュで奪う", "Dashカードで他人の「縄張り」のお魚を1枚奪った"),
    "protects": (
        "ダッシュで守る",
        "Dashカードで自分の「縄張り」のお魚を守った（選んで、または奪えるお魚がなくて）",
    ),
    "cash_events": ("換金（Cashカード）", "Cashカードを処理した（換金するお魚がなくても数える）"),
    "fish_cashed": ("換金したお魚", "お金に替えたお魚1枚"),
    "fish_uncashed_at_end": (
        "終了時に残ったお魚",
        "ゲーム終了時に「縄張り」に表向きのまま残っていたお魚1枚",
    ),
    "lead_changes": (
        "トップの交代",
        "トリックの後、お金の単独トップが前の単独トップと別のプレイヤーになった"
        "（最初に単独トップになったのは交代に数えない）",
    ),
}
