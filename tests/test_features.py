"""The dataset Features are derived from the records: rows the records write load with exactly
those Features, a field added to a record becomes a column, and a type with no column is refused."""

from __future__ import annotations

from typing import Any, Literal

import pyarrow as pa
import pytest
from datasets import Features, List, Value
from pydantic import BaseModel

from toolscale.core.records import TASK_JSON, Task
from toolscale.core.registry import get_domain
from toolscale.sample.tasks import build_task
from toolscale.sample.worlds import WorldStore
from toolscale.write.features import FEATURES, STRING, arrow_schema, feature_of, features_of


def test_task_rows_fit_the_derived_schema_column_for_column():
    bank = get_domain("bank")
    task = build_task(bank, 0, 2, 15.0).task
    store = WorldStore()  # a bank task is its difference from the run's world
    store.add(bank.world(0))
    row = task.to_row(store)
    assert sorted(row) == sorted(FEATURES["tasks"])  # every column, nothing more
    table = pa.Table.from_pylist([row], schema=arrow_schema("tasks"))
    assert Task.from_row(table.to_pylist()[0], store) == task
    assert all(FEATURES["tasks"][name] == STRING for name in TASK_JSON)


class Inner(BaseModel):
    kind: Literal["a", "b"]
    score: float | None = None


class Record(BaseModel):
    id: str
    count: int
    parts: list[Inner]
    tags: list[str]
    payload: dict[str, Any]
    ok: bool = True


def test_a_new_field_becomes_a_column_where_it_is_declared():
    features = features_of(Record, ("payload",), {"count": {"count_bucket": STRING}})
    assert features == Features(
        {
            "id": Value("string"),
            "count": Value("int64"),
            "count_bucket": Value("string"),
            "parts": List({"kind": Value("string"), "score": Value("float64")}),
            "tags": List(Value("string")),
            "payload": Value("string"),
            "ok": Value("bool"),
        }
    )


def test_a_type_with_no_column_is_refused():
    with pytest.raises(TypeError, match="store it as JSON text"):
        feature_of(dict[str, Any])
    with pytest.raises(TypeError):
        feature_of(int | str)
