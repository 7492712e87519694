"""`toolscale view`: a local, read-only browser over an output's tasks and attempts
(docs/view.md)."""
