"""English: the default language, and the fallback for a phrase another catalog lacks.

Every key here is in ja.py too, with the same {fields} (tests/unit/test_i18n.py).
"""

CATALOG: dict[str, str] = {
    # -- words shared by the headline, summary.md and report.html
    "higher": "higher",
    "lower": "lower",
    "seat": "seat",
    "bot": "bot",
    "win share": "win share",
    "95% interval": "95% interval",
    "score mean": "score mean",
    "mean": "mean",
    "sd": "sd",
    "min": "min",
    "q1": "q1",
    "median": "median",
    "q3": "q3",
    "max": "max",
    "seat-games": "seat-games",
    "event": "event",
    "meaning": "meaning",
    "per game": "per game",
    "share of games": "share of games",
    "footer": "balancer {version}, {game} rules version {rules}.",
    # -- the headline printed after a run
    "headline.title": "{name}: {game}, {players} players, {games} games, seed {seed}",
    "headline.score": "score: {better} is better; {advantage}",
    "headline.no_test": "no test",
    "headline.confounded": "seat and bot are confounded",
    "headline.advantage_untested": "seat advantage: not tested ({why})",
    "headline.advantage": "seat advantage: {shown}",
    "headline.advantage_statistic": "seat advantage: {name} {value}, {shown}",
    "headline.verdict": "verdict: {verdict}",
    "headline.margin": "winning margin: {mean}",
    "stopping.why_ci": "every win share's 95% confidence sequence is that narrow",
    "stopping.why_diff": "the diff it was played for was decided",
    "stopping.early": "stopped early after {games} of at most {most} games: {rule} ({why})",
    "stopping.all": "played all {games} games: {rule} did not hold earlier",
    "sweep.point": "point {index} of {points} of the sweep of {sweep}: {point}",
    "sweep.page": "the whole sweep: ../index.html",
    "sweep.link": "the whole sweep",
    "cards.title": "Card impact",
    "cards.note": "Win share of seats that held each card kind against seats that did not "
    "(95% interval, clustered by game); the largest effects either way. With many kinds a "
    "few intervals miss 0 by chance, so each kind's test is corrected for the number of "
    "kinds compared (Holm, 5% family-wise): only the kinds drawn dark and marked ● differ "
    "beyond chance. Every kind is in cards.csv (p_holm, significant).",
    "cards.x_title": "win share held minus not held (95% interval)",
    "command_line": "changed on the command line, for this run only: {changes}",
    "headline.length": "length: {mean} {unit} (min {min}, max {max})",
    "headline.head_to_head": "head to head: how often the row's bot finishes ahead of the column's",
    "headline.rules_fired": "rules fired",
    "headline.a_value": "(a value per game, not a count: its mean)",
    "headline.meanings": "what each event counts: balancer events {game}",
    "headline.tricks_per_deal": "tricks per deal: {ratio}{interval} (the seed says about 5)",
    # -- the seat-advantage verdict, in words
    "verdict.one_seat": "one seat: no seat advantage to test",
    "verdict.confounded": "seat and bot are confounded (the seats hold different bots without "
    "seat_rotation), so no seat advantage can be told; turn on seat_rotation to test it",
    "verdict.untested": "no seat-advantage test ({why})",
    "verdict.too_few": "no seat advantage can be told ({why}; {p})",
    "verdict.none": "no seat advantage detected ({p})",
    "verdict.advantage": "seat {seat} wins {share} where {even} is even: {what}, {p}",
    "verdict.first_edge": "a first-player edge",
    "verdict.first_handicap": "a first-player handicap",
    "verdict.seat_edge": "an edge for seat {seat}",
    "verdict.seat_handicap": "a handicap for seat {seat}",
    # -- summary.md
    "summary.events": "Events per game",
    "summary.scores": "Score per seat",
    "summary.margin": "Winning margin (best minus second best): mean {mean}, median {median}.",
    "summary.length": "Length: mean {mean} {unit}.",
    # -- report.html
    "html.title": "{name} — balancer report",
    "html.footer": "balancer {version} · {game} rules version {rules} · seed {seed}",
    "html.one_player": "{n} player",
    "html.n_players": "{n} players",
    "html.sub": "{game} · {players} · {games} simulated games · seed {seed} · "
    "{better} score is better",
    "html.game": "game",
    "html.players": "players",
    "html.games_played": "games played",
    "html.score": "score",
    "html.better_is": "{better} is better",
    "html.mean_length": "mean length",
    "html.ci": " (95% interval {low} – {high})",
    "html.wins": "Win share by seat",
    "html.wins_note": "Share of games won from each seat (a tie splits the win), with its 95% "
    "interval (from the per-game shares, so split ties count as the fractions they are); the "
    "dashed line is an equal share, 1/{players} = {even}.",
    "html.rotating": " Bots rotate through the seats, so a seat's share is the seat's, "
    "not a bot's.",
    "html.one_seat": "One seat: there is no seat advantage to test.",
    "html.wins_alt": "win share by seat with 95% intervals",
    "html.headline": "Headline (score: {better} is better)",
    "html.mean_ci": "mean's 95% interval",
    "html.no_test": "No seat-advantage test: {note}.",
    "html.flagged": "Seat advantage: the seats' win shares differ more than chance explains ({p}).",
    "html.not_flagged": "No clear seat advantage: the differences are within chance ({p}).",
    "html.advantage": "Seat advantage",
    "html.test": "test",
    "html.statistic": "statistic",
    "html.df": "degrees of freedom",
    "html.p_value": "p-value",
    "html.bots": "Win share by bot",
    "html.bots_note": "Mean win share over the seat-games each bot played, with its 95% interval. "
    "A strong bot far above the dashed equal share means skill pays; a random bot winning as "
    "often as careful play means the game is a lottery.",
    "html.bots_alt": "win share by bot with 95% intervals",
    "html.h2h": "Head to head",
    "html.h2h_note": "How often the first bot's seat finished ahead of the second's in games that "
    "seated both (a tie counts half).",
    "html.against": "against",
    "html.ahead": "ahead",
    "html.seat_pairs": "seat pairs",
    "html.scores": "Final scores",
    "html.scores_note": "How often each final score occurred, per seat; the vertical line is the "
    "seat's mean. A {better} score is better.",
    "html.margin": "Winning margin (the winner's lead over the runner-up): mean {mean}{ci}, "
    "median {median}, quartiles {q1} – {q3}, largest {max}.",
    "html.scores_alt": "histogram of final scores per seat",
    "html.length": "Game length",
    "html.length_constant": "Every game lasted {n} {unit}.",
    "html.length_note": "Mean {mean} {unit}{ci} (sd {sd}), from {min} to {max}.",
    "html.length_alt": "histogram of game length in {unit}",
    "html.events": "How often each rule fires",
    "html.events_note": "Left: mean number of times per game. Right: share of games in which it "
    "fired at least once. Rare-but-repeated and common-but-single look alike in one number, not "
    "in both.",
    "html.values_note": " Events that are a value per game rather than a count are listed in the "
    "table with their mean, and left out of the chart.",
    "html.a_value_spread": " (a value, not a count: median {median}, max {max})",
    "html.a_value": " (a value, not a count)",
    "html.events_alt": "event rates: per game and share of games",
    "html.variant": "Resolved variant",
    "html.variant_note": "Every knob as this run used it, defaults filled in.",
    "html.group_run": "run",
    "html.group_seats": "seats",
    "html.group_rules": "rules",
    "html.group_scoring": "scoring",
    "html.seat_n": "seat {n}",
    # -- the charts
    "chart.equal": " equal\n {share}",
    "chart.win_share": "win share",
    "chart.mean": " mean {value}",
    "chart.scores_x": "final score ({better} is better); bar height: share of games",
    "chart.length_x": "game length ({unit})",
    "chart.share_of_games": "share of games",
    "chart.no_events": "no events counted",
    "chart.per_game": "mean per game",
    "chart.share_fired": "share of games where it fired",
    # -- diff: the terminal table, Markdown and the page
    "diff.verdict.changed": "changed",
    "diff.verdict.equivalent": "equivalent",
    "diff.n_changed": "{n} changed",
    "diff.nothing_changed": "nothing changed",
    "diff.summary": "{what}, {same} equivalent within tolerance, {unknown} can't tell yet; "
    "Holm's family: {family} of {rows} rows, alpha {alpha}",
    "diff.no_variation": "no variation",
    "diff.interval": "95% interval",
    "diff.verdict": "verdict",
    "diff.tested_by": "{figure}: tested by {test}",
    "diff.each_tested_by": "; each change tested by {test}",
    "diff.warning": "warning",
    "diff.note": "note",
    "diff.key": "B−A: the change, with its 95% interval; p (Holm): adjusted over the family; "
    "changed: p (Holm) ≤ {alpha}; equivalent: the change is shown to lie within the tolerance; "
    "blank: can't tell yet. Every column: --format md or json.",
    "diff.md.figure": "figure",
    "diff.md.95% interval": "95% interval",
    "diff.md.test": "test",
    "diff.md.adjusted p": "adjusted p",
    "diff.md.verdict": "verdict",
    "diff.column.figure": "figure",
    "diff.column.95% interval": "95% interval",
    "diff.column.change and interval": "change and interval",
    "diff.column.verdict": "verdict",
    "diff.html.title": "balancer diff",
    "diff.html.differs": "What differs between A and B",
    "diff.html.how": "How to read it",
    "diff.html.tested": "Each change is tested by {test}.",
    "diff.html.notes": "Notes",
    "diff.html.detail": "{test}; p before Holm's correction {p}",
    "diff.html.legend": '<p class="note legend">Each chart: the change B − A (dot) with its 95% '
    "interval (bar), centred on zero (dashed line), on one scale for every row of its kind (all "
    "win shares on one, all scores on another...; its reach is at the right end), so lengths "
    "compare down the page within a kind; the grey band is the tolerance. {accent} changed: p "
    "after Holm's correction ≤ {alpha}; {good} equivalent: the change is shown to lie within the "
    "tolerance; {muted} can't tell yet.</p>",
    "diff.game_sep": "; ",
    "diff.fail_on_change": "--fail-on-change: exiting with code {code}",
    "diff.section.game": "game",
    "run.written": "report",
    "diff.page_written": "diff page",
    # -- ladder: the terminal table and ladder.html
    "ladder.title": "{game}, {players} players: {lineups} lineups × {deals} deals = {games} games "
    "(seed {seed})",
    "ladder.bot": "bot",
    "ladder.win_share": "win share [95% interval]",
    "ladder.seat_games": "seat-games",
    "ladder.h2h": "head to head (row bot's win share in games where the column bot sits):",
    "ladder.gap": "skill gap ({best} − random): {gap} points [{low}, {high}]",
    "ladder.written": "ladder",
    "ladder.html.title": "Skill ladder: {game}, {players} players",
    "ladder.html.about": "{lineups} lineups (every seat assignment of the bots except one-bot "
    "tables)\n× {deals} deals = {games} games, seed {seed}; every lineup plays\nthe same deals. "
    "Win share per seat-game, ties split; 95% intervals clustered by deal.",
    "ladder.html.ranking": "Win share by bot",
    "ladder.html.share": "win share [95%]",
    "ladder.html.h2h": "Head to head",
    "ladder.html.h2h_note": "Row bot's win share in the games where the column bot also sits.",
    "ladder.html.gap": "<h2>Skill gap</h2><p>{best} − random: <b>{gap}</b> points of win share, "
    "95% interval [{low}, {high}] (paired over deals).</p>",
    # -- design: the terminal's answer and design.html
    "design.title": "design: {goals} ({trials} trials); the finalists, played again:",
    "design.kept_mark": "  <- kept",
    "design.out_mark": "  (shown worse)",
    "design.best": "best: {point} (the only finalist not shown worse than another)",
    "design.front": "front: {n} settings the games can't tell apart: {shown}",
    "design.chart.kept": "kept",
    "design.chart.out": "shown worse",
    "design.chart.finalist": "finalist",
    "design.html.setting": "setting",
    "design.html.verdict": "verdict",
    "design.html.kept": "kept",
    "design.html.out": "shown worse than another",
    "design.html.best": "Best: <b>{point}</b>, the only finalist not shown worse than another.",
    "design.html.front": "<b>{n} settings</b> the games can't tell apart (a front).",
    "design.html.about": "{trials} trials of {games} games each, proposed by Optuna's TPE; "
    "the finalists played again with {final} games on common seeds and compared by paired "
    "tests (5% error shared over every pair and goal). ✓ / ✗: the goal is met / not met "
    "by the whole 95% interval.",
    "design.html.goals": "Goals",
    "design.html.finalists": "Finalists",
    "design.html.trials": "Every trial",
    # -- tune: the terminal table and tune.html
    "tune.title": "tune {goal}: {n} candidates, racing (a value goes only when shown worse), "
    "games per survivor by round {rounds}",
    "tune.knob_value": "knob value",
    "tune.games": "games",
    "tune.figure": "figure [95% interval]",
    "tune.round": "round",
    "tune.best_mark": " <- best",
    "tune.open_mark": " (not ruled out)",
    "tune.best": "best: {point}  {figure} = {value} ({games} games)",
    "tune.closest": "closest: {point}  {figure} = {value} ({games} games); "
    "no value shown to reach {target}",
    "tune.open": "not ruled out (95% over the whole search): {shown}",
    "tune.none": "none",
    "tune.played": "games: {played} played of a budget of {budget}",
    "tune.reused": ", {reused} reused from a sweep",
    "tune.skipped": "skipped {what}",
    "tune.html.candidates": "Candidates",
    "tune.html.best_cell": "best",
    "tune.html.open_cell": " not ruled out",
    "tune.html.figure": "figure [95%]",
    "tune.html.last_round": "last round",
    "tune.html.closest": "<b>No value is shown to reach {target}</b>: the closest is named.\n",
    "tune.html.about": "Best: <b>{point}</b>, {figure} =\n{value} (95%, {games} games).\n"
    "Racing over common seeds (a value goes only when shown worse, 5% error over the whole "
    "search); games per survivor by round {rounds};\n"
    "{played} games played, {reused} reused from a sweep.",
    # -- sweep: the terminal table, Markdown and index.html
    "sweep.key": "Each figure: its value [95% interval]. {figure} is charted; beside it, the "
    "figures the knobs move most (spread over interval half-width). All: sweep.csv, --format "
    "csv/json.",
    "sweep.md_key": "Each figure: its value and 95% interval.",
    "sweep.written": "sweep: {folder}/ (sweep.csv, sweep.svg, {index} linking one report folder "
    "per point)",
    "sweep.report": "report",
    "sweep.html.title": "{name} sweep — balancer",
    "sweep.html.h1": "{name}: sweep of {knobs}",
    "sweep.html.sub": "{n} points, each played with the same seed and game count, so their "
    "differences are the knobs'. Charted: {figure}.",
    "sweep.html.points": "Points",
    # -- check: the terminal lines
    "check.verdict.pass": "pass",
    "check.verdict.fail": "fail",
    "check.verdict.undecided": "undecided",
    "check.difference": "difference ",
    "check.games": "{n} games",
    "check.stopped": " (stopped when decided)",
    "check.summary": "{passed} passed, {failed} failed, {undecided} undecided",
    # -- cards: the terminal table
    "cards.card": "card",
    "cards.held": "held",
    "cards.others": "others",
    "cards.difference": "difference",
    "cards.interval": "95% interval",
    "cards.verdict": "verdict",
    "cards.helps": "helps",
    "cards.hurts": "hurts",
    "cards.key": "{n} of {tested} kinds compared differ beyond chance after Holm's correction\n"
    "over the {tested} (p (Holm) <= {alpha}: helps or hurts; blank: can't tell).",
    "cards.written": "written to {target}",
    # -- card impact by role (terminal and report.html)
    "roles.title": "By role",
    "roles.note": "The win share one more card of each role in the opening hand brings "
    "(the slope over every seat and game, its 95% interval clustered by game); ● : "
    "beyond chance after Holm's correction over the roles.",
    "roles.role": "role",
    "roles.mean_held": "mean held",
    "roles.slope": "per card",
    "roles.key": "per card: win share one more card of the role in the opening hand brings;\n"
    "p (Holm) over the roles: helps or hurts beyond chance, blank: can't tell.",
    # -- the progress line and the line announcing the games (stderr)
    "progress.rate": "{rate} games/s",
    "progress.eta": "ETA {eta}",
    "progress.playing": "playing {games} games of {what} on {n} worker",
    "progress.compiling": (
        "compiling {what} with numba: once per install (cached on disk for every "
        "later run), a minute or more"
    ),
    "progress.compiling_tick": "still compiling ({seconds} s)",
    "progress.compiled": "compiled ({seconds} s); cached for every later run",
    "progress.what_games": "the {game} kernel's whole-game loop",
    "progress.what_steps": "the {game} kernel's stepping entry points (the search bot's play-outs)",
    "progress.what_roles_games": (
        "the game-file interpreter's whole-game loop (one for every game file: "
        "editing a game file compiles nothing)"
    ),
    "progress.what_roles_steps": (
        "the game-file interpreter's stepping entry points (the search bot's play-outs; "
        "one for every game file: editing a game file compiles nothing)"
    ),
    "progress.playing_many": "playing {games} games of {what} on {n} workers",
    # -- the sweep's and tune's charts
    "sweep.chart.same": "can't be told from the highest point",
    "sweep.chart.apart": "differs from the highest (Holm, 5%)",
    "sweep.chart.bars": "whiskers: 95% intervals",
    "sweep.chart.no_interval": "no interval for this figure",
    "sweep.heatmap.no_interval": "{figure}: no interval, so no shading (values only)",
    "sweep.heatmap.flat": "{figure}: no two cells can be told apart (95% intervals, Holm): one "
    "shade",
    "sweep.heatmap.tiers": "{figure}, value [95% interval]. Dark: can't be told from the "
    "highest; pale: can't be told from the lowest; middle: differs from both (Holm, 5%)",
    "tune.chart.title": "tune {goal}: {played} games played",
    "tune.chart.best": "best",
    "tune.chart.open": "not ruled out",
    "tune.chart.out": "ruled out",
    "tune.chart.target": "target",
    # -- plays: decisions, kingmaking, luck (balancer plays)
    "plays.title": "{variant}: {game}, {players} players, seed {seed}",
    "plays.decisions": "Decisions: {games} games watched; search's estimates from {samples} worlds "
    "per move; a real decision's moves differ by more than {margin} of a win",
    "plays.decisions_unsearched": "Decisions: {games} games watched (no search estimates: "
    "--search-budget 0)",
    "plays.seat": "seat",
    "plays.turns": "turns",
    "plays.choice": "choices [95%]",
    "plays.real": "real decisions [95%]",
    "plays.all": "all",
    "plays.kingmaking": "Kingmaking: a seat under {threshold}% of a win whose move, against an "
    "alternative, swings the race for the win by more than {margin}",
    "plays.kingmaking_games": "games with a kingmaking move: {share} ({moves} such moves among "
    "{out} choices of seats that could no longer win)",
    "plays.luck": "Luck and skill by duplicate play: {deals} deals, each seat played by each "
    "bot against {field} in the others",
    "plays.deal_share": "the deal's share of the outcome: {share}",
    "plays.win_share": "win share in the seat: {shares}",
    "plays.search_over": "search over {bot}: {points} points of win share",
    # -- how the games played: summary.md and report.html (report/how_it_plays.py)
    "play.title": "How it plays",
    "play.note": "How the games unfolded, read after each of their steps ({unit}): each figure "
    "over the games, with its 95% interval.",
    "play.figure": "figure",
    "play.value": "value",
    "play.interval": "95% interval",
    "play.meaning": "what it says",
    "play.lead_changes": "Lead changes",
    "play.lead_changes.meaning": "per game: how often the sole lead passed to another player",
    "play.decided_at": "Decided at",
    "play.decided_at.meaning": "how far into the game the winner took the lead for good",
    "play.comeback": "Comebacks",
    "play.comeback.meaning": "share of wins by a player who was last at halfway",
    "play.decision_share": "Decisions",
    "play.decision_share.meaning": "share of the players' turns that offered more than one move",
    "play.comeback.meaning_margin": (
        "share of wins by a player who was last, or more than {margin} points behind, at halfway"
    ),
    "play.real_decisions": "Real decisions",
    "play.real_decisions.meaning": "share of the players' turns whose best and worst moves "
    "surely differ by more than the margin of a win (search's estimates, on the plays: sample)",
    "play.kingmaking": "Kingmaking",
    "play.kingmaking.meaning": "share of games in which a player who could no longer win made a "
    "move whose alternative would have crowned another player (plays: sample)",
    "play.luck": "The deal's share",
    "play.luck.meaning": "share of the outcome's variance the deal explains, whoever plays the "
    "hand (duplicate play; 1: the deal decides)",
    "play.search_over_scripted": "Search over the scripted bot",
    "play.search_over_scripted.meaning": "win share search adds in a seat over the game's "
    "scripted bot, on the same deals (duplicate play)",
    "play.search_over_random": "Search over random",
    "play.search_over_random.meaning": "win share search adds in a seat over random play, on "
    "the same deals (duplicate play)",
    "play.drama": "Drama",
    "play.drama.meaning": "the winner's largest deficit, over the widest spread of scores "
    "(0: the winner never trailed)",
    "play.leader_wins": "Leader at {at}% wins",
    "play.leader_wins.meaning": "how often the sole leader at {at}% of the game goes on to win "
    "(games with a sole leader then)",
    "play.no_leader": "no game had a sole leader",
    "play.chart_x": "share of the game played",
    "play.chart_y": "leader's win share",
    "play.chart_note": "Dots: how often the sole leader at that point wins; whiskers: 95% "
    "intervals.",
    "play.chart_even": "a player at random ({share})",
    "play.chart_alt": "the leader's win share at 25%, 50% and 75% of the game, with 95% intervals",
    # -- balancer replay: the lines around a game's play-by-play
    "replay.title": "{name}: game {index} of seed {seed} ({game})",
    "replay.seats": "seats: {seats}",
    "replay.sep": ", ",
    "replay.only_seat": "(only what seat {seat} could see)",
    "replay.seat_only": "[seat {seat} only] {text}",
    "replay.length": "length: {length} {unit}",
    "replay.scores": "scores: {scores}",
    "replay.score": "seat {seat} {value:g}",
    "replay.win_shares": "win shares: {shares}",
    "replay.share": "seat {seat} {value:.3g}",
    "replay.events": "events: {events}",
    "replay.no_events": "none",
}
