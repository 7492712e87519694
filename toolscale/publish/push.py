"""`toolscale push`: upload an output folder to the Hugging Face Hub as a dataset repository.

Only an allowlist leaves the machine: README.md (re-rendered first, so the card matches the
data), run.json, the card's plots under assets/, and the parquet shards that hold rows. Never the
`.toolscale/` marker folder, temporary files, caches, request caches or anything else in the
folder. Text files are scanned for access tokens before anything is sent. Every config must load
with `datasets.load_dataset(OUT, config)` first.

The upload is `HfApi.upload_folder`, which in huggingface_hub 2.x is the streamed, multi-commit,
resumable pipeline that replaced `upload_large_folder` (big folders are committed in batches;
files already on the Hub with the same content are skipped). The data goes up in one upload and
the card in a second, so a Hub page never describes data that is not there yet. The token is
checked first (present, accepted by the Hub), before the card and load checks, which take seconds
to a minute. Transient failures are retried; a failure that outlasts the retries ends with a
PushError that says what is on the Hub and to run the same command again, which resumes.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pyarrow.parquet as pq

from toolscale.core.errors import ConfigError
from toolscale.publish.card import card
from toolscale.write.features import CONFIGS

if TYPE_CHECKING:
    from huggingface_hub import HfApi

T = TypeVar("T")

# What looks like an access token: Hugging Face, OpenAI-style and generic bearer secrets.
_TOKEN_PATTERNS = (
    re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bsk-[A-Za-z0-9_-]{20,}\b"),
    re.compile(r"(?i)\"(api_key|token|authorization|password|secret)\"\s*:\s*\"[^\"]{8,}\""),
)
_SECRET_ENV = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "OPENAI_API_KEY", "TOOLSCALE_API_KEY")
_REPO_ID = re.compile(r"[\w.-]{1,96}/[\w.-]{1,96}")


class PushError(Exception):
    """The upload failed after its retries (network or server side); running again resumes."""


@dataclass(frozen=True)
class PushResult:
    repo_id: str
    files: list[tuple[str, int]]
    uploaded: bool
    url: str | None = None


def data_files(out: Path) -> list[str]:
    """The shards that hold rows (an empty shard adds nothing and is not uploaded)."""
    return [
        path.relative_to(out).as_posix()
        for config in CONFIGS
        for path in sorted((out / "data" / config).glob("*.parquet"))
        if pq.ParquetFile(path).metadata.num_rows > 0
    ]


def card_files(out: Path) -> list[str]:
    names = ["README.md", "run.json"]
    names += [p.relative_to(out).as_posix() for p in sorted((out / "assets").glob("*.png"))]
    return names


def check_files(out: Path, names: list[str]) -> None:
    """Refuse links (they could point anywhere) and any text file holding a token."""
    secrets = [v for k in _SECRET_ENV if len(v := os.environ.get(k, "")) >= 8]
    for name in names:
        path = out / name
        if path.is_symlink() or not path.is_file():
            raise ConfigError(f"{path} is a link or not a regular file; push uploads plain files")
        if path.suffix not in (".md", ".json"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(s in text for s in secrets) or any(p.search(text) for p in _TOKEN_PATTERNS):
            raise ConfigError(
                f"{path} contains what looks like an access token; remove it (and rotate it) "
                "before pushing"
            )


def check_loadable(out: Path) -> None:
    """Each config with rows must load with `datasets`, with as many rows as its shards."""
    import datasets

    for config in CONFIGS:
        shards = sorted((out / "data" / config).glob("*.parquet"))
        expected = sum(pq.ParquetFile(p).metadata.num_rows for p in shards)
        if not expected:
            continue
        # A throw-away cache: nothing is written into OUT or kept after the check.
        with tempfile.TemporaryDirectory(prefix="toolscale-load-") as cache:
            try:
                loaded = datasets.load_dataset(str(out), config, split="train", cache_dir=cache)
            except Exception as exc:  # datasets raises many types; all mean "does not load"
                raise ConfigError(
                    f"config {config!r} of {out} does not load with datasets "
                    f"({exc.__class__.__name__}: {str(exc)[:200]}); run toolscale card {out}"
                ) from None
            if loaded.num_rows != expected:
                raise ConfigError(
                    f"config {config!r} loads {loaded.num_rows} rows, its shards hold {expected}"
                )


def _retryable(exc: Exception) -> bool:
    from huggingface_hub.errors import HfHubHTTPError

    if isinstance(exc, HfHubHTTPError):
        status = exc.response.status_code if exc.response is not None else None
        return status is None or status == 429 or status >= 500
    import httpx2

    return isinstance(exc, httpx2.TransportError | OSError)


def _upload(api: HfApi, out: Path, repo_id: str, names: list[str], message: str, **kw: Any) -> Any:
    # Exact paths as allow-patterns: nothing outside the allowlist can match.
    return api.upload_folder(
        repo_id=repo_id,
        repo_type="dataset",
        folder_path=out,
        allow_patterns=names,
        commit_message=message,
        **kw,
    )


def _with_retries(
    step: str,
    repo_id: str,
    tries: int,
    backoff_s: float,
    call: Callable[[], T],
    uploading: bool = False,
) -> T:
    """`call()`, retried on transient errors; a refusal of the token is a ConfigError, any other
    lasting failure a PushError that says truly what is on the Hub (`uploading`: a step that
    commits, so part of it may be there)."""
    from huggingface_hub.errors import HfHubHTTPError

    for attempt in range(1, tries + 1):
        try:
            return call()
        except Exception as exc:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            if isinstance(exc, HfHubHTTPError) and status in (401, 403):
                raise ConfigError(
                    f"the Hub refused {step} for {repo_id} ({status}); log in with "
                    "`hf auth login` or set HF_TOKEN to a token that can write there"
                ) from None
            if not _retryable(exc) or attempt == tries:
                then = (
                    "what was committed stays on the Hub: run the same command again to resume"
                    if uploading
                    else "nothing was uploaded: run the same command again"
                )
                reason = (str(exc).splitlines() or [""])[0][:200]
                raise PushError(
                    f"{step} for {repo_id} failed after {attempt} attempt(s)"
                    f" ({exc.__class__.__name__}: {reason}); {then}"
                ) from exc
            time.sleep(backoff_s * 2 ** (attempt - 1))
    raise AssertionError("unreachable")


def check_access(api: HfApi, repo_id: str, tries: int, backoff_s: float) -> None:
    """The Hub accepts our token (a ConfigError saying how to get one when there is none, it is
    refused, or the Hub is switched off with HF_HUB_OFFLINE): checked before any slow step."""
    from huggingface_hub import constants, get_token

    if constants.HF_HUB_OFFLINE:
        raise ConfigError(
            "HF_HUB_OFFLINE is set and push needs the Hub: unset it, or check and list the "
            "files with --dry-run"
        )
    if get_token() is None:
        raise ConfigError(
            f"no Hugging Face token: log in with `hf auth login` or set HF_TOKEN to a token that "
            f"can write to {repo_id} (--dry-run checks and lists the files without one)"
        )
    _with_retries("checking the token", repo_id, tries, backoff_s, api.whoami)


def push(
    out: Path | str,
    repo_id: str,
    *,
    private: bool = False,
    revision: str | None = None,
    dry_run: bool = False,
    license_id: str = "apache-2.0",
    tries: int = 3,
    backoff_s: float = 2.0,
) -> PushResult:
    """Check OUT, re-render its card, and upload it to the dataset repository `repo_id`.

    Args:
        out: A complete toolscale output folder.
        repo_id: "ORG/NAME" of the dataset repository; created if missing.
        private: Create the repository private (an existing one keeps its visibility).
        revision: Branch to commit to (created from main if missing); main when None.
        dry_run: Check and list the files without contacting the Hub.
        license_id: The licence the card declares.
        tries: Attempts per step on transient errors (5xx, 429, network).
        backoff_s: Wait before the second attempt; doubles after each failure.
    """
    out = Path(out)
    if not _REPO_ID.fullmatch(repo_id):
        raise ConfigError(f"--repo-id {repo_id!r} is not ORG/NAME; write e.g. my-org/my-dataset")
    if not (out / "run.json").is_file() or not (out / ".toolscale").is_dir():
        raise ConfigError(f"{out} is not a toolscale output (no run.json and .toolscale folder)")
    status = json.loads((out / "run.json").read_text()).get("status")
    if status != "complete":
        raise ConfigError(
            f"{out} is an incomplete run (status {status!r}); finish it with generate --resume"
        )
    api: HfApi | None = None
    if not dry_run:  # the token first: the checks below take seconds to a minute
        from huggingface_hub import HfApi

        # The endpoint is read now, not at import time, so HF_ENDPOINT set by the caller counts.
        api = HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None)
        check_access(api, repo_id, tries, backoff_s)
    card(out, repo_id=repo_id, license_id=license_id)
    data, meta = data_files(out), card_files(out)
    check_files(out, data + meta)
    check_loadable(out)
    files = [(name, (out / name).stat().st_size) for name in data + meta]
    if api is None:
        return PushResult(repo_id, files, uploaded=False)
    url = _with_retries(
        "creating the repository",
        repo_id,
        tries,
        backoff_s,
        lambda: api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True),
    )
    if revision:
        _with_retries(
            f"creating branch {revision}",
            repo_id,
            tries,
            backoff_s,
            lambda: api.create_branch(repo_id, branch=revision, repo_type="dataset", exist_ok=True),
        )
    for names, message in ((data, "Upload toolscale data"), (meta, "Upload toolscale card")):
        _with_retries(
            message.lower(),
            repo_id,
            tries,
            backoff_s,
            partial(_upload, api, out, repo_id, names, message, revision=revision),
            uploading=True,
        )
    return PushResult(repo_id, files, uploaded=True, url=str(url))
