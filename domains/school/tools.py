"""The school office's tools: find guardians, students, classes, trips and bills; enrol and drop
classes, sign up for trips, pay bills, report absences, add collection contacts. Every rule is
checked by `rules` (the same checks the composer draws tasks with)."""

from __future__ import annotations

from typing import Any, ClassVar

from domains.school import rules
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]


class SchoolTools(StatefulGenericTools):
    """Tools over one task's school office database (`self.state`). Outputs are JSON values."""

    param_docs: ClassVar[dict[str, str]] = {
        "guardian_id": 'The guardian id, such as "G1234".',
        "student_id": 'The student id, such as "S12345".',
        "trip_id": 'The trip id, such as "T12345".',
    }

    def _student(self, student_id: str) -> Record:
        return lookup(self.state, "students", student_id, "student")

    @tool(ToolKind.READ)
    @finds("guardian", by="guardian_id")
    def get_guardian(self, guardian_id: str) -> Record:
        """Get a parent or guardian's record: name, email and phone."""
        return lookup(self.state, "guardians", guardian_id, "guardian")

    @tool(ToolKind.READ)
    @finds("guardian", by="email")
    def find_guardian_by_email(self, email: str) -> Record:
        """Find a parent or guardian by the email address the school has for them.

        Args:
            email: Their email address.
        """
        return find_by(self.state, "guardians", "email", email, "guardian")

    @tool(ToolKind.READ)
    @lists("student", of="guardian")
    def list_guardian_students(self, guardian_id: str) -> list[Record]:
        """List the students a guardian is responsible for, with year group, form tutor,
        bursary status and the people allowed to collect them.
        """
        gid = lookup(self.state, "guardians", guardian_id, "guardian")["guardian_id"]
        return [s for s in self.state["students"].values() if s["guardian_id"] == gid]

    @tool(ToolKind.READ)
    @finds("student", by="student_id")
    def get_student(self, student_id: str) -> Record:
        """Get a student's record by student id (year group, tutor, bursary, collection list)."""
        return self._student(student_id)

    @tool(ToolKind.READ)
    @lists("enrolment", of="student")
    def list_enrolments(self, student_id: str) -> list[Record]:
        """List a student's classes this term: enrolment id, class, subject, date enrolled and
        current grade.
        """
        return rules.mine(self.state, "enrolments", self._student(student_id)["student_id"])

    @tool(ToolKind.READ)
    @lists("invoice", of="student")
    def list_invoices(self, student_id: str) -> list[Record]:
        """List a student's bills: kind, month, amount, due date and the date paid (empty when
        unpaid).
        """
        return rules.mine(self.state, "invoices", self._student(student_id)["student_id"])

    @tool(ToolKind.READ)
    @finds("course", by="name")
    def find_class(self, name: str) -> Record:
        """Find a class by its name: subject, year group, whether it is an elective, capacity
        and places taken.

        Args:
            name: The class name, such as "Year 8 Robotics".
        """
        course = find_by(self.state, "classes", "name", name, "class")
        return {**course, "taken": rules.taken(self.state, course["class_id"])}

    @tool(ToolKind.READ)
    @finds("trip", by="name")
    def find_trip(self, name: str) -> Record:
        """Find a school trip by its name: date, year groups, consent deadline, full cost and
        seats (without the list of who is going).

        Args:
            name: The trip's name, such as "Science Museum trip".
        """
        trip = find_by(self.state, "trips", "name", name, "trip")
        return {k: v for k, v in trip.items() if k != "going"} | {"booked": len(trip["going"])}

    @tool(ToolKind.READ)
    def get_trip_quote(self, student_id: str, trip_id: str) -> Record:
        """Quote a trip for one student: the cost they pay (bursary discount applied) and the
        seats left. Changes nothing and does not check eligibility.
        """
        return rules.trip_quote(self.state, student_id, trip_id)

    @tool(ToolKind.READ)
    def get_attendance(self, student_id: str) -> Record:
        """A student's attendance this term: days present, dates absent and the attendance rate
        in percent.
        """
        student = self._student(student_id)
        present, absent = student["days_present"], len(student["absences"])
        rate = round(100 * present / (present + absent), 1)
        return {"days_present": present, "absences": student["absences"], "rate": rate}

    @tool(ToolKind.READ)
    def get_fee_balance(self, student_id: str) -> Record:
        """A student's unpaid bills in total, and how much of that is overdue."""
        sid = self._student(student_id)["student_id"]
        unpaid = sum(i["amount"] for i in rules.mine(self.state, "invoices", sid) if not i["paid"])
        return {"unpaid": round(unpaid, 2), "overdue": rules.overdue(self.state, sid)}

    @tool(ToolKind.READ)
    def get_grade(self, student_id: str, subject: str) -> Record:
        """A student's current grade (A to E) in one subject this term, with the class.

        Args:
            subject: The subject, such as "Maths".
        """
        sid = self._student(student_id)["student_id"]
        wanted = text(subject, "subject", max_chars=40).strip().casefold()
        for enrolment in rules.mine(self.state, "enrolments", sid):
            if enrolment["subject"].casefold() == wanted:
                name = self.state["classes"][enrolment["class_id"]]["name"]
                return {"subject": enrolment["subject"], "class": name, "grade": enrolment["grade"]}
        raise ToolError(f"student {sid} takes no {subject.strip()!r} class this term")

    @tool(ToolKind.WRITE)
    @raises(rules.WrongYear, rules.ClassFull, rules.TooManyElectives)
    def enrol_in_class(self, student_id: str, class_id: str) -> Record:
        """Enrol a student in a class of their year group that has a place. Returns the
        enrolment.

        Args:
            class_id: The class id, such as "CL123".
        """
        course = rules.check_enrol(self.state, student_id, class_id)
        eid = f"E{len(self.state['enrolments']) + 100000}"
        self.state["enrolments"][eid] = enrolment = {
            "enrolment_id": eid,
            "student_id": student_id.strip(),
            "class_id": course["class_id"],
            "subject": course["subject"],
            "enrolled_on": self.state["today"],
            "grade": "",
        }
        return enrolment

    @tool(ToolKind.WRITE)
    @raises(rules.CoreSubject, rules.DropWindowClosed)
    def drop_class(self, enrolment_id: str) -> Record:
        """Take a student out of an elective class (by enrolment id).

        Args:
            enrolment_id: The enrolment id, such as "E12345".
        """
        enrolment = rules.check_drop(self.state, enrolment_id)
        del self.state["enrolments"][enrolment["enrolment_id"]]
        return {**enrolment, "status": "dropped"}

    @tool(ToolKind.WRITE)
    @raises(rules.WrongYear, rules.ConsentClosed, rules.TripFull, rules.FeesOverdue)
    def sign_up_for_trip(self, student_id: str, trip_id: str) -> Record:
        """Record a guardian's consent and sign a student up for a trip; the cost of
        get_trip_quote is added to their bills, due on the trip's date.
        """
        quote = rules.check_trip(self.state, student_id, trip_id)
        trip, sid = self.state["trips"][quote["trip_id"]], student_id.strip()
        trip["going"].append(sid)
        iid = f"IN{len(self.state['invoices']) + 100000}"
        bill = {"invoice_id": iid, "student_id": sid, "kind": trip["name"], "month": ""}
        self.state["invoices"][iid] = bill | {"due": trip["date"], "amount": quote["cost"]}
        self.state["invoices"][iid]["paid"] = ""
        # the receipt says the seats left after this one was taken (as get_trip_quote now does)
        return {**quote, "seats_left": quote["seats_left"] - 1, "invoice_id": iid}

    @tool(ToolKind.WRITE)
    @raises(rules.AlreadyPaid)
    def pay_invoice(self, invoice_id: str) -> Record:
        """Pay a bill in full with the card the guardian has on file.

        Args:
            invoice_id: The invoice id, such as "IN12345".
        """
        invoice = rules.check_payment(self.state, invoice_id)
        invoice["paid"] = self.state["today"]
        return invoice

    @tool(ToolKind.WRITE)
    @raises(rules.PastDate, rules.TermTimeHoliday)
    def report_absence(self, student_id: str, date: str, reason: str) -> Record:
        """Record that a student will be absent on a day (today or up to two weeks ahead).

        Args:
            date: The day as YYYY-MM-DD.
            reason: illness, appointment or holiday.
        """
        student = rules.check_absence(self.state, student_id, date, reason)
        student["absences"] = sorted({*student["absences"], date.strip()})
        return {"student_id": student["student_id"], "absences": student["absences"]}

    @tool(ToolKind.WRITE)
    @raises(rules.TooManyPickups)
    def add_collection_contact(self, student_id: str, person: str) -> Record:
        """Allow another person to collect a student from school.

        Args:
            person: The person's name as the guardian gives it.
        """
        student = rules.check_pickup(self.state, student_id, person)
        student["pickups"].append(text(person, "person", max_chars=80).strip())
        return {"student_id": student["student_id"], "pickups": student["pickups"]}
