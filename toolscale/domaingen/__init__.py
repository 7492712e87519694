"""`toolscale synthesize-domain`: an LLM writes kit v2 domains from topics; only those that pass
every execution gate, run in the sandbox, are kept (docs/synthesize-domain.md).

The stages: a spec (JSON, checked with jsonschema), the five files written from it, then the
gates (`gates`), each in a sandbox at the code executor's isolation level (`jail`); a stage's
problems go back to the model for a few repair rounds (`author`). The run (`domain_synthesis`)
writes accepted domains, rejected ones with their reason, and run.json with the funnel;
`domain_merge` joins the outputs of `--shard` jobs, running the near-duplicate gate across
them. Nothing here imports a generated domain in the calling process.

Holds:
- `audit`: an audit hook for the sandboxed processes that run generated code: it blocks and reports
  a socket, a look into the home folder, a program started, before the call is made.
- `author`: one topic through the stages: spec, files, gates; each stage's problems go back to the
  model for at most `repairs` rounds (a contained or near-duplicate domain is not repaired).
- `config`: the options of one `toolscale synthesize-domain` run, and their checks (before any
  request).
- `domain_merge`: `toolscale merge` of `synthesize-domain --shard I/N` outputs: one DIR as the
  unsharded run would have written it.
- `domain_synthesis`: `toolscale synthesize-domain`: check the options, write each topic's domain,
  keep what passes.
- `endpoint`: the endpoint pool of one synthesize-domain run: the model that writes the domains,
  built as every role's pool is (`toolscale.play.factory.RolePools`: retries, one request cache, one
  budget, its URLs spread over), and the example domain's files the model is shown.
- `files`: the files stage's answer: the five files of a kit v2 domain, read out of the model's text
  and written as a package folder; no code in them is run here.
- `gates`: the gates of one generated package, in funnel order: the sandboxed static gates, the
  near-duplicate gate (here, on the signature the sandbox derived), then the sandboxed check-domain
  gates and the variety gate.
- `inside`: the gates that run inside the sandbox, on one generated package: run only by
  `toolscale.domaingen.jail`, never imported by the process that drives a run.
- `jail`: run a generated domain's gates in a sandbox at the code executor's isolation level.
- `outputs`: what one topic leaves in DIR: an accepted domain's package, a rejected one's files and
  reason, and the topic's marker (what `--resume` skips), each written whole or not at all.
- `prompts`: the messages the model gets: the spec of a topic, the five files from a spec, and a
  repair.
- `similar`: the near-duplicate gate: how alike two domains' tool signatures are.
- `spec`: the spec stage's answer: a domain described as JSON, checked with jsonschema and for
  sense.
"""
