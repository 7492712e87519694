"""`toolscale view`: open an output (a folder or a Hub id), then serve its pages or write them.

The Hub is read through `huggingface_hub.snapshot_download` (only run.json and the parquet
shards); what it cannot fetch, an unknown id or no network, is a ConfigError. `--html DIR`
writes the list, every task page and every attempt page as files that open from the file system.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import threading
from collections.abc import Callable
from pathlib import Path

from toolscale.core.errors import ConfigError
from toolscale.view.index import OutputIndex
from toolscale.view.pages import Pages, task_href, trace_href
from toolscale.view.server import make_server

_REPO_ID = re.compile(r"[\w.-]{1,96}/[\w.-]{1,96}")
LOOPBACK = ("127.0.0.1", "::1", "localhost")
_SITE_PAGE = re.compile(r"index\.html|(task|trace)-[^/]+\.html")  # what `write_html` writes


def open_output(source: str, revision: str | None = None) -> Path:
    """The local folder of `source`: the folder itself, or a Hub dataset ORG/NAME downloaded."""
    path = Path(source).expanduser()
    if path.exists() or not _REPO_ID.fullmatch(source):
        return path
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError

    try:
        return Path(
            snapshot_download(
                source,
                repo_type="dataset",
                revision=revision,
                allow_patterns=["run.json", "data/*/*.parquet"],
            )
        )
    except (HfHubHTTPError, OSError, ValueError) as exc:
        reason = (str(exc).splitlines() or [type(exc).__name__])[0].split(". ")[0][:160]
        raise ConfigError(
            f"{source} is not a local folder and could not be read from the Hub ({reason}); "
            "give an output folder or a reachable Hub dataset id ORG/NAME"
        ) from None


def write_html(index: OutputIndex, dest: Path) -> int:
    """Write the list, every task page and every attempt page into `dest` (new, empty, or holding
    an earlier site's pages only); returns the count."""
    if dest.exists() and not dest.is_dir():
        raise ConfigError(f"--html {dest} is a file; choose a folder")
    if dest.resolve().is_relative_to(index.root.resolve()):
        raise ConfigError(f"--html {dest} is inside the output; choose a folder outside it")
    present = sorted(p.name for p in dest.iterdir()) if dest.is_dir() else []
    foreign = [name for name in present if not _SITE_PAGE.fullmatch(name)]
    if foreign:  # pages of an earlier `--html` may be written over; nothing else
        raise ConfigError(
            f"--html {dest} holds files that are not view pages ({', '.join(foreign[:3])}"
            f"{', ...' if len(foreign) > 3 else ''}); choose an empty or new folder"
        )
    pages = Pages(index, static=True)
    try:
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "index.html").write_text(pages.list_page({}), encoding="utf-8")
        written = 1
        for task_id in index.tasks["id"].to_pylist():
            (dest / task_href(task_id)).write_text(pages.task_page(task_id) or "", "utf-8")
            written += 1
        for trace_id in index.attempts["id"].to_pylist():
            (dest / trace_href(trace_id)).write_text(pages.trace_page(trace_id) or "", "utf-8")
            written += 1
    except OSError as exc:
        raise ConfigError(
            f"--html {dest} is not writable ({exc.strerror}); choose another"
        ) from None
    return written


def _warm(index: OutputIndex) -> None:
    with contextlib.suppress(ConfigError):  # the task page that needs them shows the error
        index.worlds()


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def view(
    source: str,
    host: str = "127.0.0.1",
    port: int = 8765,
    html: Path | str | None = None,
    say: Callable[[str], None] = print,
) -> None:
    """Serve the pages of an output (a folder or a Hub id ORG/NAME) on host:port until
    interrupted, or with `html` write them there as static files and return."""
    index = OutputIndex(open_output(str(source)))
    if html is not None:
        html = Path(html)
        count = write_html(index, html)
        say(f"wrote {count} pages under {html}; open {html / 'index.html'}")
        return
    server = make_server(Pages(index), host, port)
    # The worlds (which task pages of stateful domains need) load behind the first request.
    threading.Thread(target=_warm, args=(index,), daemon=True).start()
    if not _is_loopback(host):
        say(
            f"warning: serving on {host}, not loopback: anyone who can reach this machine can "
            "read the data"
        )
    bound, actual = server.server_address[:2]
    address = str(bound)  # a host name or address (typeshed allows bytes too)
    shown = f"[{address}]" if ":" in address else address
    say(f"serving {index.root} at http://{shown}:{actual}/ (read-only; Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
