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
    rows = [[p, v, s, "gain" if c.startswith("+") else "loss"] for p, v, s, c in PARTIES]
    binding = table(csv_binding, "election.csv", ["Party", "Votes", "Seats", "+/–"], rows)
    response = ask(binding, "how many parties lost seats?")
    assert response.status == "answered" and response.verification.passed, response.verification.reasons
    assert response.answer.startswith("Sorry, “lost”") and not response.verification.grounding, response.answer
    most = ask(binding, "which party lost the most seats?")
    assert most.answer.startswith("Sorry, “lost the most seats”") and not most.verification.grounding, most.answer


def test_lost_the_most_seats_ranks_the_change_never_the_seats_held(csv_binding):
    """ "New" (a party new to the chamber) and "±0" stand beside signed changes as web tables write them."""
    rows = [[p, v, s, {"Green Alliance": "New", "Liberal Forum": "±0"}.get(p, c)] for p, v, s, c in PARTIES]
    binding = table(csv_binding, "election.csv", ["Party", "Votes", "Seats", "+/–"], rows)
    lost = verified_answer(binding, "which party lost the most seats?")
    assert "Labour Party" in lost.answer and "Democratic Union" not in lost.answer, lost.answer
    gained = verified_answer(binding, "which party gained the most seats?")
    assert "Democratic Union" in gained.answer.split("\n")[0], gained.answer
    counted = verified_answer(binding, "how many parties lost seats?")
    assert "2" in _numbers(counted.answer.split("\n")[0]) and "New" in counted.answer, counted.answer


COACHES = [
    [1, "Walter Briggs", 82, 31, 51, ".378"],
    [2, "Eddie Marchetti", 148, 79, 69, ".534"],
    [3, "Dale Kowalczyk", 214, 127, 87, ".593"],
    [4, "Gene Sutherland", 105, 65, 40, ".619"],
    [5, "Tony Villareal", 252, 146, 106, ".579"],
]


def test_wins_beside_a_win_percentage_are_the_games_won_and_a_bare_decimal_is_a_number(csv_binding):
    binding = table(csv_binding, "coaches.csv", ["#", "Name", "Games", "Won", "Lost", "Win %"], COACHES)
    wins = verified_answer(binding, "which coach had the most wins?")
    assert "Tony Villareal" in wins.answer and "Gene" not in wins.answer, wins.answer
    lost = verified_answer(binding, "which coach lost the most games?")
    assert "Tony Villareal" in lost.answer and "252" not in lost.answer, lost.answer
    above = verified_answer(binding, "how many coaches had a winning percentage above .500?")
    assert "4" in _numbers(above.answer.split("\n")[0]) and "Win %" in above.answer, above.answer
    best = verified_answer(binding, "what was the highest win percentage?")
    assert "0.619" in best.answer, best.answer


def test_the_most_in_a_single_season_over_one_row_a_season_is_one_rows(csv_binding):
    rows = [
        ["2012–13", "Division One", 63, "Kwame Addo", 12],
        ["2013–14", "Division One", 72, "Danny Firth", 19],
        ["2014–15", "Division One", 88, "Danny Firth", 24],
        ["2015–16", "Premier", 46, "Kwame Addo", 9],
    ]
    binding = table(csv_binding, "club.csv", ["Season", "Division", "Pts", "Top scorer", "Goals"], rows)
    who = verified_answer(binding, "who scored the most goals in a single season?")
    assert "Danny Firth" in who.answer and "43" not in who.answer, who.answer
    most = verified_answer(binding, "what was the most points in a single season?")
    assert "88" in _numbers(most.answer.split("\n")[0]), most.answer


def test_how_many_games_did_they_win_adds_up_the_w_column(csv_binding):
    rows = [["2004–05", 18, 30, "Did not qualify"], ["2005–06", 22, 26, "Lost finals"], ["2006–07", 35, 13, "Won"]]
    binding = table(csv_binding, "seasons.csv", ["Season", "W", "L", "Playoffs"], rows)
    response = verified_answer(binding, "how many games did the team win?")
    assert "75" in _numbers(response.answer.split("\n")[0]) and "3" not in _numbers(response.answer), response.answer


def test_how_much_taller_and_how_many_more_in_one_year_than_another_are_one_difference(csv_binding):
    rows = [[1, "Piz Tarvena", "4,312"], [2, "Mont Orvelle", "4,208"], [3, "Cima Lentara", "4,150"]]
    peaks = table(csv_binding, "peaks.csv", ["Rank", "Mountain", "Height (m)"], rows)
    taller = verified_answer(peaks, "how much taller is mont orvelle than cima lentara?")
    assert "58" in _numbers(taller.answer.split("\n")[0]), taller.answer
    rows = [[2014, "Ellen Vasquez", "15,022"], [2018, "Ellen Vasquez", "19,587"], [2018, "Gordon Hale", "17,001"]]
    rows += [[2022, "Ellen Vasquez", "27,904"]]
    votes = table(csv_binding, "mayors.csv", ["Year", "Winner", "Votes"], rows)
    more = verified_answer(votes, "how many more votes did ellen vasquez receive in 2022 than in 2018?")
    assert "8,317" in more.answer.split("\n")[0], more.answer


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


def test_scored_and_conceded_rank_goals_for_and_against(csv_binding):
    rows = [[1, "Ostrava Kolejni", 30, 21, 4, 64, 24], [2, "Dinamo Berezno", 30, 19, 4, 58, 27]]
    rows += [[3, "Rudar Kopanice", 30, 8, 15, 33, 61]]
    binding = table(csv_binding, "league.csv", ["Pos", "Team", "Pld", "W", "L", "GF", "GA"], rows)
    scored = verified_answer(binding, "which team scored the most goals?")
    assert "Ostrava Kolejni" in scored.answer and "GF" in scored.answer, scored.answer
    conceded = verified_answer(binding, "which team conceded the most goals?")
    assert "Rudar Kopanice" in conceded.answer and "GA" in conceded.answer, conceded.answer
    lowest = verified_answer(binding, "which team finished in the lowest position?")
    assert "Rudar Kopanice" in lowest.answer and "Ostrava" not in lowest.answer, lowest.answer


def test_a_column_of_years_an_event_happened_takes_periods_and_says_how_old(csv_binding):
    rows = [["Arena Norte", "54,200", 2003], ["Campo San Telmo", "18,000", 1927], ["Estadio Pelayo", "31,870", 1958]]
    rows += [["Campo Nuevo", "22,500", 2019]]
    binding = table(csv_binding, "stadiums.csv", ["Stadium", "Capacity", "Opened"], rows)
    after = verified_answer(binding, "how many stadiums opened after 2000?")
    assert "2" in _numbers(after.answer.split("\n")[0]) and "Opened after 2000" in after.answer, after.answer
    oldest = verified_answer(binding, "what is the oldest stadium?")
    assert "Campo San Telmo" in oldest.answer and "Arena" not in oldest.answer, oldest.answer
    newest = verified_answer(binding, "which is the newest stadium?")
    assert "Campo Nuevo" in newest.answer.split("\n")[1], newest.answer


def test_a_size_said_with_its_degree_and_a_number_in_the_columns_scale(csv_binding):
    rivers = [["Vessa", "1,184"], ["Orlan", 942], ["Drava Mala", 571], ["Tisel", 480]]
    binding = table(csv_binding, "rivers.csv", ["River", "Length (km)"], rivers)
    longer = verified_answer(binding, "how many rivers are longer than 600 km?")
    assert "2" in _numbers(longer.answer.split("\n")[0]) and "Length (km) > 600" in longer.answer, longer.answer
    peaks = [["Piz Tarvena", "4,312", 1870], ["Mont Orvelle", "4,208", 1125], ["Grosser Falkhorn", "3,998", 1402]]
    binding = table(csv_binding, "peaks.csv", ["Mountain", "Height (m)", "Prominence (m)"], peaks)
    high = verified_answer(binding, "how many mountains are over 4,000 m high?")
    assert "2" in _numbers(high.answer.split("\n")[0]) and "Height (m)" in high.answer, high.answer
    episodes = [['"The Long Thaw"', "September 22, 2015", 7.84], ['"Crossing Lines"', "September 29, 2015", 7.12]]
    episodes += [['"Dead Reckoning"', "January 5, 2016", 6.21], ['"Homecoming"', "January 12, 2016", 5.4]]
    binding = table(csv_binding, "episodes.csv", ["Title", "Original air date", "U.S. viewers (millions)"], episodes)
    watched = verified_answer(binding, "how many episodes were watched by more than 6.5 million viewers?")
    assert "2" in _numbers(watched.answer.split("\n")[0]) and "6.5" in watched.answer, watched.answer
    aired = verified_answer(binding, "how many episodes aired in 2016?")
    assert aired.answer.startswith("count is 2."), aired.answer


def test_the_average_of_the_top_four_is_one_average_over_them(csv_binding):
    rows = [[1, "Norway", 7, 4, 3, 14], [2, "Sweden", 5, 6, 4, 15], [3, "Finland", 4, 2, 3, 9]]
    rows += [[4, "Denmark", 3, 3, 2, 8], [5, "Estonia", 1, 1, 2, 4]]
    binding = table(csv_binding, "medals.csv", ["Pos.", "NOC", "Gold", "Silver", "Bronze", "Total"], rows)
    response = verified_answer(binding, "what is the average number of gold medals won by the top four nations?")
    assert "4.75" in response.answer.split("\n")[0] and len(response.explanation) == 2, response.answer


def test_who_won_over_a_table_of_finishers_is_the_one_in_first_place(csv_binding):
    rows = [[1, "Geoffrey Kiptanui", "Kenya", "2:06:48"], [2, "Tesfaye Alemu", "Ethiopia", "2:06:59"]]
    rows += [[3, "Daniel Rotich", "Kenya", "2:07:31"]]
    binding = table(csv_binding, "marathon.csv", ["Position", "Athlete", "Nationality", "Time"], rows)
    for question in ("who won the marathon?", "which athlete won the race?"):
        response = verified_answer(binding, question)
        assert "Geoffrey Kiptanui" in response.answer and "Tesfaye" not in response.answer, response.answer


def test_a_number_spelt_in_a_columns_name_is_part_of_the_name_in_a_refusal(csv_binding):
    rows = [[1, "January 5, 2014", "Frozen", "Ender's Game (#5)"], [2, "January 12, 2014", "Frozen", "Her (#3)"]]
    binding = table(csv_binding, "weeks.csv", ["#", "Date", "Film", "Top Ten Places"], rows)
    response = ask(binding, "what was the previous number one before frozen held it?")
    assert response.status == "answered" and response.verification.passed, response.verification.reasons


DISCOGRAPHY = [
    [1994, "Glass Harbour", "—", 41, "—"],
    [1996, "Tin Cathedral", 88, 12, "—"],
    [1998, "Low Static", 23, 3, 31],
    [2000, "Northern Lights Kept", 9, 1, 6],
    [2003, "The Quiet Machine", 14, 2, 11],
]


def test_a_discographys_chart_columns_are_places_read_by_country(csv_binding):
    binding = table(csv_binding, "albums.csv", ["Year", "Album", "US", "UK", "CAN"], DISCOGRAPHY)
    best = verified_answer(binding, "which album charted highest in the us?")
    assert "Northern Lights Kept" in best.answer.split("\n")[1], best.answer
    top = verified_answer(binding, "how many albums reached the top 10 in the uk?")
    assert "3" in _numbers(top.answer.split("\n")[0]) and "UK <= 10" in top.answer, top.answer
    missing = verified_answer(binding, "how many albums did not chart in canada?")
    assert "2" in _numbers(missing.answer.split("\n")[0]) and "without CAN" in missing.answer, missing.answer
    first = verified_answer(binding, "what was the only album to reach number 1 in the uk?")
    assert "Northern Lights Kept" in first.answer and "Low Static" not in first.answer, first.answer


def test_which_ship_was_commissioned_last_names_the_ship_never_only_the_date(csv_binding):
    rows = [
        ["HMS Arden", "K101", "12 November 1940", "20 May 1941"],
        ["HMS Bexley", "K102", "28 December 1940", "15 June 1941"],
        ["HMS Lanark", "K112", "21 August 1942", "28 February 1943"],
    ]
    binding = table(csv_binding, "ships.csv", ["Name", "Pennant", "Launched", "Commissioned"], rows)
    last = verified_answer(binding, "which ship was commissioned last?")
    assert "HMS Lanark" in last.answer and "latest Commissioned" in last.answer, last.answer
    first = verified_answer(binding, "which ship was launched first?")
    assert "HMS Arden" in first.answer.split("\n")[1], first.answer


def test_the_largest_percentage_decrease_ranks_the_column_of_changes(csv_binding):
    rows = [["Ashby Marsh", "42,788", "44,543", "+4.1"], ["Hexley", "30,112", "27,431", "−8.9"]]
    rows += [["Ilford Green", "21,300", "24,964", "+17.2"], ["Brindley", "48,263", "49,457", "+2.5"]]
    header = ["Town", "Population (2001)", "Population (2011)", "Change (%)"]
    binding = table(csv_binding, "towns.csv", header, rows)
    down = verified_answer(binding, "which town had the largest percentage decrease in population?")
    assert "Hexley" in down.answer and "Ilford" not in down.answer, down.answer
    up = verified_answer(binding, "which town had the biggest increase in population?")
    assert "Ilford Green" in up.answer and "Hexley" not in up.answer, up.answer


def test_in_what_year_did_he_first_race_is_the_earliest_season(csv_binding):
    rows = [[2001, "Formula BMW Junior", 3, 0], [2002, "Formula BMW ADAC", 20, 9], [2003, "Formula 3", 20, 1]]
    binding = table(csv_binding, "career.csv", ["Season", "Series", "Races", "Wins"], rows)
    response = verified_answer(binding, "in what year did he first race?")
    assert "2001" in response.answer.split("\n")[0], response.answer
    relegated = ask(binding, "in what year did he first get relegated?")  # a condition no column holds
    assert "2001" not in relegated.answer, relegated.answer


def test_a_threshold_reads_the_column_its_noun_or_verb_names_and_its_scale(csv_binding):
    rows = [[1, "Arkady Melnik", 2741, 8.5], [2, "Sofia Dragan", 2698, 7.5], [3, "Li Wen", 2712, 5.5]]
    rows += [[4, "Ana Ruiz", 2655, 4.0]]
    binding = table(csv_binding, "chess.csv", ["Rank", "Player", "Rating", "Points"], rows)
    points = verified_answer(binding, "how many players scored at least 6 points?")
    assert "2" in _numbers(points.answer.split("\n")[0]) and "Points >= 6" in points.answer, points.answer
    assert "Rating" not in points.answer, points.answer
    rated = verified_answer(binding, "how many players were rated above 2700?")
    assert "2" in _numbers(rated.answer.split("\n")[0]) and "Rating > 2700" in rated.answer, rated.answer
    rows = [["Alvarra", "San Telmo", "1,254,300", 68.1], ["Granadilla", "Ocotal", "98,400", 7.2]]
    rows += [["Lagunas", "Puerto Real", "255,960", 12.5], ["Cordilla", "Mirador", "1,402,000", 90.2]]
    binding = table(csv_binding, "provinces.csv", ["Province", "Capital", "Population", "Density"], rows)
    sparse = verified_answer(binding, "which province has the lowest population density?")
    assert "Granadilla" in sparse.answer and "Density" in sparse.answer, sparse.answer
    million = verified_answer(binding, "how many provinces have a population over 1 million?")
    assert "2" in _numbers(million.answer.split("\n")[0]), million.answer
