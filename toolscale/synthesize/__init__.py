"""`toolscale synthesize`: an LLM proposes tasks over a domain's tools and world; execution,
a do-nothing check, de-duplication and solver attempts filter them (ToolScale's pipeline).

One job per module: `candidates` parses what the model wrote, `prompts` builds what it reads,
`propose` asks for intents, tasks and evolved tasks, `filters` checks a candidate's form and
runs its gold actions, `dedup` finds near-duplicates and contaminated tasks, `solver` plays a
task K times, `stored` turns a candidate into a Task and a stored Task back into a playable
one, `pipeline` runs the stages and writes the output, `card` writes its dataset card.
"""
