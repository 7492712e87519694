"""Play the agent's side of an episode: teachers, users, the gold conversation, transcripts."""
