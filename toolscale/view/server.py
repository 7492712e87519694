"""The viewer's web server: GET-only, the output's own pages and nothing else.

`index.html` (the list, filtered by its query), `task-ID.html` and `trace-ID.html`; any other
path is a 404 and any other method a 405, so there is no write endpoint and no file of the
machine is ever served. It binds to loopback unless the caller says otherwise. This module does
not render pages (`pages`) or decide what to open (`app`).
"""

from __future__ import annotations

import errno
import re
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

from toolscale.core.errors import ConfigError
from toolscale.view.pages import Pages

_PAGE = re.compile(r"/(task|trace)-([0-9A-Za-z_.:-]{1,200})\.html")


class _Handler(BaseHTTPRequestHandler):
    pages: Pages  # set on the subclass `make_server` builds, one per server
    server_version = "toolscale-view"
    sys_version = ""

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = unquote(url.path)
        body: str | None = None
        try:
            if path in ("/", "/index.html"):
                body = self.pages.list_page(dict(parse_qsl(url.query)))
            elif match := _PAGE.fullmatch(path):
                kind, row_id = match.groups()
                find = self.pages.task_page if kind == "task" else self.pages.trace_page
                body = find(row_id)
        except ConfigError as exc:  # e.g. a shard changed under the server
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, f"error: {exc}", "text/plain")
            return
        if body is None:
            self._send(HTTPStatus.NOT_FOUND, f"not found: {path}", "text/plain")
        else:
            self._send(HTTPStatus.OK, body, "text/html")

    def _refuse(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, "toolscale view is read-only", "text/plain")

    do_POST = do_PUT = do_PATCH = do_DELETE = _refuse

    def _send(self, status: HTTPStatus, body: str, kind: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", self.pages.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        if status == HTTPStatus.METHOD_NOT_ALLOWED:
            self.send_header("Allow", "GET, HEAD")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_HEAD(self) -> None:
        self.do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass  # a browser's requests are not the user's business on the terminal


def make_server(pages: Pages, host: str, port: int) -> ThreadingHTTPServer:
    """A server for `pages` bound to host:port (port 0: a free one); a port out of range, in use,
    or an address that cannot be bound is a ConfigError."""
    handler = type("Handler", (_Handler,), {"pages": pages})
    if not 0 <= port <= 65535:  # the socket module raises OverflowError, not OSError
        raise ConfigError(f"--port {port} is not a port; give one from 0 to 65535 (0: any free)")
    try:
        server = ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"port {port} on {host} is in use; choose another with --port (0: any free port)"
            ) from None
        raise ConfigError(
            f"cannot listen on {host}:{port} ({exc.strerror}); check --host"
        ) from None
    server.daemon_threads = True
    return server
