"""Run generate: plan, play one task, one chunk, the driver, the Ray executor, merge."""
