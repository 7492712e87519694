"""A loopback stand-in for the Hugging Face Hub's HTTP API, for push tests.

It implements the endpoints huggingface_hub 2.4 calls to check a token (GET /api/whoami-v2),
create a dataset repository and commit files to it: POST /api/repos/create, /api/validate-yaml,
/api/datasets/{repo}/branch/{b}, /api/datasets/{repo}/preupload/{rev},
/api/datasets/{repo}/commit/{rev} (NDJSON), and GET /api/datasets/{repo}/revision/{rev}. Files
are kept in memory per repository and branch. Preupload answers "regular" for every file, as the
Hub does for small text files: the Xet storage transfer used for large binary files on the real
Hub (Hugging Face's CAS service) is not reproduced here. `fail_commit(summary)` decides which
commit requests answer 500.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlparse

import yaml


def git_blob_sha1(data: bytes) -> str:
    """The git object id of a blob: what huggingface_hub compares to skip unchanged files."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class FakeHub:
    def __init__(self, token: str) -> None:
        self.token = token
        self.repos: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str]] = []
        self.fail_commit: Callable[[str], bool] = lambda summary: False
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def files(self, repo_id: str, branch: str = "main") -> dict[str, bytes]:
        return self.repos[repo_id]["branches"][branch]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def reply(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def body(self) -> bytes:
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def do_GET(self) -> None:
                self.route("GET")

            def do_POST(self) -> None:
                self.route("POST")

            def route(self, method: str) -> None:
                path = urlparse(self.path).path
                data = self.body()
                with hub.lock:
                    hub.requests.append((method, path))
                    if self.headers.get("Authorization") != f"Bearer {hub.token}":
                        self.reply(401, {"error": "Invalid credentials in Authorization header"})
                        return
                    self.dispatch(method, path, data)

            def dispatch(self, method: str, path: str, data: bytes) -> None:
                parts = [unquote(p) for p in path.strip("/").split("/")]
                if (method, path) == ("POST", "/api/repos/create"):
                    return self.create(json.loads(data))
                if (method, path) == ("GET", "/api/whoami-v2"):
                    return self.reply(200, {"type": "user", "name": "tester", "orgs": []})
                if (method, path) == ("POST", "/api/validate-yaml"):
                    return self.validate_yaml(json.loads(data))
                if len(parts) >= 6 and parts[:2] == ["api", "datasets"]:
                    repo_id, action, rev = f"{parts[2]}/{parts[3]}", parts[4], "/".join(parts[5:])
                    repo = hub.repos.get(repo_id)
                    if repo is None:
                        return self.reply(404, {"error": f"Repository {repo_id} not found"})
                    if method == "POST" and action == "branch":
                        return self.branch(repo, rev)
                    if rev not in repo["branches"]:
                        return self.reply(404, {"error": f"Revision {rev} not found"})
                    files = repo["branches"][rev]
                    if method == "POST" and action == "preupload":
                        return self.preupload(files, json.loads(data))
                    if method == "POST" and action == "commit":
                        return self.commit(repo_id, repo, rev, data)
                    if method == "GET" and action == "revision":
                        return self.reply(
                            200,
                            {
                                "id": repo_id,
                                "sha": repo["heads"][rev],
                                "private": repo["private"],
                                "siblings": [{"rfilename": p} for p in sorted(files)],
                            },
                        )
                return self.reply(404, {"error": f"no route {method} {path}"})

            def create(self, payload: dict[str, Any]) -> None:
                repo_id = f"{payload['organization']}/{payload['name']}"
                if payload.get("type") != "dataset":
                    return self.reply(400, {"error": "this fake serves dataset repos only"})
                if repo_id in hub.repos:
                    # Like the Hub: the conflict answer still carries the repository's url.
                    url = f"{hub.url}/datasets/{repo_id}"
                    return self.reply(409, {"error": "You already created this repo", "url": url})
                hub.repos[repo_id] = {
                    "private": payload.get("visibility") == "private",
                    "branches": {"main": {}},
                    "heads": {"main": "0" * 40},
                    "commits": [],
                }
                self.reply(200, {"url": f"{hub.url}/datasets/{repo_id}"})

            def validate_yaml(self, payload: dict[str, Any]) -> None:
                text = payload["content"]
                try:
                    meta = yaml.safe_load(text.split("---")[1]) if text.startswith("---") else {}
                except yaml.YAMLError as exc:
                    return self.reply(400, {"errors": [{"message": str(exc)}]})
                if not isinstance(meta, dict):
                    return self.reply(400, {"errors": [{"message": "metadata is not a mapping"}]})
                self.reply(200, {"errors": [], "warnings": []})

            def branch(self, repo: dict[str, Any], name: str) -> None:
                if name in repo["branches"]:
                    return self.reply(409, {"error": "Reference already exists"})
                repo["branches"][name] = dict(repo["branches"]["main"])
                repo["heads"][name] = repo["heads"]["main"]
                self.reply(200, {})

            def preupload(self, files: dict[str, bytes], payload: dict[str, Any]) -> None:
                self.reply(
                    200,
                    {
                        "files": [
                            {
                                "path": f["path"],
                                "uploadMode": "regular",
                                "shouldIgnore": False,
                                "oid": git_blob_sha1(files[f["path"]])
                                if f["path"] in files
                                else None,
                            }
                            for f in payload["files"]
                        ]
                    },
                )

            def commit(self, repo_id: str, repo: dict[str, Any], rev: str, data: bytes) -> None:
                lines = [json.loads(line) for line in data.splitlines() if line.strip()]
                header, ops = lines[0], lines[1:]
                if hub.fail_commit(header["value"]["summary"]):
                    return self.reply(500, {"error": "Internal Error - We're working hard on it"})
                if header["key"] != "header":
                    return self.reply(400, {"error": "first line must be the header"})
                for op in ops:
                    if op["key"] != "file" or op["value"]["encoding"] != "base64":
                        return self.reply(400, {"error": f"unsupported operation {op['key']}"})
                for op in ops:
                    content = base64.b64decode(op["value"]["content"])
                    repo["branches"][rev][op["value"]["path"]] = content
                oid = hashlib.sha1(data + repo["heads"][rev].encode()).hexdigest()
                repo["heads"][rev] = oid
                repo["commits"].append((rev, header["value"]["summary"], len(ops)))
                self.reply(
                    200,
                    {
                        "commitUrl": f"{hub.url}/datasets/{repo_id}/commit/{oid}",
                        "commitOid": oid,
                        "pullRequestUrl": None,
                    },
                )

        return Handler
