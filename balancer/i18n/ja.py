"""日本語: the same keys and {fields} as en.py (tests/unit/test_i18n.py checks both).

Figures, p-values and the ids a designer types (variant, bot and event names
as in the YAML and the CSV columns) stay as they are; the games' own words
come from games/<g>/names_ja.py.
"""

CATALOG: dict[str, str] = {
    # -- words shared by the headline, summary.md and report.html
    "higher": "高い",
    "lower": "低い",
    "seat": "席",
    "bot": "ボット",
    "win share": "勝率",
    "95% interval": "95%信頼区間",
    "score mean": "平均得点",
    "mean": "平均",
    "sd": "標準偏差",
    "min": "最小",
    "q1": "第1四分位",
    "median": "中央値",
    "q3": "第3四分位",
    "max": "最大",
    "seat-games": "席×ゲーム数",
    "event": "イベント",
    "meaning": "意味",
    "per game": "1ゲームあたり",
    "share of games": "起きたゲームの割合",
    "footer": "balancer {version}、{game} ルール版 {rules}。",
    # -- the headline printed after a run
    "headline.title": "{name}: {game}、{players}人、{games}ゲーム、シード {seed}",
    "headline.score": "得点: {better}ほうが良い; {advantage}",
    "headline.no_test": "検定なし",
    "headline.confounded": "席とボットが交絡",
    "headline.advantage_untested": "席順の有利不利: 検定せず（{why}）",
    "headline.advantage": "席順の有利不利: {shown}",
    "headline.advantage_statistic": "席順の有利不利: {name} {value}, {shown}",
    "headline.verdict": "判定: {verdict}",
    "headline.margin": "勝者の点差: 平均 {mean}",
    "stopping.why_ci": "すべての勝率の95%信頼系列がその幅に収まった",
    "stopping.why_diff": "比較の判定がついた",
    "stopping.early": "最大 {most} ゲームのうち {games} ゲームで早期終了: {rule}（{why}）",
    "stopping.all": "全 {games} ゲームを実施: {rule} は途中で成立しなかった",
    "sweep.point": "{sweep} のスイープ {points} 点中 {index} 点目: {point}",
    "sweep.page": "スイープ全体: ../index.html",
    "sweep.link": "スイープ全体",
    "cards.title": "カードの影響",
    "cards.note": "各カードを持っていた席と持っていなかった席の勝率の差"
    "（95%信頼区間、ゲーム単位のクラスタ）。差の大きいものから両方向に表示。種類が多いと偶然で"
    "0 を外れる区間が出るため、比べた種類の数で各検定を補正（Holm、全体で 5%）: 濃い色で ● の"
    "付いた種類だけが偶然を超えて差がある。全種類は cards.csv に（p_holm、significant）。",
    "cards.x_title": "持っていた席の勝率 − 持っていなかった席の勝率（95%信頼区間）",
    "command_line": "この実行だけコマンドラインで変更: {changes}",
    "headline.length": "長さ: 平均 {mean} {unit}（最小 {min}、最大 {max}）",
    "headline.head_to_head": "直接対決: 行のボットが列のボットより上位で終えた割合",
    "headline.rules_fired": "ルールの発生",
    "headline.a_value": "（回数でなく1ゲームごとの値: その平均）",
    "headline.meanings": "各イベントの意味: balancer events {game}",
    "headline.tricks_per_deal": "1ディールあたりのトリック数: {ratio}{interval}"
    "（原作では「５トリックくらい」）",
    # -- the seat-advantage verdict, in words
    "verdict.one_seat": "席が1つ: 席順の有利不利は検定できない",
    "verdict.confounded": "席とボットが交絡している（seat_rotation なしで席ごとに違うボット）"
    "ため、席順の有利不利は判断できない。検定するには seat_rotation をオンに",
    "verdict.untested": "席順の有利不利の検定なし（{why}）",
    "verdict.too_few": "席順の有利不利は判断できない（{why}; {p}）",
    "verdict.none": "席順による有利不利は検出されなかった（{p}）",
    "verdict.advantage": "席 {seat} の勝率 {share}（均等なら {even}）: {what}、{p}",
    "verdict.first_edge": "先手（最初のプレイヤー）が有利",
    "verdict.first_handicap": "先手（最初のプレイヤー）が不利",
    "verdict.seat_edge": "席 {seat} が有利",
    "verdict.seat_handicap": "席 {seat} が不利",
    # -- summary.md
    "summary.events": "1ゲームあたりのイベント",
    "summary.scores": "席ごとの得点",
    "summary.margin": "勝ちの差（1位と2位の差）: 平均 {mean}、中央値 {median}。",
    "summary.length": "長さ: 平均 {mean} {unit}。",
    # -- report.html
    "html.title": "{name} — balancer レポート",
    "html.footer": "balancer {version} · {game} ルール版 {rules} · シード {seed}",
    "html.one_player": "{n}人",
    "html.n_players": "{n}人",
    "html.sub": "{game} · {players} · シミュレーション {games} ゲーム · シード {seed} · "
    "得点は{better}ほうが良い",
    "html.game": "ゲーム",
    "html.players": "人数",
    "html.games_played": "ゲーム数",
    "html.score": "得点",
    "html.better_is": "{better}ほうが良い",
    "html.mean_length": "平均の長さ",
    "html.ci": "（95%信頼区間 {low} – {high}）",
    "html.wins": "席ごとの勝率",
    "html.wins_note": "各席から勝ったゲームの割合（同点は勝ちを分け合う）と95%信頼区間"
    "（ゲームごとの割合から求めるので、分け合った勝ちはその分数のまま数える）。"
    "破線は均等な割合 1/{players} = {even}。",
    "html.rotating": "ボットは席を順に回るので、席の勝率はボットではなく席のもの。",
    "html.one_seat": "席が1つ: 席順の有利不利は検定できない。",
    "html.wins_alt": "席ごとの勝率と95%信頼区間",
    "html.headline": "一覧（得点は{better}ほうが良い）",
    "html.mean_ci": "平均の95%信頼区間",
    "html.no_test": "席順の有利不利の検定なし: {note}。",
    "html.flagged": "席順の有利不利あり: 席ごとの勝率の差は偶然では説明できない（{p}）。",
    "html.not_flagged": "はっきりした席順の有利不利はない: 差は偶然の範囲内（{p}）。",
    "html.advantage": "席順の有利不利",
    "html.test": "検定",
    "html.statistic": "統計量",
    "html.df": "自由度",
    "html.p_value": "p値",
    "html.bots": "ボットごとの勝率",
    "html.bots_note": "各ボットが座った席×ゲームでの平均勝率と95%信頼区間。強いボットが均等の破線を"
    "大きく上回れば腕が効くゲーム、ランダムなボットが丁寧なプレイと同じくらい勝てば運のゲーム。",
    "html.bots_alt": "ボットごとの勝率と95%信頼区間",
    "html.h2h": "直接対決",
    "html.h2h_note": "両方のボットが座ったゲームで、1つ目のボットの席が2つ目より上位で終えた割合"
    "（同点は半分）。",
    "html.against": "相手",
    "html.ahead": "上位の割合",
    "html.seat_pairs": "席の組",
    "html.scores": "最終得点",
    "html.scores_note": "席ごとの最終得点の分布。縦線はその席の平均。得点は{better}ほうが良い。",
    "html.margin": "勝ちの差（勝者と2位の差）: 平均 {mean}{ci}、中央値 {median}、"
    "四分位 {q1} – {q3}、最大 {max}。",
    "html.scores_alt": "席ごとの最終得点のヒストグラム",
    "html.length": "ゲームの長さ",
    "html.length_constant": "どのゲームも {n} {unit}。",
    "html.length_note": "平均 {mean} {unit}{ci}（標準偏差 {sd}）、{min} から {max} まで。",
    "html.length_alt": "ゲームの長さ（{unit}）のヒストグラム",
    "html.events": "各ルールの発生頻度",
    "html.events_note": "左: 1ゲームあたりの平均回数。右: 1回以上起きたゲームの割合。"
    "「まれだが起きると何度も」と「よくあるが1回だけ」は、片方の数字では同じに見えても両方を見れば区別できる。",
    "html.values_note": "回数でなく1ゲームごとの値であるイベントは、表に平均を載せ、図からは外す。",
    "html.a_value_spread": "（回数でなく値: 中央値 {median}、最大 {max}）",
    "html.a_value": "（回数でなく値）",
    "html.events_alt": "イベントの頻度: 1ゲームあたりと起きたゲームの割合",
    "html.variant": "使われたバリアント",
    "html.variant_note": "このランで使われたすべてのノブ（既定値も含む）。",
    "html.group_run": "ラン",
    "html.group_seats": "席",
    "html.group_rules": "ルール",
    "html.group_scoring": "得点計算",
    "html.seat_n": "席 {n}",
    # -- the charts
    "chart.equal": " 均等\n {share}",
    "chart.win_share": "勝率",
    "chart.mean": " 平均 {value}",
    "chart.scores_x": "最終得点（{better}ほうが良い）; 棒の高さ: ゲームの割合",
    "chart.length_x": "ゲームの長さ（{unit}）",
    "chart.share_of_games": "ゲームの割合",
    "chart.no_events": "数えたイベントなし",
    "chart.per_game": "1ゲームあたりの平均",
    "chart.share_fired": "起きたゲームの割合",
    # -- diff: the terminal table, Markdown and the page
    "diff.verdict.changed": "有意差あり",
    "diff.verdict.equivalent": "同等",
    "diff.n_changed": "有意差あり {n} 件",
    "diff.nothing_changed": "有意差のある変化なし",
    "diff.summary": "{what}、許容幅内で同等 {same} 件、判定不能 {unknown} 件。"
    "Holm 補正の対象: {rows} 行中 {family} 行、有意水準 {alpha}",
    "diff.no_variation": "ばらつきなし",
    "diff.interval": "95%信頼区間",
    "diff.verdict": "判定",
    "diff.tested_by": "{figure}: {test}で検定",
    "diff.each_tested_by": "。各変化の検定: {test}",
    "diff.warning": "注意",
    "diff.note": "注",
    "diff.key": "B−A: 変化とその95%信頼区間。p (Holm): 全体で補正した p 値。"
    "有意差あり: p (Holm) ≤ {alpha}。同等: 変化が許容幅内にあると示せた。"
    "空欄: 判定不能（まだ分からない）。全列は --format md か json で。",
    "diff.md.figure": "指標",
    "diff.md.95% interval": "95%信頼区間",
    "diff.md.test": "検定",
    "diff.md.adjusted p": "補正後の p",
    "diff.md.verdict": "判定",
    "diff.column.figure": "指標",
    "diff.column.95% interval": "95%信頼区間",
    "diff.column.change and interval": "変化と区間",
    "diff.column.verdict": "判定",
    "diff.html.title": "balancer 比較",
    "diff.html.differs": "A と B の違い",
    "diff.html.how": "読み方",
    "diff.html.tested": "各変化は{test}で検定。",
    "diff.html.notes": "注",
    "diff.html.detail": "{test}。Holm 補正前の p 値 {p}",
    "diff.html.legend": '<p class="note legend">各図: 変化 B − A（点）とその95%信頼区間（棒）。'
    "0 を中心に（破線）、同じ種類の行はすべて同じ目盛り（勝率はすべて一つ、得点はすべて別の一つ…。"
    "目盛りの幅は右端に）なので、種類ごとにページの上下で長さを比べられる。灰色の帯は許容幅。"
    "{accent} 有意差あり: Holm 補正後の p ≤ {alpha}。{good} 同等: 変化が許容幅内にあると示せた。"
    "{muted} 判定不能。</p>",
    "diff.game_sep": "。",
    "diff.fail_on_change": "--fail-on-change: 有意差ありのため終了コード {code} で終了",
    "diff.section.game": "ゲーム全体",
    "run.written": "レポート",
    "diff.page_written": "比較ページ",
    # -- ladder: the terminal table and ladder.html
    "ladder.title": "{game}、{players}人: {lineups} 通りの並び × {deals} ディール = {games} ゲーム"
    "（シード {seed}）",
    "ladder.bot": "ボット",
    "ladder.win_share": "勝率 [95%信頼区間]",
    "ladder.seat_games": "席×ゲーム数",
    "ladder.h2h": "直接対決（列のボットも座ったゲームでの、行のボットの勝率）:",
    "ladder.gap": "腕の差（{best} − random）: {gap} ポイント [{low}, {high}]",
    "ladder.written": "ラダー",
    "ladder.html.title": "腕前のラダー: {game}、{players}人",
    "ladder.html.about": "{lineups} 通りの並び（1種類のボットだけの卓を除く、ボットの席の割り当て"
    "すべて）× {deals} ディール = {games} ゲーム、シード {seed}。"
    "どの並びも同じディールをプレイする。"
    "勝率は席×ゲームあたり（同点は分け合う）、95%信頼区間はディール単位のクラスタ。",
    "ladder.html.ranking": "ボットごとの勝率",
    "ladder.html.share": "勝率 [95%]",
    "ladder.html.h2h": "直接対決",
    "ladder.html.h2h_note": "列のボットも座ったゲームでの、行のボットの勝率。",
    "ladder.html.gap": "<h2>腕の差</h2><p>{best} − random: 勝率で <b>{gap}</b> ポイント、"
    "95%信頼区間 [{low}, {high}]（ディールごとに対にして）。</p>",
    # -- design: the terminal's answer and design.html
    "design.title": "design: {goals}（試行 {trials} 回）。決勝に残った設定を再プレイ:",
    "design.kept_mark": "  <- 残った",
    "design.out_mark": "  （劣ると示された）",
    "design.best": "最良: {point}（他より劣ると示されなかった唯一の候補）",
    "design.front": "フロント: ゲームでは区別できない {n} 個の設定: {shown}",
    "design.chart.kept": "残った",
    "design.chart.out": "劣ると示された",
    "design.chart.finalist": "決勝候補",
    "design.html.setting": "設定",
    "design.html.verdict": "判定",
    "design.html.kept": "残った",
    "design.html.out": "他より劣ると示された",
    "design.html.best": "最良: <b>{point}</b>（他より劣ると示されなかった唯一の候補）。",
    "design.html.front": "ゲームでは区別できない <b>{n} 個の設定</b>（フロント）。",
    "design.html.about": "各 {games} ゲームの試行を {trials} 回、Optuna の TPE が提案。"
    "決勝候補は共通のシードで {final} ゲームずつ再プレイし、対応のある検定で比較"
    "（全ての組と目標で誤り5%を分け合う）。✓ / ✗: 95%信頼区間全体で目標を満たす / 満たさない。",
    "design.html.goals": "目標",
    "design.html.finalists": "決勝候補",
    "design.html.trials": "全ての試行",
    # -- tune: the terminal table and tune.html
    "tune.title": "tune {goal}: 候補 {n} 個、レーシング（劣ると示された値だけを除外）、"
    "各ラウンドで残った候補あたりのゲーム数 {rounds}",
    "tune.knob_value": "ノブの値",
    "tune.games": "ゲーム数",
    "tune.figure": "指標 [95%信頼区間]",
    "tune.round": "ラウンド",
    "tune.best_mark": " <- 最良",
    "tune.open_mark": " （除外できない）",
    "tune.best": "最良: {point}  {figure} = {value}（{games} ゲーム）",
    "tune.closest": "最も近い: {point}  {figure} = {value}（{games} ゲーム）。"
    "{target} に届くと示された値はない",
    "tune.open": "除外できない候補（探索全体で95%）: {shown}",
    "tune.none": "なし",
    "tune.played": "ゲーム: 予算 {budget} のうち {played} 回プレイ",
    "tune.reused": "、スイープから {reused} ゲームを再利用",
    "tune.skipped": "飛ばした候補 {what}",
    "tune.html.candidates": "候補",
    "tune.html.best_cell": "最良",
    "tune.html.open_cell": " 除外できない",
    "tune.html.figure": "指標 [95%]",
    "tune.html.last_round": "最後のラウンド",
    "tune.html.closest": "<b>{target} に届くと示された値はない</b>。最も近い値を示す。\n",
    "tune.html.about": "最良: <b>{point}</b>、{figure} = {value}（95%、{games} ゲーム）。"
    "共通のシードでレーシング（劣ると示された値だけを除外、探索全体で誤り5%）; "
    "各ラウンドで残った候補あたりのゲーム数 {rounds}; "
    "{played} ゲームをプレイ、スイープから {reused} ゲームを再利用。",
    # -- sweep: the terminal table, Markdown and index.html
    "sweep.key": "各指標: 値 [95%信頼区間]。図に描いたのは {figure}。その横は、ノブで最も動いた"
    "指標（点どうしの散らばり ÷ 区間の半幅）。全指標: sweep.csv、--format csv/json。",
    "sweep.md_key": "各指標: 値と95%信頼区間。",
    "sweep.written": "スイープ: {folder}/（sweep.csv、sweep.svg、各点のレポートフォルダへのリンクを"
    "載せた {index}）",
    "sweep.report": "レポート",
    "sweep.html.title": "{name} のスイープ — balancer",
    "sweep.html.h1": "{name}: {knobs} のスイープ",
    "sweep.html.sub": "{n} 点。どの点も同じシードとゲーム数でプレイしたので、点どうしの違いは"
    "ノブによるもの。図に描いた指標: {figure}。",
    "sweep.html.points": "各点",
    # -- check: the terminal lines
    "check.verdict.pass": "合格",
    "check.verdict.fail": "不合格",
    "check.verdict.undecided": "判定不能",
    "check.difference": "差 ",
    "check.games": "{n} ゲーム",
    "check.stopped": "（判定がついたので停止）",
    "check.summary": "合格 {passed}、不合格 {failed}、判定不能 {undecided}",
    # -- cards: the terminal table
    "cards.card": "カード",
    "cards.held": "持った",
    "cards.others": "他",
    "cards.difference": "差",
    "cards.interval": "95%信頼区間",
    "cards.verdict": "判定",
    "cards.helps": "有利",
    "cards.hurts": "不利",
    "cards.key": "比べた {tested} 種類のうち {n} 種類が、Holm 補正（{tested} 種類で）の後も"
    "偶然を超えて差がある\n（p (Holm) <= {alpha}: 有利か不利; 空欄: 判定不能）。",
    "cards.written": "書き出し先: {target}",
    # -- card impact by role (terminal and report.html)
    "roles.title": "役割ごと",
    "roles.note": "最初の手札にその役割のカードが1枚多いと勝率がどれだけ変わるか"
    "（全席・全ゲームでの傾き、95%信頼区間はゲームごとのクラスター）。●: 役割すべてでの"
    " Holm 補正の後も偶然を超える。",
    "roles.role": "役割",
    "roles.mean_held": "平均枚数",
    "roles.slope": "1枚あたり",
    "roles.key": "1枚あたり: 最初の手札にその役割のカードが1枚多いときの勝率の変化;\n"
    "p (Holm) は役割すべてで補正: 有利か不利が偶然を超える、空欄: 判定不能。",
    # -- the progress line and the line announcing the games (stderr)
    "progress.rate": "{rate} ゲーム/秒",
    "progress.eta": "残り {eta}",
    "progress.playing": "{what} を {games} ゲーム、{n} ワーカーでプレイ中",
    "progress.compiling": (
        "{what}を numba でコンパイル中：インストールごとに一度だけ"
        "（ディスクにキャッシュされ、以後の実行では不要）。1分以上かかります"
    ),
    "progress.compiling_tick": "コンパイル中（{seconds} 秒）",
    "progress.compiled": "コンパイル完了（{seconds} 秒）。以後の実行ではキャッシュを使います",
    "progress.what_games": "{game} のカーネルのゲーム全体ループ",
    "progress.what_steps": "{game} のカーネルの1手ずつの入口（search ボットのプレイアウト用）",
    "progress.what_roles_games": (
        "ゲームファイル用インタプリタのゲーム全体ループ"
        "（すべてのゲームファイルで共通：ゲームファイルを編集してもコンパイルし直しません）"
    ),
    "progress.what_roles_steps": (
        "ゲームファイル用インタプリタの1手ずつの入口（search ボットのプレイアウト用。"
        "すべてのゲームファイルで共通：ゲームファイルを編集してもコンパイルし直しません）"
    ),
    "progress.playing_many": "{what} を {games} ゲーム、{n} ワーカーでプレイ中",
    # -- the sweep's and tune's charts
    "sweep.chart.same": "最高の点と区別できない",
    "sweep.chart.apart": "最高の点と有意差あり（Holm、5%）",
    "sweep.chart.bars": "ひげ: 95%信頼区間",
    "sweep.chart.no_interval": "この指標には区間がない",
    "sweep.heatmap.no_interval": "{figure}: 区間がないので色分けなし（値のみ）",
    "sweep.heatmap.flat": "{figure}: どの2マスも区別できない（95%信頼区間、Holm）: 1色",
    "sweep.heatmap.tiers": "{figure}、値 [95%信頼区間]。濃い色: 最高と区別できない; "
    "薄い色: 最低と区別できない; 中間: 両方と有意差あり（Holm、5%）",
    "tune.chart.title": "tune {goal}: {played} ゲームをプレイ",
    "tune.chart.best": "最良",
    "tune.chart.open": "除外できない",
    "tune.chart.out": "除外",
    "tune.chart.target": "目標",
    # -- plays: 決断・キングメイキング・運 (balancer plays)
    "plays.title": "{variant}: {game}、{players}人、シード {seed}",
    "plays.decisions": "決断: {games} ゲームを観察; search の見積もりは1手につき {samples} "
    "世界; 手の勝率の差が {margin} を超えれば本当の決断",
    "plays.decisions_unsearched": "決断: {games} ゲームを観察（search の見積もりなし: "
    "--search-budget 0）",
    "plays.seat": "席",
    "plays.turns": "手番",
    "plays.choice": "選択肢あり [95%]",
    "plays.real": "本当の決断 [95%]",
    "plays.all": "全席",
    "plays.kingmaking": "キングメイキング: 勝率 {threshold}% 未満の席の手が、別の手と比べて"
    "勝者争いを {margin} を超えて動かす",
    "plays.kingmaking_games": "キングメイキングの手があったゲーム: {share}（勝ち目のない席の選択 "
    "{out} 回のうち {moves} 回）",
    "plays.luck": "デュプリケートで見る運と腕: {deals} 配札、各席を各ボットが担当、"
    "他の席は {field}",
    "plays.deal_share": "結果のうち配札で決まる割合: {share}",
    "plays.win_share": "その席の勝率: {shares}",
    "plays.search_over": "search の {bot} に対する上乗せ: 勝率 {points} ポイント",
    # -- how the games played: summary.md and report.html (report/how_it_plays.py)
    "play.title": "ゲームの展開",
    "play.note": "ゲームがどう進んだか（{unit}ごと）: "
    "各指標はゲーム全体の平均で、95%信頼区間つき。",
    "play.figure": "指標",
    "play.value": "値",
    "play.interval": "95%信頼区間",
    "play.meaning": "意味",
    "play.lead_changes": "リード交代",
    "play.lead_changes.meaning": "1ゲームあたり、単独首位が別のプレイヤーに移った回数",
    "play.decided_at": "決着時点",
    "play.decided_at.meaning": "勝者が最後まで首位を守り始めたのが、ゲームのどこまで進んだ時点か",
    "play.comeback": "逆転率",
    "play.comeback.meaning": "折り返し時点で最下位だったプレイヤーが勝った割合",
    "play.decision_share": "選択の割合",
    "play.decision_share.meaning": "プレイヤーの手番のうち、合法手が二つ以上あった割合",
    "play.comeback.meaning_margin": (
        "折り返し時点で最下位、または首位から{margin}点より多く離れていたプレイヤーが勝った割合"
    ),
    "play.real_decisions": "本当の選択",
    "play.real_decisions.meaning": "手番のうち、最善手と最悪手の勝率が差の幅を確かに超えて"
    "違った割合（search の見積もり、plays: のサンプル）",
    "play.kingmaking": "キングメイキング",
    "play.kingmaking.meaning": "もう勝てないプレイヤーが、別の手なら他の勝者を生んだ手を打った"
    "ゲームの割合（plays: のサンプル）",
    "play.luck": "配札の割合",
    "play.luck.meaning": "結果のばらつきのうち配札で説明される割合（デュプリケート対戦。"
    "1: 配札で決まる）",
    "play.search_over_scripted": "search と定石ボットの差",
    "play.search_over_scripted.meaning": "同じ配札で、search が定石ボットより上げる勝率"
    "（デュプリケート対戦）",
    "play.search_over_random": "search とランダムの差",
    "play.search_over_random.meaning": "同じ配札で、search がランダムより上げる勝率"
    "（デュプリケート対戦）",
    "play.drama": "ドラマ",
    "play.drama.meaning": "勝者が最も離されていた点差を、ゲーム中の最大の点差で割った値"
    "（0: 勝者は一度もリードされなかった）",
    "play.leader_wins": "{at}%時点の首位が勝つ率",
    "play.leader_wins.meaning": "ゲームの{at}%時点で単独首位だったプレイヤーが勝つ割合"
    "（その時点で単独首位がいたゲームのみ）",
    "play.no_leader": "単独首位のいたゲームなし",
    "play.chart_x": "ゲームの進み具合",
    "play.chart_y": "首位の勝率",
    "play.chart_note": "点: その時点の単独首位が勝つ割合。ひげ: 95%信頼区間。",
    "play.chart_even": "無作為に選んだプレイヤー（{share}）",
    "play.chart_alt": "ゲームの25%・50%・75%時点の首位の勝率（95%信頼区間つき）",
    # -- balancer replay: the lines around a game's play-by-play
    "replay.title": "{name}: シード {seed} のゲーム {index}（{game}）",
    "replay.seats": "席: {seats}",
    "replay.sep": "、",
    "replay.only_seat": "（席 {seat} から見えたものだけ）",
    "replay.seat_only": "[席 {seat} だけ] {text}",
    "replay.length": "長さ: {length} {unit}",
    "replay.scores": "得点: {scores}",
    "replay.score": "席 {seat} {value:g}",
    "replay.win_shares": "勝率: {shares}",
    "replay.share": "席 {seat} {value:.3g}",
    "replay.events": "イベント: {events}",
    "replay.no_events": "なし",
}
