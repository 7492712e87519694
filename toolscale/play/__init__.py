"""Play the agent's side of an episode: teachers, the LLM user simulator, transcripts, rollouts."""
