"""The output folder: atomic parquet shards, per-chunk completion markers, run.json, README.md.

Layout:
    OUT/data/<config>/<domain>-<start>.parquet   one shard per config per chunk of tasks
    OUT/.toolscale/chunks/<domain>-<start>.json   written last: the chunk is complete
    OUT/run.json                                   resolved config, counts, versions
    OUT/README.md                                  YAML `configs:` so `load_dataset(OUT, c)` works
Every file is written to a temporary name and renamed, so a killed run never leaves a half-written
file under its real name; a chunk without its marker is simply produced again on `--resume`.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from toolscale.core.errors import ConfigError
from toolscale.write.features import CONFIGS, arrow_schema

MARKER = ".toolscale"


def _create(folder: Path, name: str) -> tuple[int, Path]:
    """A new file beside the target, with the permissions the umask gives (0o666 less the umask,
    as `open` gives them; `tempfile.mkstemp` would make it 0o600 whatever the umask)."""
    while True:
        tmp = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename, so a killed run never leaves
    a half-written file under its real name. The file gets the mode `open` would give it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json(path: Path, value: Any) -> None:
    atomic_write(path, (json.dumps(value, indent=2, sort_keys=True) + "\n").encode())


class Output:
    """One toolscale output folder."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def chunks_dir(self) -> Path:
        return self.root / MARKER / "chunks"

    def is_toolscale_output(self) -> bool:
        return (self.root / MARKER).is_dir()

    def prepare(self, resume: bool) -> None:
        """Create or reopen the folder; refuse anything that could lose or mix data."""
        root = self.root
        if root.exists() and not root.is_dir():
            raise ConfigError(f"--out {root} is a file; choose a folder")
        if root.is_dir() and any(root.iterdir()):
            if not self.is_toolscale_output():
                raise ConfigError(
                    f"--out {root} is a non-empty folder that is not a toolscale output; "
                    "choose an empty or new folder"
                )
            if not resume:
                raise ConfigError(
                    f"--out {root} already holds a toolscale output; pass --resume to continue "
                    "it, or choose another folder"
                )
        try:
            self.chunks_dir.mkdir(parents=True, exist_ok=True)
            atomic_write(root / MARKER / "probe", b"")
        except OSError as exc:
            raise ConfigError(
                f"--out {root} is not writable ({exc.strerror}); choose another folder"
            ) from None

    def shard_path(self, config: str, chunk: str) -> Path:
        return self.root / "data" / config / f"{chunk}.parquet"

    def write_shard(self, config: str, chunk: str, rows: list[dict[str, Any]]) -> None:
        """Write one shard. An empty shard has no row group at all: `datasets` cannot read a
        zero-row row group, but skips a file without any."""
        schema = arrow_schema(config)
        sink = pa.BufferOutputStream()
        with pq.ParquetWriter(sink, schema, compression="zstd") as writer:
            if rows:
                writer.write_table(pa.Table.from_pylist(rows, schema=schema))
        atomic_write(self.shard_path(config, chunk), sink.getvalue().to_pybytes())

    def row_count(self, config: str) -> int:
        return sum(pq.ParquetFile(p).metadata.num_rows for p in self.shards(config))

    def chunk_done(self, chunk: str) -> dict[str, Any] | None:
        path = self.chunks_dir / f"{chunk}.json"
        return json.loads(path.read_text()) if path.exists() else None

    def mark_done(self, chunk: str, counts: dict[str, Any]) -> None:
        write_json(self.chunks_dir / f"{chunk}.json", counts)

    def shards(self, config: str) -> list[Path]:
        return sorted((self.root / "data" / config).glob("*.parquet"))

    def read_shard(self, config: str, chunk: str, fix: str | None = None) -> pa.Table:
        """One finished chunk's shard; missing, unreadable (a half-copied file, a disk that
        filled) or of another schema is a ConfigError naming the file and what to do (`fix`,
        default: generate's, delete it and its chunk marker and --resume)."""
        path = self.shard_path(config, chunk)
        marker = self.chunks_dir / f"{chunk}.json"
        redo = f"its chunk marker {marker}, then run generate --resume with the run's options"
        if not path.is_file():
            if fix is not None:
                raise ConfigError(f"shard {path} is missing; {fix}")
            raise ConfigError(f"shard {path} is missing although {marker} exists; delete {redo}")
        fix = fix or f"delete it and {redo}"
        try:
            table = pq.read_table(path)
        except (pa.ArrowException, OSError) as exc:
            # Arrow repeats the path ("Could not open Parquet input source '<path>': ...").
            reason = (str(exc).splitlines() or [type(exc).__name__])[0].split("': ")[-1][:120]
            raise ConfigError(f"shard {path} is corrupted ({reason}); {fix}") from None
        if not table.schema.equals(arrow_schema(config), check_metadata=False):
            raise ConfigError(f"shard {path} does not have the {config} schema; {fix}")
        return table

    def read_rows(self, config: str) -> Iterator[tuple[Path, dict[str, Any]]]:
        """Every row of a config with its shard; a shard that cannot be read is a ConfigError."""
        for path in self.shards(config):
            for row in self.read_shard(config, path.stem).to_pylist():
                yield path, row

    def write_readme(self, title: str) -> None:
        """A minimal card whose YAML `configs:` makes every config loadable by `datasets`.
        A config without rows is left out: `datasets` cannot load an empty split."""
        configs = "".join(
            f"- config_name: {c}\n  data_files:\n  - split: train\n    path: data/{c}/*.parquet\n"
            for c in CONFIGS
            if self.row_count(c)
        )
        text = (
            f"---\nconfigs:\n{configs}---\n\n# {title}\n\n"
            "Generated by toolscale. Configs: `tasks` (RL prompts and everything a reward needs), "
            "`traces` (verified attempts), `rejected` (failed attempts with their failure stage), "
            "`user_faults` (attempts the simulated user broke: not the agent's failures). "
            "See `run.json` for the resolved configuration and counts.\n"
        )
        atomic_write(self.root / "README.md", text.encode())
