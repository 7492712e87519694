"""Stated figures must be true (`toolscale.judge.figures`): an amount, count or date the agent
tells the caller that no record, caller message or obvious sum backs is named in the reason;
the same figures in other formats, and a total of two record amounts, pass."""

from __future__ import annotations

from toolscale.core.registry import get_domain
from toolscale.judge.figures import unbacked_figures
from toolscale.judge.readings import worded_amount

ORDER = (
    '{"order_id": "O1", "placed_on": "2025-09-13", "items": [{"name": "Tent", "price": 185.99}, '
    '{"name": "Vest", "price": 101.99}], "shipping": 9.5, "refunded": 0.0}'
)
CALLER = "Hi, I want to return the tent from my order of two items."
POLICY = "Items can be returned within 30 days of delivery. Today is 2025-09-20."


def problems(said: str) -> list[str]:
    return unbacked_figures([said], [CALLER, ORDER], [POLICY])


def test_a_wrong_amount_or_date_is_named() -> None:
    assert problems("Your refund of $192.99 is on its way.") == [
        "stated amount not backed by any record: '$192.99'"
    ]
    assert problems("Your order was placed on 16 September.") == [
        "stated date not backed by any record: '16 september'"
    ]
    assert problems("Your order of 2025-09-13 holds 5 items.") == [
        "stated amount not backed by any record: '5'"
    ]


def test_the_records_figures_in_any_format_pass() -> None:
    assert problems("The tent cost $185.99; you ordered it on Saturday 13 September.") == []
    assert problems("Refund: 185.99 USD for the order of Sep 13, 2025 (2 items).") == []
    assert problems('{"answer": "The refund is 185.99.", "confidence": 0.9}') == []


def test_obvious_derivations_pass() -> None:
    # 185.99 + 101.99 = 287.98; 185.99 - 9.50 = 176.49; 2 x 101.99 = 203.98; 30 days on.
    assert problems("Your two items came to $287.98.") == []
    assert problems("After the $9.50 shipping you get 176.49 back.") == []
    assert problems("Two vests would be 203.98.") == []
    assert problems("You can return it until 13 October 2025.") == []


def test_a_date_a_few_days_off_or_two_policy_amounts_are_not_derived() -> None:
    assert problems("It was placed on 2025-09-16.") == [
        "stated date not backed by any record: '2025-09-16'"
    ]
    # 30 and 20 of the policy are no amounts, and "7.00" is not "year 7"
    assert unbacked_figures(["The fee is 7.00."], ['{"year": 7}'], [POLICY]) == [
        "stated amount not backed by any record: '7.00'"
    ]


def test_a_money_fields_whole_number_is_an_amount() -> None:
    # "balance": 63 is money by its field's name, so "63 dollars" is backed; a wrong one is not
    account = ['{"account_id": "A1", "balance": 63, "year": 7}']
    assert unbacked_figures(["The balance is 63 dollars."], account) == []
    assert unbacked_figures(["Your balance is $63.00."], account) == []
    assert unbacked_figures(["The balance is 64 dollars."], account) == [
        "stated amount not backed by any record: '64 dollars'"
    ]


def test_times_ids_names_and_list_numbers_are_no_figures() -> None:
    said = "1. Order O1 at 7:30 pm, sent to 89 Tracy Fort; ticket TK22071 at 19:30."
    assert problems(said) == []


def test_the_kits_domains_check_figures_and_others_do_not() -> None:
    assert get_domain("bank").checks_figures and get_domain("weather").checks_figures
    assert not get_domain("math").checks_figures


def test_a_house_number_before_a_street_named_like_a_month_is_no_figure() -> None:
    assert problems("Your addresses: 137 Martinez Lock and 8 Moore Course.") == []


# A cancellation receipt and the caller's game listing: what `toolscale.judge.attributed` reads.
RECEIPT = '{"reservation_id": "RS1", "cancellation_fee": 0.0, "deposit_refund": 20.0}'
SEATS = '{"booking_id": "B1", "showing_id": "S1", "date": "2025-09-18", "seats": 2, "price": 7.0}'
LISTING = '[{"game_id": "G1", "date": "2025-11-12"}, {"game_id": "G2", "date": "2025-11-15"}]'


def test_an_amount_said_of_a_field_must_be_that_fields() -> None:
    # 7.00 is the booking's price, but the receipt's cancellation fee is 0.00
    records = [CALLER, RECEIPT, SEATS]
    assert unbacked_figures(["Cancelled; the fee is 7.00."], records) == [
        "stated fee is not the records': '7.00'"
    ]
    assert unbacked_figures(["Cancelled; the late cancellation fee: 7.00."], records) == [
        "stated cancellation fee is not the records': '7.00'"
    ]
    assert unbacked_figures(["Cancelled; the cancellation fee is 0.00."], records) == []
    # 14.00 = 2 x the price of 7.00: a field's value times a count
    assert unbacked_figures(["For both seats the price is 14.00."], records) == []
    # said of no field: only the records' figures count (7.00 is shown)
    assert unbacked_figures(["You pay 7.00."], records) == []


def test_a_date_said_of_a_record_must_be_that_records() -> None:
    # 2025-11-15 is G2's date, not G1's; said of nothing in particular it is backed
    assert unbacked_figures(["Game G1 tips off on 2025-11-15 at 19:30."], [LISTING]) == [
        "stated date is not that of G1: '2025-11-15'"
    ]
    assert unbacked_figures(["Game G1 tips off on Wednesday 12 November."], [LISTING]) == []
    assert unbacked_figures(["The game tips off on 2025-11-15."], [LISTING]) == []
    # the caller's own date, in a clause naming G1, is the caller's
    said = ["I can't move game G1 to 15 November."]
    assert unbacked_figures(said, ["Please move G1 to 15 November.", LISTING]) == []


def test_a_yearless_weekday_is_not_backed_by_the_same_day_a_year_off() -> None:
    # 2025-12-10 is a Wednesday; 11 December 2025 a Thursday, 11 December 2024 a Wednesday
    records = ['{"game_id": "G1", "date": "2025-12-11"}', '{"today": "2025-12-01"}']
    policy = ["Season passes run for a year."]
    assert unbacked_figures(["The game is on Wednesday 11 December."], records, policy) == [
        "stated date not backed by any record: 'wednesday 11 december'"
    ]
    assert unbacked_figures(["The game is on Thursday 11 December."], records, policy) == []


# A ticket order, a season-pass renewal and the policy's rates: the figures a grader reads in
# their sentence (`toolscale.judge.figure_roles`).
TICKETS = '{"order_id": "TK5", "seats": 3, "service_fee": 13.5, "price_paid": 2908.25}'
RENEWAL = '{"renewal_id": "RN7", "charged": 2732.24, "seats": 41, "price": 68.0}'
RATES = "A late cancellation costs $7.50 per guest. Each API pack adds 10,000 calls."


def test_worked_arithmetic_backs_its_result_when_it_holds() -> None:
    # 4.50 x 3 = 13.50 is the order's service fee, 4.50 a third of it; 68 x 41 = 2,788
    records = [TICKETS, RENEWAL]
    assert unbacked_figures(["Service fee: $4.50 x 3 = $13.50."], records) == []
    assert unbacked_figures(["Seats: $68 x 41 = $2,788.00."], records) == []
    # wrong arithmetic backs nothing, and a wrong operand is still named
    assert unbacked_figures(["Seats: $68 x 41 = $2,798.00."], records) == [
        "stated amount not backed by any record: '$2798.00'"
    ]
    assert unbacked_figures(["Seats: $69 x 41 = $2,829.00."], records) == [
        "stated amount not backed by any record: '$69'",
        "stated amount not backed by any record: '$2829.00'",
    ]
    # the result is the claim the label makes: 13.50 is no price paid
    assert unbacked_figures(["Price paid: $4.50 x 3 = $13.50."], [TICKETS]) == [
        "stated price paid is not the records': '$13.50'"
    ]


def test_rates_and_bounds_are_not_said_of_a_records_field() -> None:
    receipt = [CALLER, RECEIPT]
    said = "No fee now; after that a late-cancellation fee of $7.50 per guest applies."
    assert unbacked_figures([said], receipt, [RATES]) == []
    # a rate nobody showed is still unbacked
    assert unbacked_figures([said.replace("7.50", "9.50")], receipt, [RATES]) == [
        "stated amount not backed by any record: '$9.50'"
    ]
    limit = ["Please go ahead if the total stays under $100.", TICKETS]
    assert unbacked_figures(["Since the total is $100 or more, I need your OK."], limit) == []
    assert unbacked_figures(["The price paid is $100."], limit) == [
        "stated price paid is not the records': '$100'"
    ]


def test_an_amount_said_after_a_records_id_may_be_any_of_its_fields() -> None:
    # "Charged" is the renewal's field name, but the amount is said of order TK5
    records = [TICKETS, RENEWAL]
    said = "Renewal RN7 is done.\n\nTicket order TK5, three seats.\nCharged: $2,908.25"
    assert unbacked_figures([said], records) == []
    assert unbacked_figures([said.replace("TK5", "RN7")], records) == [
        "stated charged is not the records': '$2908.25'"
    ]


def test_a_quantity_times_a_count_and_list_numbers() -> None:
    assert unbacked_figures(["Two packs: that adds 20,000 calls."], [CALLER], [RATES]) == []
    # the count must be shown: the caller said "two", nobody said three
    assert unbacked_figures(["That adds 30,000 calls."], [CALLER], [RATES]) == [
        "stated amount not backed by any record: '30000'"
    ]
    said = "I need (1) the email on the account and (2) the card code, or 3) your phone."
    assert problems(said) == []


def test_an_offered_date_is_no_claim_but_must_be_on_the_calendar() -> None:
    # 2025-07-28 is a Monday; 29 July 2025 a Tuesday, 27 July a Sunday
    records = ['{"restaurant_id": "R1", "closed_on": "monday", "today": "2025-07-20"}']
    said = "It is closed on Mondays; for example Tuesday 29 July or Sunday 27 July would work."
    assert unbacked_figures([said], records) == []
    assert unbacked_figures([said.replace("Sunday 27", "Monday 27")], records) == [
        "stated date not backed by any record: 'monday 27 july'"
    ]
    # stated, not offered: still a claim
    assert unbacked_figures(["Your table is booked for Tuesday 29 July."], records) == [
        "stated date not backed by any record: 'tuesday 29 july'"
    ]


def test_a_negative_amount_is_backed_by_its_size() -> None:
    quote = ['{"booking_id": "BK1", "fare_difference": -76.95, "change_fee": 22.5}']
    said = "The fare difference is $76.95 lower, but a lower fare is not refunded."
    assert unbacked_figures([said], quote) == []
    assert unbacked_figures(["The fare difference is $76.59."], quote) == [
        "stated amount not backed by any record: '$76.59'"
    ]


def test_the_callers_count_with_the_records_count() -> None:
    # 3 ice creams on the booking and four popcorns asked for would make 7 snacks
    booking = ['{"booking_id": "B1", "snacks": [{"item": "ice cream", "quantity": 3}]}']
    caller = ["Please have four servings of small popcorn ready."]
    said = "The booking has 3 snacks; 4 more would make 7, over the limit of 6."
    policy = ["At most 6 snacks per booking."]
    assert unbacked_figures([said], caller + booking, policy) == []
    assert unbacked_figures([said.replace("make 7", "make 8")], caller + booking, policy) == [
        "stated amount not backed by any record: '8'"
    ]


def test_a_callers_yearless_date_moves_by_a_stated_period() -> None:
    # 9 May 2025 (a Friday) less 45 days is 25 March; "3D" is a format, not a count
    records = ["Can you move it to Friday 9 May?", '{"appointment_id": "A1", "date": "2025-04-17"}']
    policy = ["Appointments can be booked up to 45 days ahead."]
    said = "You could book 9 May from 25 March, in 3D or standard."
    assert unbacked_figures([said], records, policy) == []
    assert unbacked_figures([said.replace("25 March", "26 March")], records, policy) == [
        "stated date not backed by any record: '26 march'"
    ]


def test_a_stated_rate_of_an_amount_and_sums_of_sizes() -> None:
    # 20% of the 106.20 paid is 21.24, leaving 84.96; $68 x 20 = $1,360 less 10% is $1,224
    ticket = ['{"ticket_id": "TK1", "price_paid": 106.2, "fee": 0.0, "refund": 106.2}']
    policy = ["Returns 7 days or more before tip-off are free; later, a 20% fee is kept."]
    said = "After that a 20% fee is kept (that would be $21.24, leaving $84.96)."
    assert unbacked_figures([said], ticket, policy) == []
    assert unbacked_figures([said.replace("21.24", "21.42")], ticket, policy) == [
        "stated amount not backed by any record: '$21.42'"
    ]
    passes = ['{"pass_id": "SP1", "price_per_game": 68.0, "games": 20}']
    loyal = ["Renewals get a 10% loyalty discount."]
    said = "The half plan is $68 x 20 games = $1,360, less the 10% discount: $1,224.00."
    assert unbacked_figures([said], passes, loyal) == []
    # two purchases of -316.87 and -136.48 "add up to $453.35"
    spent = ['[{"amount": "-316.87", "counterparty": "Delta"}, {"amount": "-136.48"}]']
    assert unbacked_figures(["Together they add up to $453.35."], spent) == []
    # a per-seat share of a 9.00 service fee, said as every seat's
    quote = ['{"price_per_seat": 44.0, "service_fee": 9.0, "total": 97.0}', "Two seats."]
    assert unbacked_figures(["Every seat carries a service fee of $4.50."], quote) == []
    assert unbacked_figures(["The service fee is $4.50."], quote) == [
        "stated amount not backed by any record: '$4.50'"
    ]


def test_a_time_after_a_date_and_a_listed_day_with_its_weekday() -> None:
    # "21 September 6 pm" is no 6 September; "Wednesday 16 or Friday 18 July" lists two days
    showings = ['{"showing_id": "S1", "date": "2025-09-21", "time": "18:00"}']
    said = "If you'd like the Sunday 21 September 6 pm IMAX showing, just ask."
    assert unbacked_figures([said], showings) == []
    closed = ['{"restaurant_id": "R1", "closed": "thursday", "today": "2025-07-14"}']
    offer = "For example Wednesday 16 or Friday 18 July at 13:00 would work."
    assert unbacked_figures([offer], closed) == []


def test_an_amount_the_caller_says_in_words_backs_its_figure() -> None:
    # A bank caller asks for "thirty-five hundred dollars" (domains/bank/entities.LIMITS); the
    # agent refusing "$3,500" repeats the caller's amount, which no record holds.
    said = ["I cannot set a daily limit of $3,500; the most for your tier is $3,000."]
    policy = ["A gold customer's card daily limit is at most $3,000."]
    for words in ("thirty-five hundred dollars", "three thousand five hundred dollars"):
        caller = [f"Could you raise my daily limit to {words}?"]
        assert unbacked_figures(said, caller, policy) == []
    # Other words are another amount, and a count in words before no currency is no amount.
    caller = ["Could you raise my daily limit to twenty-five hundred dollars for three cards?"]
    assert unbacked_figures(said, caller, policy) == [
        "stated amount not backed by any record: '$3500'"
    ]
    assert worded_amount("a thousand") == 1000 and worded_amount("fifteen hundred") == 1500
    assert worded_amount("one hundred and twenty") == 120 and worded_amount("and") is None


def test_a_policy_price_per_unit_times_a_shown_number_backs_its_amount() -> None:
    # round K/L: "your 19,000 points ($190.00)" and a renewal "$1,224.00, or $61.20 per game"
    points = ["- Points are redeemed in steps of 100, each point worth $0.01, on a booked trip."]
    caller = ["I want to redeem 19000 points against my holiday."]
    assert unbacked_figures(["Your 19,000 points ($190.00) could go to TP1."], caller, points) == []
    assert unbacked_figures(["19,000 points make $191.00."], caller, points) == [
        "stated amount not backed by any record: '$191.00'"
    ]
    # the policy's per-game price on a wrapped line, times the pass's 20 games, less 10%
    renew = [
        "- The price is the per-game price of its section (upper $30, lower\n  $68) times the "
        "plan's games (full 41, half 20), less 2% per season\n  already held, at most 10%."
    ]
    passes = ['[{"games": 20, "price_paid": 1400.0, "seasons": 8, "section": "lower"}]']
    said = ["A renewal would come to $1,224.00, or $61.20 per game."]  # 68 x 20 = 1,360 less 136
    assert unbacked_figures(said, passes, renew) == []
    said = ["A renewal would come to $1,225.00."]
    assert unbacked_figures(said, passes, renew) == [
        "stated amount not backed by any record: '$1225.00'"
    ]


def test_a_date_proposed_in_a_question_need_only_be_on_the_calendar() -> None:
    # round L: "Would you like me to check, say, Thursday 31 July or Saturday 2 August?"
    shown = ['{"closed_on": "Friday"}', "A table on Friday 1 August 2025, please."]
    ask = "Would you like me to check, say, Thursday 31 July or Saturday 2 August at 13:00?"
    assert unbacked_figures([ask], shown) == []
    wrong = "Shall I check Thursday 30 July instead?"  # 30 July 2025 is a Wednesday
    assert unbacked_figures([wrong], shown) == [
        "stated date not backed by any record: 'thursday 30 july'"
    ]


def test_dates_listed_under_an_offer_need_only_be_on_the_calendar() -> None:
    # issue 47 run E: a teacher's free slots listed, then "Would you like me to move it to one
    # of these?"
    shown = ['{"teaching_days": ["Monday", "Tuesday", "Saturday"]}', "Move it to Wednesday 1 "
             "October 2025, please."]  # fmt: skip
    offer = (
        "Her closest free slots are:\n- Monday 29 September at 17:00\n- Tuesday 30 September "
        "at 17:00\nWould you like me to move it to one of these?"
    )
    assert unbacked_figures([offer], shown) == []
    stated = offer.replace("Would you like me to move it to one of these?", "I moved it.")
    assert len(unbacked_figures([stated], shown)) == 2  # stated, not offered: each unbacked


def test_todays_date_and_a_list_items_date_are_no_other_records() -> None:
    # issue 47 run E: "MS14712 was moved ..., effective today (2025-09-15)" and a list of two
    # unpaid visits, each item's date read as the next item's record
    policy = ["Today is 2025-09-15."]
    member = ['{"membership_id": "MS14712", "start_date": "2024-05-21"}']
    said = ["Done: MS14712 was moved to dedicated_desk, effective today (2025-09-15)."]
    assert unbacked_figures(said, member, policy) == []
    visits = [
        '[{"appointment_id": "AP31138", "date": "2025-08-21", "fee": 106.5}, '
        '{"appointment_id": "AP31141", "date": "2025-08-31", "fee": 65.0}]'
    ]
    listed = "Unpaid:\n- AP31138: boarding on 2025-08-21, $106.50\n- AP31141: checkup on 2025-08-31"
    assert unbacked_figures([listed], visits, policy) == []
    swapped = "Unpaid:\n- AP31138: boarding on 2025-08-31\n- AP31141: checkup on 2025-08-21"
    assert unbacked_figures([swapped], visits, policy) == [
        "stated date is not that of AP31138: '2025-08-31'",
        "stated date is not that of AP31141: '2025-08-21'",
    ]


def test_a_stays_nights_move_its_check_in_to_its_check_out() -> None:
    # round L: "from Tuesday 30 September for 5 nights (check-out 5 October)"
    caller = ["Book Sable House for 5 nights from 30 September 2025, please."]
    said = ["A stay from Tuesday 30 September for 5 nights (check-out 5 October) fits."]
    assert unbacked_figures(said, caller) == []
    wrong = ["A stay from Tuesday 30 September (check-out 6 October) fits."]
    assert unbacked_figures(wrong, caller) == ["stated date not backed by any record: '6 october'"]


def test_a_margin_of_two_figures_the_message_states_is_backed() -> None:
    # round M: "the final score was Lakeshore Hawks 124, Harbor Mariners 108, so the Hawks won
    # by 16 points"
    game = ['{"away_score": 124, "home_score": 108, "seats_left": {"upper": 235}}']
    said = ["The final score was Hawks 124, Mariners 108, so the Hawks won by 16 points."]
    assert unbacked_figures(said, game) == []
    assert unbacked_figures(["The Hawks won by 17 points."], game) == [
        "stated amount not backed by any record: '17'"
    ]


def test_an_age_worked_out_from_a_birth_date_is_backed() -> None:
    # round M: "Going by the date of birth on your account (14 October 2010), you will still be
    # 14 on 24 September", for a showing on 2025-09-24
    shown = ['{"birth_date": "2010-10-14"}', '[{"date": "2025-09-24", "rating": "15"}]']
    said = ["Born 14 October 2010, you will still be 14 on 24 September 2025."]
    assert unbacked_figures(said, shown) == []
    assert unbacked_figures(["You will be 13 on the day."], shown) == [
        "stated amount not backed by any record: '13'"
    ]


def test_a_total_of_three_or_more_lines_the_message_shows_is_backed() -> None:
    # S3: an order of 160.99 + 209.99 + 2 x 236.99 "so the total was $844.96"
    order = [
        '{"order_id": "O1", "items": [{"price": 160.99, "quantity": 1}, '
        '{"price": 209.99, "quantity": 1}, {"price": 236.99, "quantity": 2}]}'
    ]
    lines = "- Lamp: $160.99\n- Mugs: $209.99\n- Kettles: 2 x $236.99 = $473.98\n"
    assert unbacked_figures([lines + "So the total was $844.96."], order) == []
    # a total no sum of the lines makes is still named
    assert unbacked_figures([lines + "So the total was $845.96."], order) == [
        "stated amount not backed by any record: '$845.96'"
    ]


def test_an_example_date_in_a_question_is_no_stated_date() -> None:
    # S3: "Which day will she be off for the appointment (e.g. 2025-10-09)?": the split at
    # "e.g." left the date in a sentence of its own, read as stated
    student = ['{"student_id": "S1", "absences": ["2025-09-17"]}']
    said = ["Which day will she be off for the appointment (e.g. 2025-10-09)?"]
    assert unbacked_figures(said, student) == []
    assert unbacked_figures(["She will be off on 2025-10-09."], student) == [
        "stated date not backed by any record: '2025-10-09'"
    ]


def test_the_open_day_before_a_bound_on_a_closed_weekday_is_backed() -> None:
    # G3: "the latest date is Wednesday 13 August (30 days ahead), and Harbour Pantry is closed
    # on Wednesdays, so in practice Tuesday 12 August would be the latest day"
    restaurant = '{"name": "Harbour Pantry", "closed_on": "Wednesday", "times": ["21:00"]}'
    booking = '[{"date": "2025-08-03", "reservation_id": "RS52993"}]'
    policy = ["Tables can be booked at most 30 days ahead. Today is 2025-07-14."]
    said = [
        "The latest date is Wednesday 13 August, and Harbour Pantry is closed on Wednesdays, "
        "so in practice Tuesday 12 August would be the latest day."
    ]
    assert unbacked_figures(said, [restaurant, booking], policy) == []
    # two days off is no such step, and without the closing day nothing is stepped past
    two_off = [said[0].replace("Tuesday 12", "Monday 11")]
    assert unbacked_figures(two_off, [restaurant, booking], policy) == [
        "stated date not backed by any record: 'monday 11 august'"
    ]
    assert unbacked_figures(said, [booking], policy) == [
        "stated date not backed by any record: 'tuesday 12 august'"
    ]


def test_days_a_request_asks_the_caller_to_choose_between_need_only_be_real() -> None:
    # S5: "Then tell me the day (Saturday 2025-07-26 or Sunday 2025-07-27), the seating time and
    # the number of guests." for "this weekend": asked, not stated
    records = ['{"customer_id": "CU1", "reservations": [{"date": "2025-07-15"}]}']
    policy = ["Today is 2025-07-14."]
    said = ["Then tell me the day (Saturday 2025-07-26 or Sunday 2025-07-27) and the time."]
    assert unbacked_figures(said, records, policy) == []
    assert unbacked_figures(["Is it Saturday 26 July or Sunday 27 July?"], records, policy) == []
    # a question about one date, or a statement, is still read as stating it
    for text in ("Is your booking on Sunday 27 July?", "Your booking is on Sunday 27 July."):
        assert unbacked_figures([text], records, policy) == [
            "stated date not backed by any record: 'sunday 27 july'"
        ]


def test_a_day_the_caller_names_from_today_is_that_date() -> None:
    # S6: "a table for dinner this Wednesday" on Monday 14 July -> "this Wednesday (2025-07-16)"
    restaurant = '{"restaurant_id": "R8", "closed_on": "Wednesday", "times": ["19:00"]}'
    policy = ["You take bookings. Today is 2025-07-14."]
    said = ["I can't book Maple Spoon for this Wednesday (2025-07-16): it is closed then."]
    caller = "Hello, I'd like to book a table for dinner this Wednesday, please."
    assert unbacked_figures(said, [caller, restaurant], policy) == []
    other = "Hello, I'd like to book a table for dinner on Thursday, please."
    assert unbacked_figures(said, [other, restaurant], policy) == [
        "stated date not backed by any record: '2025-07-16'"
    ]
    # "next Friday" may mean either of two Fridays; neither is backed without the policy's clock
    said = ["Which Friday do you mean, 18 July or 25 July?", "Booked for Friday 25 July."]
    caller = "I'd like to book dinner next Friday."
    assert unbacked_figures(said, [caller, restaurant], policy) == []
    assert len(unbacked_figures(said[1:], [caller, restaurant], ["You take bookings."])) == 1


def test_an_item_with_an_or_of_a_list_a_question_leads_is_asked() -> None:
    # S6: "Could you tell me: ... 3. Which Friday you mean (2025-07-18 or 2025-07-25)"
    records = ['{"customer_id": "CU1", "tier": "gold"}']
    said = [
        "Could you tell me:\n1. Your email;\n2. Which restaurant you'd like;\n"
        "3. Which Friday you mean (2025-07-18 or 2025-07-25) and the seating time."
    ]
    assert unbacked_figures(said, records, ["Today is 2025-07-14."]) == []
    stated = ["Here is your booking:\n1. Restaurant: Saffron Table;\n2. Date: 2025-07-25."]
    assert unbacked_figures(stated, records, ["Today is 2025-07-14."]) == [
        "stated date not backed by any record: '2025-07-25'"
    ]


def test_a_bound_may_be_what_is_left_of_a_backed_one() -> None:
    # S7: at most 9 bags on a booking, 2 bags on it: "up to 7 more"
    booking = '{"booking_id": "BK1", "passengers": 3, "luggage": 2, "most_bags": 9}'
    policy = ["Each passenger may check at most 3 bags."]
    said = [
        "Each passenger may check at most 3 bags, so this booking can have at most 9 bags in "
        "total; with the 2 already on it, you can add up to 7 more."
    ]
    assert unbacked_figures(said, [booking], policy) == []
    assert unbacked_figures([said[0].replace("up to 7", "up to 8")], [booking], policy) == [
        "stated amount not backed by any record: '8'"
    ]


def test_a_label_that_names_a_field_whole_is_that_fields() -> None:
    # S7: "Ticket price paid: $59.06" is the ticket price, not the "paid" of fees_paid (0.0)
    booking = '{"booking_id": "BK2347", "ticket_price": 59.06, "fees_paid": 0.0}'
    assert unbacked_figures(["- Ticket price paid: $59.06"], [booking]) == []
    assert unbacked_figures(["- Fees paid: $59.06"], [booking]) == [
        "stated fees paid is not the records': '$59.06'"
    ]


def test_a_duration_said_again_in_hours_and_minutes() -> None:
    # S8: "Cold Harbour runs for 165 minutes (2 hours 45 minutes)"
    showing = '{"showing_id": "S9", "runtime": 165, "price": 14.25}'
    said = ["Cold Harbour runs for 165 minutes (2 hours 45 minutes)."]
    assert unbacked_figures(said, [showing]) == []
    assert unbacked_figures(["It runs 2 hours 50 minutes."], [showing]) == [
        "stated amount not backed by any record: '2'",
        "stated amount not backed by any record: '50'",
    ]


def test_a_bound_said_from_the_other_side() -> None:
    # S8: the policy's "parties of 6 or more pay a deposit": "parties of 5 or fewer pay none"
    customer = '{"customer_id": "CU1", "tier": "member"}'
    policy = ["Parties of 6 or more pay a deposit of $15.00 per guest."]
    said = ["Parties of 6 or more pay $15.00 per guest; parties of 5 or fewer pay no deposit."]
    assert unbacked_figures(said, [customer], policy) == []
    wrong = [said[0].replace("5 or fewer", "4 or fewer")]
    assert unbacked_figures(wrong, [customer], policy) == [
        "stated amount not backed by any record: '4'"
    ]


def test_a_per_unit_figure_times_a_shown_count_and_said_again() -> None:
    # S9: gold, 2 passengers: "each passenger gets 2 free bags, so 4 of your 5 bags are free",
    # then "4 bags were free" in the closing message
    booking = '{"booking_id": "BK1", "passengers": 2, "luggage": 0, "fee": 12.5}'
    caller = "I'd like to add 5 bags."
    said = [
        "As a gold member, each passenger gets 2 free bags, so 4 of your 5 bags are free.",
        "Done: 5 bags added, 12.50 charged (4 bags were free).",
    ]
    assert unbacked_figures(said, [caller, booking]) == []
    assert unbacked_figures(said[1:], [caller, booking]) == [
        "stated amount not backed by any record: '4'"
    ]
    # an estimate the agent works out with no tool is still unbacked (S9: "roughly 825")
    assert unbacked_figures(["You could send roughly 825 more."], [caller, booking]) == [
        "stated amount not backed by any record: '825'"
    ]


def test_a_day_in_the_stretch_the_caller_names() -> None:
    # S10: "dinner for two at the end of the month" -> "both are closed on Tuesdays, so Tuesday,
    # July 29 isn't possible at either one"
    restaurants = '[{"name": "Juniper Garden", "closed_on": "Tuesday", "tables": 3}]'
    caller = "Hi, I'm looking for a Greek restaurant for dinner for two at the end of the month."
    said = ["Both are closed on Tuesdays, so Tuesday, July 29 isn't possible at either one."]
    policy = ["You take bookings. Today is 2025-07-14."]
    assert unbacked_figures(said, [caller, restaurants], policy) == []
    early = "Hi, I'm looking for a Greek restaurant for dinner for two next week."
    assert unbacked_figures(said, [early, restaurants], policy) == [
        "stated date not backed by any record: 'tuesday, july 29'"
    ]
