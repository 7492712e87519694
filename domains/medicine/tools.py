"""The clinic front desk's tools: find patients, doctors, appointments, prescriptions and
pharmacies; book, move and cancel visits; order refills and move prescriptions. Every rule is
checked by `rules` (the same checks the composer draws tasks with). No tool gives medical advice."""

from __future__ import annotations

from typing import ClassVar

from domains.medicine import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Record, finder, insert, lister, lookup, raises, searcher, why_not
from toolscale.kit.clock import moment, shift
from toolscale.tools.generic import StatefulGenericTools


def _patient(state: Record, patient: Record) -> Record:
    return {**patient, "plan_name": state["plans"][patient["plan_id"]]["name"]}


def _rx(state: Record, rx: Record) -> Record:
    names = {
        "prescriber_name": state["doctors"][rx["prescriber_id"]]["name"],
        "pharmacy_name": state["pharmacies"][rx["pharmacy_id"]]["name"],
    }
    return {**rx, **names, "expires": shift(rx["written"], rules.PRESCRIPTION_VALID_DAYS)}


def _visit(state: Record, appointment: Record) -> Record:
    doctor = state["doctors"][appointment["doctor_id"]]
    return {**appointment, "doctor_name": doctor["name"], "specialty": doctor["specialty"]}


PHONE = 'The phone number, such as "555-1234".'
DOCTOR = "Find a doctor by name: specialty, weekdays in clinic, times, plans (ids) accepted."
VISITS = "List a patient's appointments, past and upcoming: doctor, date, time, status."
VISIT = "Get an appointment: doctor, specialty, date, time and status."
RXS = "List a patient's prescriptions: drug, strength, pharmacy, refills left, last fill, status."
RX = "Get a prescription: drug, strength, schedule, pharmacy, expiry, refills left, last fill."


class ClinicTools(StatefulGenericTools):
    """Tools over one task's clinic database (`self.state`). Outputs are JSON values."""

    param_docs: ClassVar[dict[str, str]] = {
        "patient_id": 'The patient id, such as "PT1234".',
        "doctor_id": 'The doctor id, such as "D123".',
        "appointment_id": 'The appointment id, such as "AP12345".',
        "prescription_id": 'The prescription id, such as "RX12345".',
        **{"date": "The date as YYYY-MM-DD.", "time": "The time as HH:MM."},
        "specialty": 'The specialty, such as "primary care" or "dermatology".',
        "plan_id": 'The insurance plan id, such as "PL2".',
        "pharmacy_id": 'The pharmacy id, such as "PH12".',
    }

    get_patient = finder(
        "patient", "patient_id", "Get a patient: contact, plan, referrals, pharmacy.", view=_patient
    )
    find_patient_by_email = finder("patient", "email", view=_patient)
    find_patient_by_phone = finder("patient", "phone", arg=PHONE, view=_patient)
    find_doctor = finder("doctor", "name", DOCTOR, arg='The name, such as "Dr. Ana Ruiz".')
    search_doctors = searcher("doctor", ("specialty",), "List the doctors of one specialty.")
    list_patient_appointments = lister("appointment", "patient", VISITS, view=_visit)
    get_appointment = finder("appointment", "appointment_id", VISIT, view=_visit)
    list_patient_prescriptions = lister("prescription", "patient", RXS, view=_rx)
    get_prescription = finder("prescription", "prescription_id", RX, view=_rx)
    find_pharmacy = finder(
        "pharmacy", "name", "Find a partner pharmacy by name.", table="pharmacies"
    )

    @tool(ToolKind.READ)
    def get_insurance_plan(self, plan_id: str) -> Record:
        """Get an insurance plan: visit copays (primary care, specialist), prescription copays
        per 30-day supply (generic, brand), deductible, and whether specialists need a referral."""
        return lookup(self.state, "plans", plan_id, "insurance plan")

    @tool(ToolKind.READ)
    def get_doctor_schedule(self, doctor_id: str, date: str) -> Record:
        """Get a doctor's open appointment times on one date (none on a weekday they are out)."""
        doctor, when, date = lookup(self.state, "doctors", doctor_id), moment(date), date.strip()
        busy = rules.taken(self.state, doctor["doctor_id"], date)
        works = f"{when:%A}" in doctor["days"]
        free = [t for t in doctor["times"] if t not in busy and works]
        return {"doctor_id": doctor["doctor_id"], "date": date, "in_clinic": works, "open": free}

    @tool(ToolKind.READ)
    def quote_visit(self, patient_id: str, doctor_id: str) -> Record:
        """Quote a visit with a doctor under the patient's plan: whether the doctor is in the
        plan's network, whether a referral is needed and on file, and the copay. Changes nothing."""
        patient = lookup(self.state, "patients", patient_id)
        doctor = lookup(self.state, "doctors", doctor_id)
        plan, special = self.state["plans"][patient["plan_id"]], doctor["specialty"]
        quote = {"doctor_id": doctor["doctor_id"], "plan_name": plan["name"]}
        quote |= {"in_network": plan["plan_id"] in doctor["networks"]}
        quote |= {"referral_needed": plan["referrals"] and special != rules.PRIMARY}
        quote |= {"referral_on_file": special in patient["referrals"]}
        return quote | {"copay": rules.visit_copay(self.state, patient, doctor)}

    @tool(ToolKind.READ)
    def get_refill_quote(self, prescription_id: str) -> Record:
        """Check whether a prescription can be refilled today: the earliest refill date, refills
        left, the copay of one fill, and, when it cannot be refilled, why. Changes nothing."""
        rx = lookup(self.state, "prescriptions", prescription_id)
        why = why_not(rules.check_refill, self.state, rx["prescription_id"])
        quote = {"prescription_id": rx["prescription_id"], "earliest_refill": rules.refill_due(rx)}
        quote |= {"refills_left": rx["refills_left"], "copay": rules.fill_copay(self.state, rx)}
        return quote | {"refillable": not why, "reason": why}

    @tool(ToolKind.WRITE)
    @raises(*rules.COVER, *rules.SLOT)
    def book_appointment(self, patient_id: str, doctor_id: str, date: str, time: str) -> Record:
        """Book an appointment for a patient with a doctor. Returns the new appointment."""
        ids = rules.check_booking(self.state, patient_id, doctor_id, date, time)
        fields = {**ids, "date": date.strip(), "time": time.strip(), "status": "scheduled"}
        return _visit(
            self.state, insert(self.state, "appointments", "AP", fields, counter="next_id")
        )

    @tool(ToolKind.WRITE)
    @raises(rules.NotScheduled)
    def cancel_appointment(self, appointment_id: str) -> Record:
        """Cancel an appointment; a cancellation inside the notice period is charged the late
        fee. Returns the appointment and the fee charged."""
        fee = rules.cancel_fee(self.state, appointment_id)
        appointment = self.state["appointments"][appointment_id.strip()]
        appointment["status"] = "cancelled"
        return {**_visit(self.state, appointment), "late_fee": fee}

    @tool(ToolKind.WRITE)
    @raises(rules.NotScheduled, rules.TooLateToChange, *rules.COVER, *rules.SLOT)
    def reschedule_appointment(self, appointment_id: str, date: str, time: str) -> Record:
        """Move an appointment to another date and time (with the same doctor)."""
        appointment = rules.check_move(self.state, appointment_id, date, time)
        appointment.update(date=date.strip(), time=time.strip())
        return _visit(self.state, appointment)

    @tool(ToolKind.WRITE)
    @raises(*rules.ACTIVE, rules.NoRefillsLeft, rules.TooEarly)
    def request_refill(self, prescription_id: str) -> Record:
        """Order a refill at the prescription's pharmacy; uses one refill and charges the copay.
        Ready for pickup the next day."""
        rx = rules.check_refill(self.state, prescription_id)
        rx.update(refills_left=rx["refills_left"] - 1, last_filled=rules.TODAY)
        ready = shift(rules.TODAY, 1)
        return {**_rx(self.state, rx), "copay": rules.fill_copay(self.state, rx), "ready_on": ready}

    @tool(ToolKind.WRITE)
    @raises(*rules.ACTIVE)
    def transfer_prescription(self, prescription_id: str, pharmacy_id: str) -> Record:
        """Move a prescription, with its remaining refills, to another partner pharmacy."""
        rx = rules.check_transfer(self.state, prescription_id, pharmacy_id)
        rx["pharmacy_id"] = pharmacy_id.strip()
        return _rx(self.state, rx)
