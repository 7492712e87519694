"""Medicine domain: each policy rule on a tiny hand-built clinic, copays and fees computed by hand,
the world's size and build time, the rendered policy, hostile arguments, and one small
generate -> validate round through the command line."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from domains.medicine import ANY_SUPPLY, LOW, MedicineDomain, _refill_motives, rules
from domains.medicine.tools import ClinicTools
from tests.domains.rounds import gold_round
from toolscale.check.fuzz import fuzz_domain
from toolscale.core.contract import TaskSpec, ToolError, item_rng
from toolscale.kit import Draw


def _plan(pid: str, name: str, referrals: bool) -> dict[str, Any]:
    copays = {"primary_copay": 20.0, "specialist_copay": 45.0, "generic_copay": 10.0}
    return {
        "plan_id": pid,
        "name": name,
        "referrals": referrals,
        **copays,
        "brand_copay": 40.0,
        "deductible": 1000.0,
    }


def _doctor(did: str, specialty: str, days: list[str], networks: list[str]) -> dict[str, Any]:
    return {
        "doctor_id": did,
        "name": f"Dr. {did}",
        "specialty": specialty,
        "days": days,
        "times": ["09:00", "10:00"],
        "networks": networks,
    }


def _visit(aid: str, day: str, time: str, status: str = "scheduled") -> dict[str, Any]:
    return {
        "appointment_id": aid,
        "patient_id": "PT1",
        "doctor_id": "D1",
        "date": day,
        "time": time,
        "status": status,
    }


def _rx(rid: str, **changes: Any) -> dict[str, Any]:
    base = {
        "prescription_id": rid,
        "patient_id": "PT1",
        "drug": "metformin",
        "strength": "500 mg",
        "tier": "generic",
        "schedule": "",
        "prescriber_id": "D1",
        "pharmacy_id": "PH1",
        "written": "2024-06-01",
        "days_supply": 90,
        "last_filled": "2024-12-10",
        "refills_left": 2,
        "status": "active",
    }
    return {**base, **changes}


def tiny_state() -> dict[str, Any]:
    """Now is Monday 2025-03-10 08:00. PT1 is on an HMO (referrals needed), PT2 on a PPO. D1
    (primary care, Mon/Wed) takes both plans, D2 (dermatology) only the HMO, D3 only the PPO.
    AP1 is today at 15:00 (inside 24 hours), AP2 on Wednesday at 09:00, AP3 last week."""
    patient = {
        "email": "a@example.org",
        "phone": "555-0001",
        "date_of_birth": "1970-01-01",
        "referrals": [],
        "pharmacy_id": "PH1",
    }
    return {
        "now": rules.NOW,
        "next_id": 500,
        "plans": {"PL1": _plan("PL1", "Silver HMO", True), "PL2": _plan("PL2", "Gold PPO", False)},
        "doctors": {
            "D1": _doctor("D1", rules.PRIMARY, ["Monday", "Wednesday"], ["PL1", "PL2"]),
            "D2": _doctor("D2", "dermatology", ["Tuesday"], ["PL1"]),
            "D3": _doctor("D3", "cardiology", ["Tuesday"], ["PL2"]),
        },
        "pharmacies": {p: {"pharmacy_id": p, "name": f"{p} Pharmacy"} for p in ("PH1", "PH2")},
        "patients": {
            "PT1": {**patient, "patient_id": "PT1", "name": "Ann Lee", "plan_id": "PL1"},
            "PT2": {**patient, "patient_id": "PT2", "name": "Bo Chan", "plan_id": "PL2"},
        },
        "appointments": {
            "AP1": _visit("AP1", "2025-03-10", "15:00"),
            "AP2": _visit("AP2", "2025-03-12", "09:00"),
            "AP3": _visit("AP3", "2025-03-03", "09:00", "completed"),
        },
        "prescriptions": {
            "RX1": _rx("RX1"),  # due 2024-12-10 + 90 - 7 days = 2025-03-03
            "RX2": _rx("RX2", days_supply=30, last_filled="2025-03-01"),  # due 2025-03-24
            "RX3": _rx("RX3", drug="oxycodone", schedule="C-II"),
            "RX4": _rx("RX4", written="2024-03-01"),  # expired 2025-03-01
            "RX5": _rx("RX5", refills_left=0),
            "RX6": _rx("RX6", status="discontinued"),
        },
    }


@pytest.mark.parametrize(
    ("patient", "doctor", "day", "error", "message"),
    [
        ("PT1", "D3", "2025-03-11", rules.OutOfNetwork, "not in the network of the Silver HMO"),
        ("PT1", "D2", "2025-03-11", rules.NeedsReferral, "referral from primary care"),
        ("PT2", "D1", "2025-05-05", rules.TooFarAhead, "at most 45 days ahead"),
        ("PT2", "D1", "2025-03-11", rules.DoctorAway, "not Tuesdays"),
        ("PT2", "D1", "2025-03-12", rules.SlotTaken, "already booked on 2025-03-12 at 09:00"),
    ],
)
def test_each_booking_rule_refuses_with_its_error(patient, doctor, day, error, message) -> None:
    kit = ClinicTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.book_appointment(patient, doctor, day, "09:00")
    assert len(kit.state["appointments"]) == 3


def test_a_booking_that_fits_gets_an_id_and_the_plans_copay() -> None:
    kit = ClinicTools(tiny_state())
    assert kit.quote_visit("PT2", "D3")["copay"] == 45.0  # a specialist on the PPO: no referral
    assert kit.get_doctor_schedule("D1", "2025-03-12")["open"] == ["10:00"]
    booked = kit.book_appointment("PT2", "D1", "2025-03-12", "10:00")
    assert (booked["appointment_id"], booked["status"]) == ("AP500", "scheduled")
    assert kit.get_doctor_schedule("D1", "2025-03-12")["open"] == []
    with pytest.raises(ToolError, match="from tomorrow on"):
        kit.book_appointment("PT2", "D1", "2025-03-10", "10:00")


def test_late_cancellation_costs_the_fee_and_moves_need_a_days_notice() -> None:
    kit = ClinicTools(tiny_state())
    assert kit.cancel_appointment("AP1")["late_fee"] == 35.0  # 7 hours ahead
    assert kit.cancel_appointment("AP2")["late_fee"] == 0.0
    with pytest.raises(rules.NotScheduled, match="AP2 is cancelled"):
        kit.cancel_appointment("AP2")
    kit = ClinicTools(tiny_state())
    with pytest.raises(rules.TooLateToChange, match="15:00"):
        kit.reschedule_appointment("AP1", "2025-03-12", "10:00")
    with pytest.raises(rules.NotScheduled, match="completed"):
        kit.reschedule_appointment("AP3", "2025-03-12", "10:00")
    assert kit.reschedule_appointment("AP2", "2025-03-17", "10:00")["date"] == "2025-03-17"


@pytest.mark.parametrize(
    ("rid", "error", "message"),
    [
        ("RX2", rules.TooEarly, "from 2025-03-24"),
        ("RX3", rules.ControlledSubstance, "C-II controlled substance"),
        ("RX4", rules.Expired, "expired on 2025-03-01"),
        ("RX5", rules.NoRefillsLeft, "Dr. D1 must write a new one"),
        ("RX6", rules.Discontinued, "is discontinued"),
    ],
)
def test_each_refill_rule_refuses_and_the_quote_says_why(rid, error, message) -> None:
    kit = ClinicTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.request_refill(rid)
    quote = kit.get_refill_quote(rid)
    assert quote["refillable"] is False and message in quote["reason"]
    assert error.handoff == (error is rules.ControlledSubstance)


def test_a_refill_uses_one_refill_and_costs_three_months_of_copay() -> None:
    kit = ClinicTools(tiny_state())
    filled = kit.request_refill("RX1")
    assert (filled["copay"], filled["refills_left"], filled["ready_on"]) == (30.0, 1, "2025-03-11")
    assert kit.get_refill_quote("RX1")["earliest_refill"] == "2025-06-01"  # 90 - 7 days on
    assert kit.calculate("30.0 * 4") == "120"


def test_transfers_move_the_pharmacy_but_not_controlled_or_expired_ones() -> None:
    kit = ClinicTools(tiny_state())
    assert kit.transfer_prescription("RX2", "PH2")["pharmacy_name"] == "PH2 Pharmacy"
    with pytest.raises(ToolError, match="already at PH2 Pharmacy"):
        kit.transfer_prescription("RX2", "PH2")
    with pytest.raises(rules.ControlledSubstance):
        kit.transfer_prescription("RX3", "PH2")
    with pytest.raises(rules.Expired):
        kit.transfer_prescription("RX4", "PH2")


def test_the_world_is_hundreds_of_records_built_fast_and_the_policy_has_its_numbers() -> None:
    domain = MedicineDomain()
    start = time.perf_counter()
    world = domain.world(0)
    assert time.perf_counter() - start < 1.0  # ~60 ms here; generous for a loaded machine
    assert (len(world["doctors"]), len(world["patients"])) == (30, 200)
    assert len(world["appointments"]) >= 350 and len(world["prescriptions"]) >= 350
    assert "$35.00" in domain.policy and "{" not in domain.policy
    assert 18 <= len(ClinicTools.specs()) <= 22


@pytest.mark.slow
def test_hostile_arguments_fail_calls_and_crash_no_tool() -> None:
    assert [p.message for p in fuzz_domain("medicine", per_tool=12)] == []


@pytest.mark.slow
def test_generated_tasks_verify_and_validate(tmp_path) -> None:
    gold_round("medicine", tmp_path / "out")


def _said(spec: TaskSpec) -> str:
    assert spec.scenario is not None
    return f"{spec.instruction} {spec.scenario.reason_for_call}"


def test_a_requested_slot_is_on_a_weekday_the_clinic_is_open() -> None:
    """A doctor-away refusal is a weekday the doctor is out, never a Sunday: the clinic is open
    Monday to Friday, so a weekend would be refused for the clinic's days as well."""
    domain = MedicineDomain()
    for kind in ("book_appointment.no.doctor_away", "reschedule_appointment.no.doctor_away"):
        for i in range(15):
            said = _said(domain.sample_named(item_rng("medicine", 0, i), 0, i, kind))
            assert not re.search(r"\b(Saturday|Sunday) \d", said), said


def test_only_a_caller_whose_supply_runs_low_says_they_are_running_low() -> None:
    """A 90-day fill 45 days ago lasts 45 more days: its caller may be going away, not "down to
    my last few pills"; a 30-day fill 27 days ago may be."""

    def fill(days_ago: int, supply: int) -> Draw:
        rx = {"last_filled": rules.shift(rules.TODAY, -days_ago), "days_supply": supply}
        return Draw(random.Random(0), {}, {"prescription": rx})

    assert _refill_motives(fill(45, 90)) == ANY_SUPPLY
    assert set(LOW) <= set(_refill_motives(fill(27, 30)))
    domain, low = MedicineDomain(), 0
    for i in range(40):
        kind = ("request_refill", "request_refill.no.too_early")[i % 2]
        spec = domain.sample_named(item_rng("medicine", 0, i), 0, i, kind)
        if any(motive in _said(spec) for motive in LOW):
            low += 1
            rid = next(
                a.arguments["prescription_id"]
                for a in spec.gold_actions
                if "prescription_id" in a.arguments
            )
            rx = spec.initial_state["prescriptions"][rid]
            assert rules.shift(rx["last_filled"], rx["days_supply"] - 7) <= rules.TODAY
    assert low  # some callers do run low


def test_a_nurse_line_caller_asks_one_question_with_its_own_motive() -> None:
    """Reading pass, seed 7: the opening asked whether an inhaler "is fine with a glass of
    wine", the reason for the call whether it goes "together with ibuprofen" (the wordings were
    three questions). Now the opening and the reason ask the gold hand-off's one question, for
    one of its motives (`NURSE_MOTIVES`)."""
    from domains.medicine import NURSE_MOTIVES, MedicineDomain
    from toolscale.core.contract import item_rng
    from toolscale.kit.phrasing import second_person

    domain, asked = MedicineDomain(), set()
    every = {m for ms in NURSE_MOTIVES.values() for m in ms}
    for i in range(40):
        spec = domain.sample_named(item_rng("medicine", 0, i), 0, i, "nurse")
        scenario = spec.scenario
        if scenario.behaviour == "change":
            continue
        (question,) = [q for q in NURSE_MOTIVES if q in spec.instruction]
        assert question in scenario.reason_for_call, (spec.instruction, scenario.reason_for_call)
        said = f"{spec.instruction} {scenario.reason_for_call}"
        told = {m for m in every if m in said or second_person(m) in said}
        assert told <= set(NURSE_MOTIVES[question]), (question, told)
        asked.add(question)
    assert asked == set(NURSE_MOTIVES)


def test_a_no_show_is_said_in_words() -> None:
    """Reading pass, seed 7: the agent told a caller "appointment AP59824 is no_show"."""
    from domains.medicine import MedicineDomain, rules

    state = MedicineDomain().world(0)
    missed = next(a for a in state["appointments"].values() if a["status"] == "no_show")
    with pytest.raises(rules.NotScheduled, match=r"is marked as a no-show$"):
        rules.scheduled(state, missed["appointment_id"])
