"""The clinic front desk's tools: find patients, doctors, appointments, prescriptions and
pharmacies; book, move and cancel visits; order refills and move prescriptions. Every rule is
checked by `rules` (the same checks the composer draws tasks with). No tool gives medical advice."""

from __future__ import annotations

from datetime import date as day_of
from typing import Any

from domains.medicine import rules
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]


class ClinicTools(StatefulGenericTools):
    """Tools over one task's clinic database (`self.state`). Outputs are JSON values."""

    def _patient(self, patient: Record) -> Record:
        return {**patient, "plan_name": self.state["plans"][patient["plan_id"]]["name"]}

    def _rx(self, rx: Record) -> Record:
        names = {
            "prescriber_name": self.state["doctors"][rx["prescriber_id"]]["name"],
            "pharmacy_name": self.state["pharmacies"][rx["pharmacy_id"]]["name"],
        }
        return {**rx, **names, "expires": rules.shift(rx["written"], rules.PRESCRIPTION_VALID_DAYS)}

    def _owned(self, table: str, patient_id: str) -> list[Record]:
        pid = lookup(self.state, "patients", patient_id, "patient")["patient_id"]
        return [r for r in self.state[table].values() if r["patient_id"] == pid]

    def _visit(self, appointment: Record) -> Record:
        doctor = self.state["doctors"][appointment["doctor_id"]]
        return {**appointment, "doctor_name": doctor["name"], "specialty": doctor["specialty"]}

    @tool(ToolKind.READ)
    @finds("patient", by="patient_id")
    def get_patient(self, patient_id: str) -> Record:
        """Get a patient's profile: name, contact details, date of birth, insurance plan,
        referrals on file and preferred pharmacy.

        Args:
            patient_id: The patient id, such as "PT1234".
        """
        return self._patient(lookup(self.state, "patients", patient_id, "patient"))

    @tool(ToolKind.READ)
    @finds("patient", by="email")
    def find_patient_by_email(self, email: str) -> Record:
        """Find a patient by email address; returns their profile.

        Args:
            email: The patient's email address.
        """
        return self._patient(find_by(self.state, "patients", "email", email, "patient"))

    @tool(ToolKind.READ)
    @finds("patient", by="phone")
    def find_patient_by_phone(self, phone: str) -> Record:
        """Find a patient by phone number; returns their profile.

        Args:
            phone: The phone number, such as "555-1234".
        """
        return self._patient(find_by(self.state, "patients", "phone", phone, "patient"))

    @tool(ToolKind.READ)
    def get_insurance_plan(self, plan_id: str) -> Record:
        """Get an insurance plan: visit copays (primary care, specialist), prescription copays
        per 30-day supply (generic, brand), deductible, and whether specialists need a referral.

        Args:
            plan_id: The plan id, such as "PL2".
        """
        return lookup(self.state, "plans", plan_id, "insurance plan")

    @tool(ToolKind.READ)
    @finds("doctor", by="name")
    def find_doctor(self, name: str) -> Record:
        """Find a doctor by name: specialty, weekdays in clinic, appointment times and the
        insurance plans (ids) they accept.

        Args:
            name: The doctor's full name, such as "Dr. Ana Ruiz".
        """
        return find_by(self.state, "doctors", "name", name, "doctor")

    @tool(ToolKind.READ)
    def search_doctors(self, specialty: str) -> list[Record]:
        """List the doctors of one specialty.

        Args:
            specialty: The specialty, such as "primary care" or "dermatology".
        """
        wanted = text(specialty, "specialty", max_chars=60).strip().casefold()
        return [d for d in self.state["doctors"].values() if d["specialty"] == wanted]

    @tool(ToolKind.READ)
    def get_doctor_schedule(self, doctor_id: str, date: str) -> Record:
        """Get a doctor's open appointment times on one date (none on a weekday they are out).

        Args:
            doctor_id: The doctor id, such as "D123".
            date: The date as YYYY-MM-DD.
        """
        doctor = lookup(self.state, "doctors", doctor_id, "doctor")
        date = text(date, "date", max_chars=20).strip()
        try:
            weekday = f"{day_of.fromisoformat(date):%A}"
        except ValueError:
            raise ToolError(f"date {date[:20]!r}: use YYYY-MM-DD") from None
        busy = rules.taken(self.state, doctor["doctor_id"], date)
        works = weekday in doctor["days"]
        free = [t for t in doctor["times"] if t not in busy] if works else []
        return {"doctor_id": doctor["doctor_id"], "date": date, "in_clinic": works, "open": free}

    @tool(ToolKind.READ)
    def quote_visit(self, patient_id: str, doctor_id: str) -> Record:
        """Quote a visit with a doctor under the patient's plan: whether the doctor is in the
        plan's network, whether a referral is needed and on file, and the copay. Changes nothing.

        Args:
            patient_id: The patient id, such as "PT1234".
            doctor_id: The doctor id, such as "D123".
        """
        patient = lookup(self.state, "patients", patient_id, "patient")
        doctor = lookup(self.state, "doctors", doctor_id, "doctor")
        plan = self.state["plans"][patient["plan_id"]]
        special = doctor["specialty"]
        return {
            "doctor_id": doctor["doctor_id"],
            "plan_name": plan["name"],
            "in_network": plan["plan_id"] in doctor["networks"],
            "referral_needed": plan["referrals"] and special != rules.PRIMARY,
            "referral_on_file": special in patient["referrals"],
            "copay": rules.visit_copay(self.state, patient, doctor),
        }

    @tool(ToolKind.READ)
    @lists("appointment", of="patient")
    def list_patient_appointments(self, patient_id: str) -> list[Record]:
        """List a patient's appointments, past and upcoming, with doctor, date, time and status.

        Args:
            patient_id: The patient id, such as "PT1234".
        """
        return [self._visit(a) for a in self._owned("appointments", patient_id)]

    @tool(ToolKind.READ)
    @finds("appointment", by="appointment_id")
    def get_appointment(self, appointment_id: str) -> Record:
        """Get an appointment: doctor, specialty, date, time and status.

        Args:
            appointment_id: The appointment id, such as "AP12345".
        """
        return self._visit(lookup(self.state, "appointments", appointment_id, "appointment"))

    @tool(ToolKind.READ)
    @lists("prescription", of="patient")
    def list_patient_prescriptions(self, patient_id: str) -> list[Record]:
        """List a patient's prescriptions: drug, strength, prescriber, pharmacy, refills left,
        last fill, days of supply and status.

        Args:
            patient_id: The patient id, such as "PT1234".
        """
        return [self._rx(r) for r in self._owned("prescriptions", patient_id)]

    @tool(ToolKind.READ)
    @finds("prescription", by="prescription_id")
    def get_prescription(self, prescription_id: str) -> Record:
        """Get a prescription: drug, strength, controlled-substance schedule, prescriber,
        pharmacy, date written and expiry, refills left, last fill and days of supply.

        Args:
            prescription_id: The prescription id, such as "RX12345".
        """
        return self._rx(lookup(self.state, "prescriptions", prescription_id, "prescription"))

    @tool(ToolKind.READ)
    def get_refill_quote(self, prescription_id: str) -> Record:
        """Check whether a prescription can be refilled today: the earliest refill date, refills
        left, the copay of one fill, and, when it cannot be refilled, why. Changes nothing.

        Args:
            prescription_id: The prescription id, such as "RX12345".
        """
        rx = lookup(self.state, "prescriptions", prescription_id, "prescription")
        try:
            rules.check_refill(self.state, rx["prescription_id"])
            why = ""
        except ToolError as exc:
            why = str(exc)
        return {
            "prescription_id": rx["prescription_id"],
            "earliest_refill": rules.refill_due(rx),
            "refills_left": rx["refills_left"],
            "copay": rules.fill_copay(self.state, rx),
            "refillable": not why,
            "reason": why,
        }

    @tool(ToolKind.READ)
    @finds("pharmacy", by="name")
    def find_pharmacy(self, name: str) -> Record:
        """Find a partner pharmacy by name.

        Args:
            name: The pharmacy's name, such as "Elm Street Pharmacy".
        """
        return find_by(self.state, "pharmacies", "name", name, "pharmacy")

    @tool(ToolKind.WRITE)
    @raises(
        rules.OutOfNetwork,
        rules.NeedsReferral,
        rules.TooFarAhead,
        rules.DoctorAway,
        rules.SlotTaken,
    )
    def book_appointment(self, patient_id: str, doctor_id: str, date: str, time: str) -> Record:
        """Book an appointment for a patient with a doctor. Returns the new appointment.

        Args:
            patient_id: The patient id, such as "PT1234".
            doctor_id: The doctor id, such as "D123".
            date: The date as YYYY-MM-DD.
            time: The time as HH:MM.
        """
        rules.check_booking(self.state, patient_id, doctor_id, date, time)
        aid = f"AP{self.state['next_id']}"
        self.state["next_id"] += 1
        self.state["appointments"][aid] = {
            "appointment_id": aid,
            "patient_id": patient_id.strip(),
            "doctor_id": doctor_id.strip(),
            "date": date.strip(),
            "time": time.strip(),
            "status": "scheduled",
        }
        return self._visit(self.state["appointments"][aid])

    @tool(ToolKind.WRITE)
    @raises(rules.NotScheduled)
    def cancel_appointment(self, appointment_id: str) -> Record:
        """Cancel an appointment; a cancellation inside the notice period is charged the late
        fee. Returns the appointment and the fee charged.

        Args:
            appointment_id: The appointment id, such as "AP12345".
        """
        fee = rules.cancel_fee(self.state, appointment_id)
        appointment = self.state["appointments"][appointment_id.strip()]
        appointment["status"] = "cancelled"
        return {**self._visit(appointment), "late_fee": fee}

    @tool(ToolKind.WRITE)
    @raises(
        rules.NotScheduled,
        rules.TooLateToChange,
        rules.TooFarAhead,
        rules.DoctorAway,
        rules.SlotTaken,
    )
    def reschedule_appointment(self, appointment_id: str, date: str, time: str) -> Record:
        """Move an appointment to another date and time with the same doctor.

        Args:
            appointment_id: The appointment id, such as "AP12345".
            date: The new date as YYYY-MM-DD.
            time: The new time as HH:MM.
        """
        rules.check_move(self.state, appointment_id, date, time)
        appointment = self.state["appointments"][appointment_id.strip()]
        appointment.update(date=date.strip(), time=time.strip())
        return self._visit(appointment)

    @tool(ToolKind.WRITE)
    @raises(
        rules.Discontinued,
        rules.ControlledSubstance,
        rules.Expired,
        rules.NoRefillsLeft,
        rules.TooEarly,
    )
    def request_refill(self, prescription_id: str) -> Record:
        """Order a refill at the prescription's pharmacy; uses one refill and charges the copay.
        Ready for pickup the next day.

        Args:
            prescription_id: The prescription id, such as "RX12345".
        """
        rules.check_refill(self.state, prescription_id)
        rx = self.state["prescriptions"][prescription_id.strip()]
        rx.update(refills_left=rx["refills_left"] - 1, last_filled=rules.TODAY)
        ready = rules.shift(rules.TODAY, 1)
        return {**self._rx(rx), "copay": rules.fill_copay(self.state, rx), "ready_on": ready}

    @tool(ToolKind.WRITE)
    @raises(rules.Discontinued, rules.ControlledSubstance, rules.Expired)
    def transfer_prescription(self, prescription_id: str, pharmacy_id: str) -> Record:
        """Move a prescription, with its remaining refills, to another partner pharmacy.

        Args:
            prescription_id: The prescription id, such as "RX12345".
            pharmacy_id: The new pharmacy's id, such as "PH12".
        """
        rules.check_transfer(self.state, prescription_id, pharmacy_id)
        rx = self.state["prescriptions"][prescription_id.strip()]
        rx["pharmacy_id"] = pharmacy_id.strip()
        return self._rx(rx)
