"""The oracle route of a task: every route played and judged, the best made the gold."""
