"""The dataset on disk: fixed features, the output folder, the rows' JSON Schemas.

Holds:
- `features`: the one fixed schema of each dataset config: `tasks`, `traces` and `rejected`.
- `output`: the output folder: atomic parquet shards, per-chunk completion markers, run.json,
  README.md.
- `record_schema`: JSON Schemas of the dataset rows, shipped in toolscale/schemas/ and derived from
  the records.
"""
