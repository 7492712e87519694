"""Rebuild tau2-bench's airline database (`data/tau2/domains/airline/db.json`) byte for byte
from tau-bench v1's airline data.

Why: the file is 7 MB and some clones and mirrors of tau2-bench come without it (a large file
left out), so `tau2:airline` cannot load. tau2's release is tau-bench v1's
`tau_bench/envs/airline/data/{flights,users,reservations}.json` passed through tau2's own
`FlightDB` model (each user gains its `user_id`; gift-card and certificate amounts become
floats), written with `origin, destination, flight_number` first in every flight and reservation
flight, without the `status` of reservations that have none, and with three values changed:

- flight HAT018 on 2024-05-11 is `delayed` (v1: `landed`), with estimated times 16:30 -> 19:05;
- reservation Z7GOZK (EWR -> IAH -> EWR) has destination `IAH` (v1: `EWR`) and is a
  `round_trip` (v1: `one_way`).

The result is checked against the git blob id of tau2's file before it is put in place: a
mismatch is one `error:` line, exit 2, nothing written. A `db.json` that already matches is left
alone. It does not fetch anything: clone github.com/sierra-research/tau-bench (v1) yourself.

    TOOLSCALE_TAU2_SRC=/path/to/tau2-bench python benchmarks/tau2/airline_db.py \
        --tau-bench /path/to/tau-bench [--out FOLDER]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.tau2 import source

BLOB_ID = "c6a1e817aa9102c5822e83affb3595acbc312701"  # git hash-object of tau2's db.json
V1_DATA = Path("tau_bench", "envs", "airline", "data")
TABLES = ("flights", "users", "reservations")
LEADING = ("origin", "destination", "flight_number")  # the key order of tau2's release

# (path, value in tau-bench v1, value in tau2's release)
CHANGES: list[tuple[tuple[str, ...], object, object]] = [
    (
        ("flights", "HAT018", "dates", "2024-05-11"),
        {
            "status": "landed",
            "actual_departure_time_est": "2024-05-11T16:00:00",
            "actual_arrival_time_est": "2024-05-11T18:35:00",
        },
        {
            "status": "delayed",
            "estimated_departure_time_est": "2024-05-11T16:30:00",
            "estimated_arrival_time_est": "2024-05-11T19:05:00",
        },
    ),
    (("reservations", "Z7GOZK", "destination"), "EWR", "IAH"),
    (("reservations", "Z7GOZK", "flight_type"), "one_way", "round_trip"),
]


def blob_id(data: bytes) -> str:
    """The id git gives a file with these bytes (`git hash-object`)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def v1_folder(given: Path) -> Path:
    """tau-bench v1's airline data folder: `given` itself or the one inside a checkout."""
    for folder in (given, given / V1_DATA):
        if all((folder / f"{table}.json").is_file() for table in TABLES):
            return folder
    raise ConfigError(
        f"no {', '.join(t + '.json' for t in TABLES)} in {given} or {given / V1_DATA}; "
        "give a tau-bench (v1) checkout or its airline data folder"
    )


def leading_first(item: dict[str, Any]) -> dict[str, Any]:
    """`item` with `origin, destination, flight_number` moved to the front."""
    return {**{key: item[key] for key in LEADING}, **item}


def build(folder: Path) -> bytes:
    """tau2's db.json rebuilt from the v1 data in `folder`."""
    from tau2.domains.airline.data_model import FlightDB

    tables = {t: json.loads((folder / f"{t}.json").read_text("utf-8")) for t in TABLES}
    for user_id, user in tables["users"].items():
        user["user_id"] = user_id
    db = FlightDB.model_validate(tables).model_dump()
    db["flights"] = {key: leading_first(flight) for key, flight in db["flights"].items()}
    for reservation in db["reservations"].values():
        reservation["flights"] = [leading_first(flight) for flight in reservation["flights"]]
        if reservation["status"] is None:
            del reservation["status"]
    for path, old, new in CHANGES:
        parent = db
        for key in path[:-1]:
            parent = parent.get(key, {})
        if parent.get(path[-1]) != old:
            raise ConfigError(f"{'/'.join(path)} is not tau-bench v1's {old!r}: other data given")
        parent[path[-1]] = new
    return json.dumps(db, indent=4).encode()  # tau2's file has no final newline


def write(tau_bench: Path, out: Path) -> str:
    """Put the rebuilt db.json in `out` (only if it is tau2's, byte for byte); what was done."""
    target = out / "db.json"
    if target.is_file() and blob_id(target.read_bytes()) == BLOB_ID:
        return f"{target} is already tau2's airline db.json (blob {BLOB_ID}); left as it is"
    data = build(v1_folder(tau_bench))
    if blob_id(data) != BLOB_ID:
        raise ConfigError(f"the rebuilt db.json has blob {blob_id(data)}, not tau2's {BLOB_ID}")
    handle, temporary = tempfile.mkstemp(prefix=".db.json.", dir=out)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would not be a checkout's file
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return f"wrote {target} ({len(data):,} bytes, blob {BLOB_ID})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tau-bench", required=True, type=Path, help="v1 checkout or data folder")
    parser.add_argument("--out", type=Path, help="folder for db.json (default: tau2's airline)")
    args = parser.parse_args()
    try:
        source.ensure()
        if args.out is None:
            from tau2.domains.airline.utils import AIRLINE_DATA_DIR

            args.out = Path(AIRLINE_DATA_DIR)
        if not args.out.is_dir():
            raise ConfigError(f"--out {args.out} is not a folder")
        print(write(args.tau_bench, args.out))
    except (ConfigError, OSError, ValueError) as exc:  # ValueError: bad JSON, FlightDB refusing
        print(f"error: {str(exc).splitlines()[0]}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
