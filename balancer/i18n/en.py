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
}
