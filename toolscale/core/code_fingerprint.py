"""The fingerprint of a domain's code: its version and the files of the package that defines it.

A chunk marker records it (`toolscale.pipeline.chunk`), so `generate --resume` can tell that a
domain's code changed since its finished chunks were made (a template edited without a version
bump would otherwise mix old and new tasks in one dataset). The files are every file under the
folder of the domain class's package (sources, policy text, data; caches and hidden files left
out), or the module's own file for a domain in a top-level module. Code the domain imports from
elsewhere (toolscale's kit, a tau2 checkout's data) is not part of it.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from pathlib import Path

from toolscale.core.registry import get_domain


def _files(cls: type) -> tuple[Path, list[Path]]:
    """(the folder paths are named relative to, the files) of the code that defines `cls`."""
    module = sys.modules[cls.__module__]
    path = Path(module.__file__ or "").resolve()
    if not module.__package__:  # a top-level module: only its own file
        return path.parent, [path]
    folder = path.parent
    found = [
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix != ".pyc"
        and not any(
            part.startswith(".") or part == "__pycache__" for part in p.relative_to(folder).parts
        )
    ]
    return folder, sorted(found)


@cache
def code_fingerprint(name: str) -> str:
    """Domain `name`'s fingerprint (16 hex digits), computed once per process (a run takes it
    before it plays anything, so files edited while it runs do not change it)."""
    cls = type(get_domain(name))
    folder, files = _files(cls)
    digest = hashlib.sha256(f"{cls.version}\0".encode())
    for path in files:
        digest.update(f"{path.relative_to(folder)}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]
