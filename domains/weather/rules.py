"""The weather service's account policy as code: constants (policy.md is rendered from them),
one error per rule, and the checks the tools and the composer share (pure: no state changes)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import lookup, rule
from toolscale.tools.bounds import number, quoted, text

TODAY = "2025-11-17"  # a Monday; the clock of every task
NOW = f"{TODAY}T10:00"
DAYS_LEFT = 14  # days of the billing month left, today included (it ends on 30 November)
PACK_CALLS = 10_000
MAX_PACKS = 5  # call packs per billing month
CALIBRATION_DAYS = 365
REPORT_DAYS = 3  # a station may report readings this many days back
FORECAST_DAYS = 7
HISTORY_DAYS = 14
SALES_PLAN = "Enterprise"
KINDS = ("storm", "heat", "frost", "flood", "wind")
CHANNELS = ("email", "sms", "push")

Record = dict[str, Any]


PastDue = rule("PastDue")
OverQuota = rule("OverQuota")
SalesOnly = rule("SalesOnly", handoff=True)
FreePlan = rule("FreePlan")
PackLimit = rule("PackLimit")
AlertLimit = rule("AlertLimit")
SmsNeedsPaidPlan = rule("SmsNeedsPaidPlan")
NotActive = rule("NotActive")
StationSuspended = rule("StationSuspended")
CalibrationDue = rule("CalibrationDue")
ReportTooOld = rule("ReportTooOld")


def shift(day: str, days: int) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=days)).isoformat()


def plan_of(state: Record, account: Record) -> Record:
    return state["plans"][account["plan_id"]]


def paid_up(account: Record) -> None:
    PastDue.raise_if(
        account["balance_due"] > 0,
        f"account {account['account_id']} has an unpaid balance of "
        f"${account['balance_due']:.2f}; it must be paid before any purchase or plan change",
        account["balance_due"],
    )


def plan_quote(state: Record, account_id: str, plan_id: str) -> Record:
    account = lookup(state, "accounts", account_id, "account")
    new = lookup(state, "plans", plan_id, "plan")
    old = plan_of(state, account)
    if new["plan_id"] == old["plan_id"]:
        raise ToolError(f"account {account['account_id']} is already on the {old['name']} plan")
    charge = max(new["monthly_fee"] - old["monthly_fee"], 0.0) * DAYS_LEFT / 30
    return {
        "account_id": account["account_id"],
        "plan": new["name"],
        "charge_now": round(charge, 2),
        "new_monthly_fee": new["monthly_fee"],
        "new_quota": new["quota"],
    }


def check_plan_change(state: Record, account_id: str, plan_id: str) -> Record:
    quote = plan_quote(state, account_id, plan_id)
    account, new = state["accounts"][quote["account_id"]], state["plans"][plan_id.strip()]
    SalesOnly.raise_if(
        new["name"] == SALES_PLAN, f"the {SALES_PLAN} plan is arranged by our sales team"
    )
    paid_up(account)
    OverQuota.raise_if(
        account["calls_used"] > new["quota"],
        f"the {new['name']} plan allows {new['quota']} calls a month and the account has "
        f"used {account['calls_used']} this month",
        account["calls_used"],
    )
    return quote


def check_packs(state: Record, account_id: str, packs: int) -> Record:
    account = lookup(state, "accounts", account_id, "account")
    number(packs, "packs", low=1, high=100, integer=True)
    plan = plan_of(state, account)
    FreePlan.raise_if(
        not plan["pack_price"],
        f"call packs are not sold on the {plan['name']} plan",
        plan["name"],
    )
    paid_up(account)
    PackLimit.raise_if(
        account["packs_bought"] + packs > MAX_PACKS,
        f"at most {MAX_PACKS} call packs can be bought a month, and this account has bought "
        f"{account['packs_bought']}",
        account["packs_bought"],
    )
    return {"cost": round(plan["pack_price"] * packs, 2)}


def active_alerts(state: Record, account_id: str) -> list[Record]:
    subs = state["subscriptions"].values()
    return [s for s in subs if (s["account_id"], s["status"]) == (account_id, "active")]


def check_alert(state: Record, account_id: str, location_id: str, kind: str, channel: str) -> None:
    account = lookup(state, "accounts", account_id, "account")
    location = lookup(state, "locations", location_id, "location")
    kind, channel = text(kind, "kind").strip().lower(), text(channel, "channel").strip().lower()
    if kind not in KINDS or channel not in CHANNELS:
        raise ToolError(f"kind is one of {', '.join(KINDS)}; channel one of {', '.join(CHANNELS)}")
    plan, mine = plan_of(state, account), active_alerts(state, account["account_id"])
    if any((s["location_id"], s["kind"]) == (location["location_id"], kind) for s in mine):
        raise ToolError(f"there is already an active {kind} alert for {location['name']}")
    SmsNeedsPaidPlan.raise_if(
        channel == "sms" and not plan["monthly_fee"],
        f"SMS alerts need a paid plan; this account is on {plan['name']}",
        plan["name"],
    )
    AlertLimit.raise_if(
        len(mine) >= plan["max_alerts"],
        f"the {plan['name']} plan allows {plan['max_alerts']} active alerts, and all are used",
        plan["max_alerts"],
    )


def check_unsubscribe(state: Record, subscription_id: str) -> None:
    sub = lookup(state, "subscriptions", subscription_id, "subscription")
    NotActive.raise_if(
        sub["status"] != "active",
        f"subscription {sub['subscription_id']} is {sub['status']}",
        sub["status"],
    )


def check_report(
    state: Record, station_id: str, date: str, temperature_c: float, rain_mm: float
) -> Record:
    station = lookup(state, "stations", station_id, "station")
    number(temperature_c, "temperature_c", low=-70, high=60)
    number(rain_mm, "rain_mm", low=0, high=500)
    day = text(date, "date", max_chars=20).strip()
    try:
        back = (dt.date.fromisoformat(TODAY) - dt.date.fromisoformat(day)).days
    except ValueError:
        raise ToolError(f"date {quoted(day)}: use YYYY-MM-DD") from None
    if back < 0:
        raise ToolError(f"{day} is in the future; readings are reported after they are taken")
    StationSuspended.raise_if(
        station["status"] == "suspended",
        f"station {station['station_id']} is suspended",
        station["status"],
    )
    due = shift(station["calibrated"], CALIBRATION_DAYS)
    CalibrationDue.raise_if(
        due < TODAY,
        f"station {station['station_id']} was last calibrated on {station['calibrated']}; "
        f"its calibration ran out on {due}",
        station["calibrated"],
    )
    ReportTooOld.raise_if(
        back > REPORT_DAYS, f"readings can be reported at most {REPORT_DAYS} days back"
    )
    if day in station["reports"]:
        raise ToolError(f"station {station['station_id']} already reported for {day}")
    return station
