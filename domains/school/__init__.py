"""The school domain (stateful, kit v2): a school office answering parents and guardians.

Students are enrolled in and taken out of electives, signed up for trips, reported absent and
given collection contacts; bills are paid; grades, attendance and balances are looked up. The
kit composes every task from the entities, the tool graph (`tools`) and the goals below.
"""

from __future__ import annotations

from typing import Any

from domains.school import rules
from domains.school.invariants import INVARIANTS
from domains.school.tools import SchoolTools
from domains.school.world import build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.identify import Identification
from toolscale.kit.words import day

Record = dict[str, Any]
WHY = {"illness": ("a bad cold", "a stomach bug"), "holiday": ("a family trip", "a wedding")}
WHY["appointment"] = ("a hospital appointment", "a dental appointment")
SOON = (
    "as soon as possible",
    "from next week",
    "for the rest of the term",
    "straight away",
    "before the next lesson",
    "for this term",
)
HELPERS = ("Mrs Novak", "Grandpa Ted", "Mr Adeyemi", "Auntie Rose", "Ms Lindqvist", "Coach Ruiz")


def _child(student: Record, world: Record, precise: bool) -> str:
    number = int(student["student_id"][1:])
    noun = student["child"] if number % 3 else {"son": "boy", "daughter": "girl"}[student["child"]]
    words = f"{('my', 'our')[number % 2]} {noun}"
    return words + (f" {student['first_name']}" if precise else "")


def _of(record: Record, world: Record) -> str:
    return world["students"][record["student_id"]]["first_name"]


ENTITIES = (
    Entity("guardian"),
    Entity(
        "student",
        owner="guardian",
        describe=_child,
        alike=lambda r: r["child"],
        tell="first_name",
        labels={"first_name": "child's name"},
    ),
    Entity(
        "enrolment",
        owner="student",
        describe=lambda r, w, p: f"{_of(r, w)}'s {r['subject']} class",
        alike=lambda r: r["class_id"],
        noun="class",
    ),
    Entity(
        "invoice",
        owner="student",
        describe=lambda r, w, p: f"{_of(r, w)}'s {r['kind']} bill for {r['month']}",
        alike=lambda r: (r["kind"], r["month"]),
        noun="bill",
    ),
    Entity("course", "classes", "class_id", said=("name",), labels={"name": "class name"}),
    Entity(
        "trip",
        said=("name",),
        describe=lambda r, w, p: f"the {r['name']}",
        labels={"name": "trip name"},
    ),
)


def _sid(draw: Draw) -> dict[str, Any]:
    return {"student_id": draw["student"]["student_id"]}


def _absence(draw: Draw) -> dict[str, Any]:
    day = rules.shift(rules.TODAY, draw.rng.choice((-3, -1, *range(0, 15))))
    weekday = rules.date.fromisoformat(day).weekday()
    day = rules.shift(day, 7 - weekday) if weekday > 4 else day  # school days only
    return {**_sid(draw), "date": day, "reason": draw.extra["cause"]}


def _cause(draw: Draw) -> dict[str, Any]:
    cause = draw.rng.choice(sorted(WHY))
    return {"cause": cause, "why": draw.rng.choice(WHY[cause])}


def _enrolled(draw: Draw) -> bool:
    sid, cid = draw["student"]["student_id"], draw["course"]["class_id"]
    return not any(e["class_id"] == cid for e in rules.mine(draw.world, "enrolments", sid))


def _subject(draw: Draw) -> dict[str, Any]:
    classes = rules.mine(draw.world, "enrolments", draw["student"]["student_id"])
    return {**_sid(draw), "subject": draw.rng.choice(classes)["subject"]}


def _helper(draw: Draw) -> dict[str, Any]:
    free = [h for h in HELPERS if h not in draw["student"]["pickups"]]
    # "person", not "name": a trip's or a class's name is no one to collect a child
    return {**_sid(draw), "person": draw.rng.choice(free)}


GOALS = (
    Goal(
        "enrol",
        "enrol_in_class",
        ("student", "course"),
        lambda d: {**_sid(d), "class_id": d["course"]["class_id"]},
        words="enrol {student} in {course} {soon} | sign {student} up for {course} "
        "{soon} | get {student} a place in {course} {soon} | add {course} to "
        "{student}'s timetable {soon} | put {student} down for {course} {soon}",
        extra=lambda d: {"soon": d.rng.choice(SOON)},
        done="{student} is enrolled in {course}; the enrolment is {enrolment_id}.",
        # the student's electives: what a too-many-electives refusal states ("has 3")
        before=(("list_enrolments", _sid),),
        check=rules.check_enrol,
        when=_enrolled,
        weight=4,
        motives="They've been asking to try it all summer. | Their friends are all in "
        "it. | It would help with their exams. | Their teacher suggested it. | "
        "They need something to do on Thursdays. | We've just moved here. | "
        "They loved it at their old school. | A careers talk got them keen. | "
        "Their older cousin took it and enjoyed it. | They want a new challenge.",
    ),
    Goal(
        "drop",
        "drop_class",
        ("enrolment",),
        lambda d: {"enrolment_id": d["enrolment"]["enrolment_id"]},
        words="take {enrolment} off the timetable {soon} | drop {enrolment} {soon} | "
        "withdraw from {enrolment} {soon} | cancel {enrolment} {soon}",
        extra=lambda d: {"soon": d.rng.choice(SOON)},
        done="{enrolment} is dropped.",
        check=rules.check_drop,
        motives="It clashes with football practice. | It's too much on top of "
        "homework. | They really aren't enjoying it. | They want to focus on "
        "exams. | The class finishes too late for the bus. | They picked it by "
        "mistake. | They have a weekly music lesson then.",
    ),
    Goal(
        "trip",
        "sign_up_for_trip",
        ("student", "trip"),
        lambda d: {**_sid(d), "trip_id": d["trip"]["trip_id"]},
        words="sign {student} up for {trip} on {when} | give consent for {student} to "
        "go on {trip} on {when} | book {student} onto {trip} on {when} | get "
        "{student} a seat on {trip} ({when}) | put {student} down for {trip} on "
        "{when}",
        extra=lambda d: {"when": day(d["trip"]["date"])},
        done="{student} is going on {trip}; {cost} was added to your bills as {invoice_id}.",
        report=("invoice_id",),
        before=(("get_fee_balance", _sid), ("get_trip_quote", lambda d: dict(d.args))),
        check=rules.check_trip,
        price="cost",
        price_noun="trip cost",
        weight=4,
        when=lambda d: d["student"]["student_id"] not in d["trip"]["going"],
        motives="They love anything to do with this. | Their best friend is going. | We "
        "missed the paper form. | It ties in with their project. | The letter "
        "got lost in a school bag. | They've talked about nothing else all week."
        " | Their teacher said it would do them good. | They've never been. | "
        "It's their first school trip. | Their grandparents offered to pay. | "
        "They need it for their coursework.",
    ),
    Goal(
        "pay",
        "pay_invoice",
        ("invoice",),
        lambda d: {"invoice_id": d["invoice"]["invoice_id"]},
        words="pay {invoice} | settle {invoice} with my card | clear {invoice} | put "
        "{invoice} on the card on my account",
        done="{invoice} is paid: {amount} was charged to your card.",
        check=rules.check_payment,
        motives="I got a reminder letter. | I'd like it off my list. | I was away when "
        "it came in. | My partner thought they had paid it. | The online portal "
        "keeps logging me out.",
    ),
    Goal(
        "absence",
        "report_absence",
        ("student",),
        _absence,
        extra=_cause,
        words="report {student} absent on {date} because of {why} | record {student} "
        "as off school on {date} with {why} | mark {student} absent for {date} "
        "because of {why}",
        done="I've recorded {student} as absent on {date}.",
        check=rules.check_absence,
        motives="I wanted to tell the office myself. | The tutor asked me to call. | I "
        "couldn't find the form online. | The attendance line was busy. | I don't "
        "want it marked unauthorised.",
    ),
    Goal(
        "pickup",
        "add_collection_contact",
        ("student",),
        _helper,
        words="allow {person} to collect {student} | add {person} to the people who can "
        "pick up {student} | let {person} fetch {student} from school",
        done="{person} can now collect {student}; the list is: {pickups}.",
        check=rules.check_pickup,
        weight=2,
        motives="I've started a new job with late shifts. | We've arranged a school-run "
        "rota. | I'm having an operation next month. | My car is off the road "
        "for a while.",
    ),
    Goal(
        "concern",
        "transfer_to_human_agents",
        ("student",),
        lambda d: {"summary": f"Wellbeing concern about student {d['student']['student_id']}"},
        words="raise a worry about {student} being bullied | talk to someone about "
        "{student} being unhappy at school",
        done="Thank you for telling us. Pastoral concerns go to our pastoral team, so I have "
        "transferred you to a human agent; {student}'s form tutor is {student[tutor]}.",
        weight=2,
        motives="They've come home upset every day. | Something happened at lunch. | "
        "They don't want to go in any more. | Another parent mentioned it to "
        "me.",
    ),
    Goal(
        "attendance",
        "get_attendance",
        ("student",),
        _sid,
        words="what {student}'s attendance rate is this term | how good {student}'s "
        "attendance has been this term | what percentage of days {student} has "
        "been in school this term",
        done="{student} has been present {days_present} days, an attendance rate of {rate}%.",
        report=("rate",),
        weight=2,
        motives="The newsletter mentioned attendance targets. | I want to check before "
        "parents' evening. | They were poorly a lot last month. | A letter said "
        "it was low.",
    ),
    Goal(
        "balance",
        "get_fee_balance",
        ("student",),
        _sid,
        words="how much I still owe for {student} | what's unpaid on {student}'s account"
        " | what the outstanding fees for {student} come to",
        done="Unpaid for {student}: {unpaid}, of which {overdue} is overdue.",
        report=("unpaid", "overdue"),
        weight=2,
        motives="I want to clear everything this month. | I lost track of the bills. | "
        "We're sorting out our budget. | I got two different letters. | I'm "
        "setting up a standing order. | My ex-partner pays half of it. | The "
        "portal shows a different figure.",
    ),
    Goal(
        "grade",
        "get_grade",
        ("student",),
        _subject,
        words="what grade {student} has in {subject} | how {student} is doing in "
        "{subject} | what {student} is getting in {subject} at the moment",
        done="{student} has {a_grade} in {subject} ({class}).",
        report=("grade", "class"),
        derive=lambda r: {"a_grade": f"{'an' if r['grade'] in 'AE' else 'a'} {r['grade']}"},
        weight=2,
        motives="They say it's going fine. | We're deciding on extra tutoring. | Their "
        "homework has been a struggle. | I missed the report evening. | They "
        "want to take it further next year. | Their new teacher seems strict. | "
        "We promised a reward for good marks.",
    ),
    Goal(
        "cost",
        "calculate",
        ("trip",),
        lambda d: {"expression": f"{d['trip']['cost']} * {d.extra['children']}"},
        extra=lambda d: {"children": d.rng.randint(2, 4)},
        words="what {trip} would cost for my {children} children | how much {trip} comes "
        "to for {children} kids | the total for {children} of mine going on {trip}",
        done="{trip} for {children} children comes to {result} dollars.",
        weight=2,
        motives="All my kids want to go. | I'm budgeting for the term. | Their "
        "cousins might come along. | Money is tight this month. | "
        "I'm asking before I fill in the forms.",
    ),
)


class SchoolDomain(StatefulDomain):
    """A school office: 45 classes, 160 families, ~250 students, ~1,100 enrolments, 10 trips."""

    name = "school"
    version = "1.8"
    invariants = INVARIANTS
    identification = Identification("guardian", ("email", "guardian_id"), records=("student",))
    toolkit = SchoolTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    build_world = staticmethod(build_world)
