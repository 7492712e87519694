"""The weather service account desk's tools: accounts and API plans, usage and call packs,
forecasts and observations, alert subscriptions, and the personal stations that report readings.
Every rule is checked by `rules` (the same checks the composer draws tasks with)."""

from __future__ import annotations

from typing import Any, ClassVar

from domains.weather import rules
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]


class WeatherDeskTools(StatefulGenericTools):
    """Tools over one task's weather-service database (`self.state`). Outputs are JSON values."""

    param_docs: ClassVar[dict[str, str]] = {
        "account_id": 'The account id, such as "AC1234".',
        "plan_id": 'The new plan\'s id, such as "AP2".',
        "location_id": 'The location id, such as "L12345".',
        "date": "The day as YYYY-MM-DD.",
        "subscription_id": 'The subscription id, such as "SB12345".',
        "station_id": 'The station id, such as "ST12345".',
    }

    def _account(self, account: Record) -> Record:
        return {**account, "plan": rules.plan_of(self.state, account)["name"]}

    def _usage(self, account: Record) -> Record:
        plan = rules.plan_of(self.state, account)
        quota = plan["quota"] + account["packs_bought"] * rules.PACK_CALLS
        left = max(quota - account["calls_used"], 0)
        fields = ("account_id", "calls_used", "packs_bought")
        return {
            **{k: account[k] for k in fields},
            "plan": plan["name"],
            "quota": quota,
            "calls_left": left,
            "pack_price": plan["pack_price"],
        }

    def _mine(self, table: str, account_id: str) -> list[Record]:
        aid = lookup(self.state, "accounts", account_id, "account")["account_id"]
        return [r for r in self.state[table].values() if r["account_id"] == aid]

    def _day(self, table: str, location_id: str, date: str, span: str) -> Record:
        location = lookup(self.state, "locations", location_id, "location")
        key = f"{location['location_id']}:{text(date, 'date', max_chars=20).strip()}"
        if key not in self.state[table]:
            raise ToolError(f"no {table[:-1]} for {location['name']} on {date.strip()}: {span}")
        return {**self.state[table][key], "location": location["name"]}

    @tool(ToolKind.READ)
    @finds("account", by="account_id")
    def get_account(self, account_id: str) -> Record:
        """Get an account: owner, email, API plan, calls used this month, call packs bought this
        month and any unpaid balance.
        """
        return self._account(lookup(self.state, "accounts", account_id, "account"))

    @tool(ToolKind.READ)
    @finds("account", by="email")
    def find_account_by_email(self, email: str) -> Record:
        """Find an account by its email address; returns the account.

        Args:
            email: The account's email address.
        """
        return self._account(find_by(self.state, "accounts", "email", email, "account"))

    @tool(ToolKind.READ)
    @finds("plan", by="name")
    def find_plan(self, name: str) -> Record:
        """Find an API plan by name: monthly fee, calls a month, active alerts allowed, and the
        price of a call pack of extra calls.

        Args:
            name: The plan's name, such as "Basic".
        """
        return find_by(self.state, "plans", "name", name, "plan")

    @tool(ToolKind.READ)
    def get_usage(self, account_id: str) -> Record:
        """Get an account's API usage this billing month: calls used, quota (plan plus packs),
        calls left, packs bought and the price of one more pack.
        """
        return self._usage(lookup(self.state, "accounts", account_id, "account"))

    @tool(ToolKind.READ)
    def quote_plan_change(self, account_id: str, plan_id: str) -> Record:
        """Quote moving an account to another plan: the prorated charge for the rest of this
        billing month, the new monthly fee and quota. Changes nothing.
        """
        return rules.plan_quote(self.state, account_id, plan_id)

    @tool(ToolKind.READ)
    @finds("location", by="name")
    def find_location(self, name: str) -> Record:
        """Find a forecast location by its town name: its id and region.

        Args:
            name: The town's name, such as "Port Alder".
        """
        return find_by(self.state, "locations", "name", name, "location")

    @tool(ToolKind.READ)
    def get_forecast(self, location_id: str, date: str) -> Record:
        """Get the forecast for a location on one day (today and the next six days): high and
        low in Celsius, sky, wind in km/h and rain in mm.
        """
        return self._day("forecasts", location_id, date, "forecasts cover the next 7 days")

    @tool(ToolKind.READ)
    def get_observation(self, location_id: str, date: str) -> Record:
        """Get what was observed at a location on a past day (up to 14 days back): high and low
        in Celsius, sky, wind in km/h and rain in mm.
        """
        return self._day("observations", location_id, date, "observations go 14 days back")

    @tool(ToolKind.READ)
    @lists("subscription", of="account")
    def list_account_alerts(self, account_id: str) -> list[Record]:
        """List an account's alert subscriptions: location, kind, channel and status."""
        return self._mine("subscriptions", account_id)

    @tool(ToolKind.READ)
    @finds("subscription", by="subscription_id")
    def get_alert(self, subscription_id: str) -> Record:
        """Get one alert subscription: location, kind, channel and status."""
        return lookup(self.state, "subscriptions", subscription_id, "subscription")

    @tool(ToolKind.READ)
    @lists("station", of="account")
    def list_account_stations(self, account_id: str) -> list[Record]:
        """List the personal weather stations of an account: name, location, status, last
        calibration and the dates of recent reports.
        """
        return self._mine("stations", account_id)

    @tool(ToolKind.READ)
    @finds("station", by="station_id")
    def get_station(self, station_id: str) -> Record:
        """Get a personal weather station: name, location, status, last calibration, the date
        its calibration runs out and the dates of recent reports.
        """
        station = lookup(self.state, "stations", station_id, "station")
        due = rules.shift(station["calibrated"], rules.CALIBRATION_DAYS)
        return {**station, "calibration_due": due, "last_report": max(station["reports"])}

    @tool(ToolKind.WRITE)
    @raises(rules.SalesOnly, rules.PastDue, rules.OverQuota)
    def change_plan(self, account_id: str, plan_id: str) -> Record:
        """Move an account to another API plan now; an upgrade charges the prorated difference
        for the rest of the month (the amount of quote_plan_change).
        """
        quote = rules.check_plan_change(self.state, account_id, plan_id)
        self.state["accounts"][quote["account_id"]]["plan_id"] = plan_id.strip()
        return quote

    @tool(ToolKind.WRITE)
    @raises(rules.FreePlan, rules.PastDue, rules.PackLimit)
    def buy_call_packs(self, account_id: str, packs: int) -> Record:
        """Buy packs of 10,000 extra API calls for this billing month, charged now.

        Args:
            packs: How many packs.
        """
        cost = rules.check_packs(self.state, account_id, packs)["cost"]
        account = self.state["accounts"][account_id.strip()]
        account["packs_bought"] += packs
        return {**self._usage(account), "charged": cost}

    @tool(ToolKind.WRITE)
    @raises(rules.SmsNeedsPaidPlan, rules.AlertLimit)
    def subscribe_alert(self, account_id: str, location_id: str, kind: str, channel: str) -> Record:
        """Subscribe an account to weather alerts of one kind for a location.

        Args:
            kind: One of storm, heat, frost, flood, wind.
            channel: One of email, sms, push.
        """
        rules.check_alert(self.state, account_id, location_id, kind, channel)
        sid = f"SB{self.state['next_id']}"
        self.state["next_id"] += 1
        self.state["subscriptions"][sid] = {
            "subscription_id": sid,
            "account_id": account_id.strip(),
            "location_id": location_id.strip(),
            "kind": kind.strip().lower(),
            "channel": channel.strip().lower(),
            "status": "active",
        }
        return self.state["subscriptions"][sid]

    @tool(ToolKind.WRITE)
    @raises(rules.NotActive)
    def cancel_alert(self, subscription_id: str) -> Record:
        """Cancel an alert subscription."""
        rules.check_unsubscribe(self.state, subscription_id)
        sub = self.state["subscriptions"][subscription_id.strip()]
        sub["status"] = "cancelled"
        return sub

    @tool(ToolKind.WRITE)
    @raises(rules.StationSuspended, rules.CalibrationDue, rules.ReportTooOld)
    def submit_station_report(
        self, station_id: str, date: str, temperature_c: float, rain_mm: float
    ) -> Record:
        """Record a personal station's daily reading (the day's high in Celsius and its rain).

        Args:
            date: The day of the reading as YYYY-MM-DD.
            temperature_c: The day's high temperature in degrees Celsius.
            rain_mm: The day's rain in millimetres.
        """
        station = rules.check_report(self.state, station_id, date, temperature_c, rain_mm)
        station["reports"] = sorted([*station["reports"], date.strip()])
        return {
            "station_id": station["station_id"],
            "date": date.strip(),
            "accepted": True,
            "reports": station["reports"],
        }
