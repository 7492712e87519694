"""Build full tasks: ids, schemas, the run's worlds and the task sources."""
