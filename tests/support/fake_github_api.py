"""A local stand-in for GitHub's REST API, for tests: an in-process HTTP server answering what
projects/repositories.py asks for, in GitHub's own shapes, so the real HTTP client (its timeouts,
status handling and parsing) is what gets exercised:

    with FakeGitHubAPI() as github:
        settings.FAULTLINE_GITHUB_API_URL = github.url
        github.add_repository("acme/widget", issues=[...], pulls=[...])
        github.fail("/repos/acme/widget/issues", 410)   # this path answers 410 from now on
        github.stall_seconds = 5                         # every answer from now on comes this late
        github.requests                                  # (path, headers) of every request

As on GitHub, ``/issues`` lists pull requests too, each with a ``pull_request`` key, and
``/pulls`` lists them alone. ``stop()`` takes the server down: the address then refuses
connections, as an unreachable API does.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


def github_issue(number: int, title: str, *, body: str = "", labels=(), user: str = "octocat", **extra) -> dict:
    """An open issue as GitHub's API returns it (the fields Faultline reads, and a few it does not)."""
    return {
        "id": 1000 + number,
        "number": number,
        "title": title,
        "state": "open",
        "labels": [{"id": n, "name": name, "color": "ededed"} for n, name in enumerate(labels)],
        "user": {"login": user, "id": 1},
        "body": body,
        "comments": 0,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-20T10:00:00Z",
        "html_url": f"https://github.com/acme/widget/issues/{number}",
        **extra,
    }


def github_pull(number: int, title: str, *, body: str = "", labels=(), draft: bool = False, **extra) -> dict:
    """An open pull request as ``/pulls`` returns it."""
    return github_issue(
        number,
        title,
        body=body,
        labels=labels,
        draft=draft,
        head={"ref": f"feature-{number}"},
        base={"ref": "main"},
        html_url=f"https://github.com/acme/widget/pull/{number}",
        **extra,
    )


def as_listed_among_issues(pull: dict) -> dict:
    """A pull request as ``/issues`` lists it: marked with a ``pull_request`` key."""
    listed = {key: value for key, value in pull.items() if key not in ("head", "base")}
    listed["pull_request"] = {"url": f"https://api.github.com/repos/acme/widget/pulls/{pull['number']}"}
    return listed


class FakeGitHubAPI:
    def __init__(self) -> None:
        self.repositories: dict[str, dict] = {}
        self.failures: dict[str, int] = {}
        self.requests: list[tuple[str, dict]] = []
        self.stall_seconds = 0.0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._running = False

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def add_repository(
        self,
        slug: str,
        *,
        readme: str = "# Widget\n\nWidget turns sprockets into gears.",
        paths=("README.md", "widget/core.py"),
        issues=(),
        pulls=(),
    ) -> None:
        with self._lock:
            self.repositories[slug] = {
                "readme": readme,
                "paths": list(paths),
                "issues": list(issues),
                "pulls": list(pulls),
            }

    def fail(self, path: str, status: int) -> None:
        with self._lock:
            self.failures[path] = status

    def answer(self, path: str, query: dict) -> tuple[int, object]:
        with self._lock:
            if path in self.failures:
                return self.failures[path], {"message": "Failed", "documentation_url": "https://docs.github.com"}
            parts = path.strip("/").split("/")
            if len(parts) < 3 or parts[0] != "repos" or f"{parts[1]}/{parts[2]}" not in self.repositories:
                return 404, {"message": "Not Found"}
            repository = self.repositories[f"{parts[1]}/{parts[2]}"]
            rest = "/".join(parts[3:])
            per_page = int(query.get("per_page", ["30"])[0])
            if rest == "":
                return 200, {"full_name": f"{parts[1]}/{parts[2]}", "default_branch": "main"}
            if rest.startswith("git/trees/"):
                return 200, {"tree": [{"path": path, "type": "blob"} for path in repository["paths"]]}
            if rest == "languages":
                return 200, {"Python": 9000, "Markdown": 1000}
            if rest == "commits":
                return 200, [
                    {"sha": "a1b2c3d4e5", "commit": {"message": "Fix the gear ratio\n\nLong body.", "author": {"name": "Tess", "date": "2026-11-19T09:00:00Z"}}}
                ][:per_page]  # fmt: skip
            if rest == "readme":
                return 200, {"content": base64.b64encode(repository["readme"].encode()).decode(), "encoding": "base64"}
            if rest == "issues":
                listed = repository["issues"] + [as_listed_among_issues(pull) for pull in repository["pulls"]]
                return 200, listed[:per_page]
            if rest == "pulls":
                return 200, repository["pulls"][:per_page]
            return 404, {"message": "Not Found"}

    def record(self, path: str, headers: dict) -> None:
        with self._lock:
            self.requests.append((path, headers))

    def paths_requested(self) -> list[str]:
        with self._lock:
            return [path for path, _ in self.requests]

    def start(self) -> FakeGitHubAPI:
        self._thread.start()
        self._running = True
        return self

    def stop(self) -> None:
        if self._running:
            self._server.shutdown()
            self._running = False
        self._server.server_close()

    def __enter__(self) -> FakeGitHubAPI:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _handler_for(api: FakeGitHubAPI):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the http.server API)
            parts = urlsplit(self.path)
            api.record(parts.path, {key.lower(): value for key, value in self.headers.items()})
            status, body = api.answer(parts.path, parse_qs(parts.query))
            time.sleep(api.stall_seconds)
            data = json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting (a stalled answer): what the test wanted

        def log_message(self, *args):  # keep the test output clean
            pass

    return Handler
