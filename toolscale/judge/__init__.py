"""Judge one attempt: verify, measure, label, reward (the Rubric composes them)."""
