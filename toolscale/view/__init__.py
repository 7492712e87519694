"""`toolscale view`: a local, read-only browser over an output's tasks and attempts
(docs/view.md).

Holds:
- `app`: `toolscale view`: open an output (a folder or a Hub id), then serve its pages or write
  them.
- `index`: the viewer's index of an output: the few columns a list needs, read once; one row on
  demand.
- `pages`: the viewer's HTML: the list of attempts, a task page and an attempt page, from one index.
- `server`: the viewer's web server: GET-only, the output's own pages and nothing else.
"""
