"""Questions about rows of web-style tables that were answered with real numbers for another question: "how
many times" read as a column of times, "who won" answered with a date, the episode named by its numbers, a
match's attendance added up per opponent, "the top two combined" listed but never totalled, "lost seats"
answered with every party, a chart place, a player's games played counted as seasons, nominations split from
wins, the sign of a goal difference. Each is read, or refused, never answered with the wrong number."""

from __future__ import annotations

import re

from tests.agent.test_offline_clarifications import ask, verified_answer
from tests.agent.test_offline_question_shape import table

MINUS = "\u2212"  # the typographic minus web tables write: "−3"


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", text)


def test_how_many_times_counts_occasions_never_a_column_of_times(csv_binding):
    rows = [
        [2005, "World Youth Championships", "4th", "1:49.82"],
        [2006, "World Junior Championships", "1st", "1:47.10"],
        [2007, "European U23 Championships", "1st", "1:46.55"],
        [2008, "Olympic Games", "6th", "1:45.22"],
        [2009, "World Championships", "1st", "1:44.90"],
    ]
    binding = table(csv_binding, "record.csv", ["Year", "Competition", "Position", "Notes"], rows)
    response = verified_answer(binding, "how many times did he finish first?")
    first_line = response.answer.split("\n")[0]
    assert "3" in _numbers(first_line) and ":" not in first_line, response.answer


RACES = [
    [1, "Australian Grand Prix", "2005-03-06", "Michael Schumacher", "Giancarlo Fisichella", "Renault"],
    [2, "Malaysian Grand Prix", "2005-03-20", "Fernando Alonso", "Fernando Alonso", "Renault"],
    [3, "British Grand Prix", "2005-07-10", "Fernando Alonso", "Juan Pablo Montoya", "McLaren"],
    [4, "German Grand Prix", "2005-07-24", "Kimi Raikkonen", "Fernando Alonso", "Renault"],
    [5, "Hungarian Grand Prix", "2005-07-31", "Michael Schumacher", "Kimi Raikkonen", "McLaren"],
]
RACE_HEADER = ["Round", "Grand Prix", "Date", "Pole position", "Winning driver", "Constructor"]


def test_who_won_reads_the_winning_column_of_the_row_named_or_the_next_one(csv_binding):
    binding = table(csv_binding, "season.csv", RACE_HEADER, RACES)
    named = verified_answer(binding, "who won the british grand prix?")
    assert "Juan Pablo Montoya" in named.answer, named.answer
    after = verified_answer(binding, "who won the race after the british grand prix?")
    right_after = next(line for line in after.answer.split("\n") if line.startswith("Right after"))
    assert "Fernando Alonso" in right_after and "Kimi" not in right_after, after.answer


EPISODES = [
    [11, 1, '"The Long Way Home"', "2014-09-24", 8.42],
    [12, 2, '"Blood Orange"', "2014-10-01", 7.95],
    [13, 3, '"Safe Harbor"', "2014-10-08", 6.48],
    [14, 4, '"Homecoming"', "2014-10-15", 7.88],
]


def test_which_episode_names_the_episode_by_its_title(csv_binding):
    header = ["No. in series", "No. in season", "Title", "Original air date", "U.S. viewers (millions)"]
    binding = table(csv_binding, "episodes.csv", header, EPISODES)
    response = verified_answer(binding, "which episode had the fewest viewers?")
    assert "Safe Harbor" in response.answer.split("\n")[1], response.answer


def test_which_match_had_the_largest_attendance_is_one_match_not_an_opponent_total(csv_binding):
    rows = [
        ["2003-08-07", "Ravenscar FC", "A", 4493],
        ["2003-08-25", "Stanwick United", "H", 3128],
        ["2003-09-10", "Ashford Park", "H", 6557],
        ["2003-10-05", "Ravenscar FC", "H", 6338],
    ]
    binding = table(csv_binding, "matches.csv", ["Date", "Opponent", "Venue", "Attendance"], rows)
    response = verified_answer(binding, "which match had the largest attendance? give the opponent.")
    assert "Ashford Park" in response.answer and "10,831" not in response.answer, response.answer
    grouped = verified_answer(binding, "which opponent had the largest total attendance?")
    assert "Ravenscar FC" in grouped.answer and "10,831" in grouped.answer, grouped.answer


PARTIES = [
    ["Democratic Union", "1,284,511", 48, "+6"],
    ["Labour Party", "1,102,377", 41, f"{MINUS}3"],
    ["Green Alliance", "412,908", 14, "+5"],
    ["Farmers' Party", "298,446", 10, f"{MINUS}2"],
    ["Liberal Forum", "201,733", 6, f"{MINUS}4"],
    ["Total", "3,299,975", 119, "—"],
]


def test_the_top_two_combined_is_their_total_computed_by_a_query(csv_binding):
    binding = table(csv_binding, "election.csv", ["Party", "Votes", "Seats", "+/–"], PARTIES)
    response = verified_answer(binding, "how many seats did the top two parties win combined?")
    assert response.answer.startswith("Together") and "89" in response.answer.split("\n")[0], response.answer
    assert len(response.explanation) == 2, "the total is queried (one more query), never added up in the text"


def test_lost_seats_keeps_the_rows_whose_change_is_below_zero(csv_binding):
    binding = table(csv_binding, "election.csv", ["Party", "Votes", "Seats", "+/–"], PARTIES)
    response = verified_answer(binding, "how many parties lost seats?")
    assert "3" in _numbers(response.answer.split("\n")[0]) and "lost (+/–)" in response.answer, response.answer
    gained = verified_answer(binding, "how many parties gained seats?")
    assert "2" in _numbers(gained.answer.split("\n")[0]), gained.answer


def test_lost_seats_without_a_column_of_numbers_is_refused_not_counted_over_every_party(csv_binding):
    rows = [[p, v, s, "New" if p == "Green Alliance" else c] for p, v, s, c in PARTIES]
    binding = table(csv_binding, "election.csv", ["Party", "Votes", "Seats", "+/–"], rows)
    response = ask(binding, "how many parties lost seats?")
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    assert response.answer.startswith("Sorry, “lost”") and not response.verification.grounding, response.answer


def test_a_place_on_a_chart_is_that_number_on_the_chart_named(csv_binding):
    rows = [
        [1994, '"Slow Burn"', 41, 12],
        [1995, '"Sweet Surrender"', 7, 1],
        [1997, '"Gravity"', 3, 1],
        [1998, '"Halo"', 1, 2],
    ]
    binding = table(csv_binding, "singles.csv", ["Year", "Single", "US", "US R&B"], rows)
    response = verified_answer(binding, "how many singles reached number one on the us r&b chart?")
    assert "2" in _numbers(response.answer.split("\n")[0]) and "US R&B = 1" in response.answer, response.answer


def test_games_played_of_a_player_adds_up_gp(csv_binding):
    rows = [
        ["2012–13", "Memphis", 74, 12, 7.2],
        ["2013–14", "Boston", 81, 81, 19.4],
        ["2014–15", "Boston", 77, 70, 15.9],
        ["2015–16", "Phoenix", 44, 0, 6.4],
    ]
    binding = table(csv_binding, "stats.csv", ["Year", "Team", "GP", "GS", "PPG"], rows)
    response = verified_answer(binding, "how many games did he play for boston?")
    assert "158" in response.answer, response.answer
    best = verified_answer(binding, "in which season did he average the most points per game?")
    assert "2013–14" in best.answer, best.answer


def test_nominated_counts_every_nomination_and_says_how_many_were_won(csv_binding):
    rows = [
        [2010, "Best Female Artist", "Won"],
        [2011, "Best Album", "Nominated"],
        [2013, "Best Female Artist", "Nominated"],
        [2017, "Best Female Artist", "Won"],
    ]
    binding = table(csv_binding, "awards.csv", ["Year", "Category", "Result"], rows)
    response = verified_answer(binding, "how many times was she nominated for best female artist?")
    first = response.answer.split("\n")[0]
    assert _numbers(first)[:3] == ["3", "2", "1"] and "Won" in first and "Nominated" in first, response.answer


def test_a_negative_goal_difference_is_below_zero_on_gd(csv_binding):
    rows = [
        [1, "FK Sloboda", 22, 12, 4, "+19", 42],
        [2, "FK Radnik", 22, 10, 5, "+9", 37],
        [3, "NK Vitez", 22, 6, 10, f"{MINUS}5", 24],
        [4, "FK Borac", 22, 4, 13, f"{MINUS}13", 17],
        [5, "NK Rudar", 22, 5, 11, f"{MINUS}1", 21],
    ]
    binding = table(csv_binding, "league.csv", ["Pos", "Team", "Pld", "W", "L", "GD", "Pts"], rows)
    response = verified_answer(binding, "how many teams finished with a negative goal difference?")
    assert "3" in _numbers(response.answer.split("\n")[0]) and "negative (GD)" in response.answer, response.answer


def test_a_career_total_row_is_a_summary_row_left_out_of_rankings_and_totals(csv_binding):
    rows = [
        ["2007–08", "Sparta", 33, 11],
        ["2008–09", "Sparta", 30, 14],
        ["2009–10", "Vitesse", 34, 19],
        ["Career total", "", 97, 44],
    ]
    binding = table(csv_binding, "career.csv", ["Season", "Club", "Apps", "Goals"], rows)
    best = verified_answer(binding, "in which season did he score the most goals?")
    assert "2009–10" in best.answer.split("\n")[0] and "Career total" not in best.answer.split("\n")[0], best.answer
    total = verified_answer(binding, "how many goals did he score in total?")
    assert "44" in total.answer and "88" not in total.answer, total.answer


def test_how_many_races_did_he_win_adds_up_wins_with_the_races_beside(csv_binding):
    rows = [[2005, "Minardi", 19, 0], [2009, "Renault", 17, 2], [2012, "Ferrari", 20, 2], ["Total", "", 56, 4]]
    binding = table(csv_binding, "career.csv", ["Season", "Team", "Races", "Wins"], rows)
    response = verified_answer(binding, "how many races did he win in his career?")
    first = response.answer.split("\n")[0]
    assert _numbers(first)[:2] == ["4", "56"] and "Wins" in first, response.answer
    teams = [["Reds", 10, 6, 4], ["Blues", 10, 3, 7]]
    league = table(csv_binding, "league.csv", ["Team", "Played", "Wins", "Losses"], teams)
    counted = verified_answer(league, "how many teams won more than 5 games?")
    assert "1" in _numbers(counted.answer.split("\n")[0]), "teams counted, not wins added up: " + counted.answer


def test_a_size_superlative_on_a_column_of_names_is_asked_not_counted(csv_binding):
    rows = [["Lillehammer", "HS100"], ["Lillehammer", "HS138"], ["Vikersund", "HS225"], ["Planica", "HS138"]]
    binding = table(csv_binding, "hills.csv", ["Place", "Hill"], rows)
    response = ask(binding, "which venue had the largest hill?")
    assert not response.verification.grounding and "HS138" not in response.answer, response.answer
    assert "largest" in response.answer, response.answer


def test_the_difference_between_two_years_and_a_change_from_one_season_to_another(csv_binding):
    rows = [[2012, "Won", 61204], [2014, "Won", 98115], [2016, "Won", 155402]]
    binding = table(csv_binding, "votes.csv", ["Year", "Result", "Votes"], rows)
    more = verified_answer(binding, "how many more votes did she receive in 2016 than in 2014?")
    assert "57,287" in more.answer.split("\n")[0], more.answer
    seasons = [["2009–10", 66, 12.6], ["2010–11", 80, 18.3], ["2011–12", 58, 17.0]]
    stats = table(csv_binding, "stats.csv", ["Year", "GP", "PPG"], seasons)
    up = verified_answer(stats, "how much did his points per game go up from 2009–10 to 2010–11?")
    assert "5.7" in up.answer.split("\n")[0], up.answer
    down = verified_answer(stats, "how much did his points per game drop from 2010–11 to 2011–12?")
    assert "1.3" in down.answer.split("\n")[0], down.answer


def test_a_zone_number_is_which_zone_never_an_amount(csv_binding):
    rows = [["Central", 0.0, 1], ["Park Lane", 2.4, 1], ["Wexley", 5.1, 2], ["Brookfield", 7.9, 2], ["Ashby", 9.0, 3]]
    binding = table(csv_binding, "stations.csv", ["Station", "Distance (km)", "Zone"], rows)
    response = verified_answer(binding, "how many stations are in zone 2?")
    assert "2" in _numbers(response.answer.split("\n")[0]) and "Zone = 2" in response.answer, response.answer


def test_a_kind_counted_by_its_one_value_says_how_many_dates_its_rows_fall_on(csv_binding):
    rows = [  # one row per goal: a match with two goals is listed twice
        ["1998-10-14", "Estonia", "Euro 2000 qualifying"],
        ["1998-10-14", "Estonia", "Euro 2000 qualifying"],
        ["1999-03-27", "Lithuania", "Euro 2000 qualifying"],
        ["1999-06-05", "Estonia", "Friendly"],
    ]
    binding = table(csv_binding, "goals.csv", ["Date", "Opponent", "Competition"], rows)
    response = verified_answer(binding, "how many euro 2000 qualifying competitions are listed?")
    assert _numbers(response.answer.split("\n")[0])[:2] == ["3", "2"] and "Date" in response.answer, response.answer
    single = verified_answer(binding, "how many friendly competitions are listed?")
    assert _numbers(single.answer.split("\n")[0]) == ["1"], "the same number is not said twice: " + single.answer


def test_a_best_ranking_or_top_position_is_the_row_with_place_one(csv_binding):
    rows = [["1984/85", "3ª", "6th"], ["1985/86", "3ª", "1st"], ["1986/87", "2ªB", "19th"], ["1987/88", "2ªB", "9th"]]
    binding = table(csv_binding, "club.csv", ["Season", "Division", "Place"], rows)
    best = verified_answer(binding, "what is his best ranking season?")
    assert "1985/86" in best.answer.split("\n")[1], best.answer
    record = [
        [1999, "Universiade", "2nd"],
        [2001, "World Championships", "16th"],
        [2001, "Universiade", "1st"],
        [2003, "World Championships", "7th"],
    ]
    athlete = table(csv_binding, "record.csv", ["Year", "Competition", "Position"], record)
    top = verified_answer(athlete, "what competition is lorenzo's top position in?")
    assert "Universiade · 2001" in top.answer, "his own record, no one else's: " + top.answer
    people = [["Lorenzo", "Universiade", 2], ["Marco", "World Championships", 1]]
    others = table(csv_binding, "people.csv", ["Athlete", "Competition", "Position"], people)
    unknown = ask(others, "what competition is luigi's top position in?")
    assert not unknown.verification.grounding, "a name a column of people lacks is asked about: " + unknown.answer


def test_a_verb_is_not_the_pick_column_and_a_relative_clause_names_the_other_column(csv_binding):
    picks = [[1, 3, "Al", "Canada"], [2, 40, "Bo", "Canada"], [3, 71, "Cy", "Sweden"], [4, 99, "Di", "Canada"]]
    binding = table(csv_binding, "draft.csv", ["Round", "Pick", "Player", "Nationality"], picks)
    response = verified_answer(binding, "what nationality picked the most players?")
    assert "Canada" in response.answer.split("\n")[0], response.answer
    before = ask(binding, "the most players picked came from which nationality?")
    assert "Pick" not in before.answer.split("\n")[0], "the players counted, never the highest pick: " + before.answer
    rivers = [["Danubia", 900, 50000, "Sea"], ["Timava", 347, 12005, "Danubia"], ["Moravica", 120, 3615, "Timava"]]
    rivers += [["Ribnica", 104, 960, "Timava"]]
    flows = table(csv_binding, "rivers.csv", ["River", "Length (km)", "Basin (km²)", "Mouth"], rivers)
    larger = verified_answer(flows, "of the rivers that flow into the timava, which has the larger basin?")
    assert "Moravica" in larger.answer.split("\n")[0] and "Mouth = Timava" in larger.answer, larger.answer
