"""The cost and user model: price schedules and tables, and user preferences."""
