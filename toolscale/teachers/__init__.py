"""Teachers: what plays the agent's side of an episode."""
