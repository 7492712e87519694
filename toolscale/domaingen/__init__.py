"""`toolscale synthesize-domain`: an LLM writes kit v2 domains from topics; only those that pass
every execution gate, run in the sandbox, are kept (docs/synthesize-domain.md).

The stages: a spec (JSON, checked with jsonschema), the five files written from it, then the
gates (`gates`), each in a sandbox at the code executor's isolation level (`jail`); a stage's
problems go back to the model for a few repair rounds (`author`). The run (`run`) writes
accepted domains, rejected ones with their reason, and run.json with the funnel; `merge` joins
the outputs of `--shard` jobs, running the near-duplicate gate across them. Nothing here imports
a generated domain in the calling process.
"""
