"""What every stage shares: the domain contract, records, canonical state, patches, ids, errors.

Holds:
- `answers`: does a final message commit to the expected answer, and does it state a required fact?.
- `code_fingerprint`: the fingerprint of a domain's code: its version and the files of the package
  that defines it.
- `contract`: the domain contract: everything a domain plugin provides, in one file.
- `errors`: the error a user can fix: printed as one line by the CLI, with a non-zero exit.
- `handed`: the final answer of an attempt whose last call handed the question to a model.
- `ids`: ids and RNGs: content ids, state hashes and the one RNG of each item, from their inputs
  alone.
- `judging`: what a domain tells the judge: the hooks the verifier's checks ask
  (`toolscale.judge.checks`), with their defaults, and the formulas a domain declares.
- `packing`: fast exact bytes of a JSON-like value, for process-local caches: `marshal` (about 3x
  faster than `pickle` to write, a little faster to read, and like it exact about types: 1, 1.0 and
  True pack apart), falling back to `pickle` for a value marshal cannot write.
- `patch`: JSON Patch (RFC 6902) between two JSON states: the difference of a task's state from its
  world.
- `preference`: a task's user preference as stored on its row: the vector P and the checked
  constraints.
- `records`: the serialised records: Task, Trace and their parts, exactly as they become dataset
  rows.
- `relative_days`: days said by their distance from today: "tomorrow", "this Wednesday", "next
  Friday".
- `registry`: find domain plugins through the `toolscale.domains` entry-point group.
- `scenario`: the user of a conversational task: why they call, what they say and know, how they
  behave.
- `schema`: derive OpenAI function schemas from a tool's type hints and Google docstring.
- `sentences`: split a message into sentences as a reader does: not after "e.g.", "i.e." or a
  title.
- `state_text`: the canonical JSON of a state, written from the text of the parts it shares with
  states seen before.
- `task_state`: a task's initial state as the canonical JSON the sandbox receives, serialised once
  per task.
- `tool_contract`: the tool side of the domain contract: tool kinds, prices, the `@tool` mark and
  `Toolkit`.
- `written`: dates, times and numbers as people write them: each mention in a text, read as its
  value.
"""
