"""Build full tasks: prices, preferences, the run's worlds and the task sources."""
