"""Play the agent's side of an episode: teachers, the LLM user simulator, transcripts, rollouts.

Holds:
- `factory`: choose, check and build the run's teacher from its options; report what its endpoints
  did.
- `mistakes`: detours of a stateful task that look like an agent's real mistakes, built from its
  gold route.
- `openai_teacher`: the LLM teacher: any OpenAI-compatible endpoint plays the agent, the sandbox
  executes its calls.
- `reference`: the reference teacher: plays the gold actions through the sandbox, no LLM involved.
- `rollout`: a policy's rollout as a Transcript, recorded exactly as an LLM teacher's attempt is
  recorded.
- `transcript`: the Teacher protocol and the transcript an attempt is recorded in.
- `usersim`: the user simulator: an LLM plays the user of a conversational task from its scenario.
"""
