"""A request body past the limit is refused as it arrives, before the web server keeps it.

Before, an anonymous 300 MB multipart POST to /accounts/login/ grew daphne from 483 MB to 3.8 GB:
daphne kept the whole body before the application saw it, and Twisted read it whole to parse it.
Here a real daphne serving Faultline is sent 300 MB, streamed from a loop (nothing here holds
more than a chunk), and its memory is watched while it answers."""

from __future__ import annotations

import os
import secrets
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import psutil
import pytest
from django.contrib.auth import get_user_model

from faultline.request_limits import body_limit_bytes
from projects.models import Document, Project
from tests.conftest import ROOT, log_path
from tests.conftest import test_database_url as database_url_of
from tests.test_launcher import free_port

pytestmark = pytest.mark.slow  # starts daphne and posts hundreds of megabytes

MB = 1024 * 1024
HUGE = 300 * MB
CHUNK = 256 * 1024
GROWTH_ALLOWED = 50 * MB
BOUNDARY = "faultlinebodylimit"


@pytest.fixture(scope="module")
def web(django_db_setup, django_db_blocker):
    """daphne serving faultline.asgi on a free port, on the test database, as the launcher runs it."""
    from django.conf import settings
    from django.db import connection

    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of(connection.settings_dict, settings.DATABASE_URL),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        "DEBUG": "0",
    }
    log = open(log_path("test-request-size"), "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "faultline.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90
    while not answers(port):
        assert server.poll() is None and time.monotonic() < deadline, f"daphne did not start; see {log.name}"
        time.sleep(0.25)
    yield port, psutil.Process(server.pid)
    server.terminate()
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


class PeakMemory:
    """The largest resident size of ``process`` while the block runs, sampled every 20 ms."""

    def __init__(self, process: psutil.Process):
        self.process = process
        self.peak = 0
        self._done = threading.Event()

    def __enter__(self):
        self.before = self.process.memory_info().rss
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._done.wait(0.02):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __exit__(self, *exc):
        time.sleep(0.5)  # what the server does just after it answered counts too
        self._done.set()
        self._thread.join()

    @property
    def growth(self) -> int:
        return self.peak - self.before


def multipart_head(size: int) -> tuple[bytes, bytes]:
    """The opening and closing of a multipart form with one file field of ``size`` bytes."""
    opening = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    return opening, f"\r\n--{BOUNDARY}--\r\n".encode()


def post_streamed(port: int, *, size: int, declared: int | str | None, chunked: bool) -> tuple[bytes, int]:
    """POST a multipart body of ``size`` bytes to /accounts/login/, a chunk at a time, stopping as
    soon as the server answers (as curl and browsers do). ``declared``: the Content-Length sent,
    if any ("exact": the body's own); ``chunked``: Transfer-Encoding: chunked. Returns the answer's first bytes and how much
    of the body was sent."""
    opening, closing = multipart_head(size)
    headers = [
        "POST /accounts/login/ HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
    ]
    if declared == "exact":
        declared = len(opening) + size + len(closing)
    if declared is not None:
        headers.append(f"Content-Length: {declared}")
    if chunked:
        headers.append("Transfer-Encoding: chunked")
    filler = b"x" * CHUNK
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())

        def send(data: bytes) -> None:
            connection.sendall(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)

        try:
            send(opening)
            deadline = time.monotonic() + 120
            while sent < size and time.monotonic() < deadline:
                if select.select([connection], [], [], 0)[0]:
                    break  # the server answered before the end of the body
                part = filler[: min(CHUNK, size - sent)]
                send(part)
                sent += len(part)
            else:
                send(closing)
                if chunked:
                    connection.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server hung up on the rest; its answer may still be there to read
        answer = b""
        try:
            while len(answer) < 65536:
                data = connection.recv(65536)
                if not data:
                    break
                answer += data
                if b"</html>" in answer:
                    break
        except (ConnectionResetError, TimeoutError):
            pass
    return answer, sent


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


@pytest.mark.parametrize(
    ("how", "declared", "chunked"),
    [("declared", "exact", False), ("streamed without a length", None, True)],
)
def test_a_300_mb_post_is_refused_with_the_sites_413_page_and_memory_stays_flat(web, how, declared, chunked):
    port, daphne = web

    with PeakMemory(daphne) as memory:
        answer, sent = post_streamed(port, size=HUGE, declared=declared, chunked=chunked)

    assert status_of(answer) == 413, answer[:300]
    assert b"That was too large to send" in answer and b'class="topbar"' in answer  # the site's page
    assert b"Content-Security-Policy: " in answer and b"Connection: close" in answer
    assert sent < body_limit_bytes() + 16 * MB, f"the server read on to {sent} bytes before answering"
    assert memory.growth < GROWTH_ALLOWED, f"daphne grew by {memory.growth / MB:.0f} MB ({how})"
    assert answers(port)


@pytest.mark.django_db(transaction=True)
def test_an_upload_under_the_limit_is_kept(web, client):
    port, _ = web
    user = get_user_model().objects.create_user("uploader", password="x")
    project = Project.objects.create(owner=user, name="Big notes")
    client.force_login(user)  # a session row the web process reads
    session = client.cookies["sessionid"].value
    csrf = secrets.token_hex(16)  # Django takes an unmasked secret equal to the cookie's
    text = ("A line of notes about gold and money.\n" * 110_000).encode()  # about 4 MB
    opening, closing = multipart_head(len(text))
    opening = opening.replace(b'filename="big.bin"', b'filename="notes.txt"')
    body = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{csrf}\r\n'.encode()
        + opening
        + text
        + closing
    )
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/projects/{project.pk}/documents/new/",
        data=body,
        headers={
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
        },
    )

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(request, timeout=60)
    except urllib.error.HTTPError as answer:
        assert answer.code == 302, answer.read()[:500]
    document = Document.objects.get(project=project)
    assert document.size == len(text) and document.filename == "notes.txt"


def test_the_limit_leaves_room_for_the_largest_upload_a_form_takes(settings):
    from personas.corpus.sources import MAX_TOTAL_BYTES
    from projects.services import upload_limit_bytes

    assert body_limit_bytes() > MAX_TOTAL_BYTES and body_limit_bytes() > upload_limit_bytes()


@pytest.mark.parametrize("declared", [True, False])
def test_the_asgi_check_answers_413_for_a_body_past_the_limit_without_reading_it_all(settings, declared):
    """What RequestBodyLimit does around the application, for a server that hands the body over
    as it comes: refused on the Content-Length before any of it is read, or once what was read
    passes the limit (the application hears that the client went away)."""
    from asgiref.sync import async_to_sync
    from asgiref.testing import ApplicationCommunicator

    from faultline.request_limits import RequestBodyLimit

    settings.FAULTLINE_REQUEST_MAX_MB = 1
    seen = []

    async def django_like(scope, receive, send):  # reads the whole body first, as Django does
        while True:
            message = await receive()
            seen.append(message["type"])
            if message["type"] == "http.disconnect" or not message.get("more_body"):
                break
        if seen[-1] == "http.request":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"kept"})

    async def post_three_mb():
        headers = [(b"content-length", str(3 * MB).encode())] if declared else []
        scope = {"type": "http", "method": "POST", "path": "/accounts/login/", "headers": headers}
        app = ApplicationCommunicator(RequestBodyLimit(django_like), scope)
        for _ in range(3):
            await app.send_input({"type": "http.request", "body": b"x" * MB, "more_body": True})
        return await app.receive_output(timeout=5), await app.receive_output(timeout=5)

    start, body = async_to_sync(post_three_mb)()

    assert start["status"] == 413
    assert b"That was too large to send" in body["body"]
    assert seen == ([] if declared else ["http.request", "http.disconnect"])  # the second MB passed the limit
