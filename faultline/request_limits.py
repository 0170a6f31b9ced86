"""Request bodies are limited where they arrive, before anything keeps them.

daphne's HTTP layer (Twisted) keeps a request's whole body, in a temporary file, before it calls
the application at all, then puts all of it in the application's queue at once; Twisted also reads
a form or multipart body whole into memory to parse it into arguments daphne never uses. So an
anonymous 300 MB POST grew the web process from 483 MB to 3.8 GB (and it stayed at 1.1 GB after),
long before any check in the application, or in Django (DATA_UPLOAD_MAX_MEMORY_SIZE, the forms'
upload limits), could look at it.

So the request daphne makes for each HTTP request is ``BoundedRequest`` (installed by
faultline/asgi.py): it refuses a body as soon as its Content-Length, or the bytes that have arrived
of a body sent without one, pass ``body_limit_bytes()`` (settings.FAULTLINE_REQUEST_MAX_MB, the
largest upload a form takes and room for the form around it). The client gets a 413 with the
site's page and ``Connection: close``; what it goes on sending is read and dropped for a few
seconds, so that it can read the answer (a server that closes on unread data resets the
connection, and the client loses the page), then the connection is closed. Nothing of the body is
kept. ``RequestBodyLimit`` is the same check in ASGI terms, around the application, for a server
that hands bodies over as they come.
"""

from __future__ import annotations

import functools
import io
import logging
from collections import deque

from daphne.http_protocol import HTTPFactory, WebRequest
from django.conf import settings
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

LINGER_SECONDS = 5.0
# Large bodies (past LARGE_BODY_BYTES) one web process reads at once. daphne hands a body to the
# application all at once, as soon as it has arrived; sixteen 50 MB uploads together took the
# process from 224 MB to 427 MB for good. Past this many, a connection's reading is paused (its
# body waits in the kernel and the client) until one before it has been answered.
LARGE_BODY_BYTES = 1024 * 1024
LARGE_BODIES_AT_ONCE = 2
# daphne's chunks of a body for the application (8 KB by default: 6,400 objects for 50 MB, left
# as fragments in the heap); a chunk this large is mapped and unmapped whole.
BODY_CHUNK_BYTES = 1024 * 1024


def body_limit_bytes() -> int:
    return settings.FAULTLINE_REQUEST_MAX_MB * 1024 * 1024


@functools.lru_cache(maxsize=4)
def too_large_page(limit_mb: int) -> bytes:
    try:
        return render_to_string("413.html", {"limit_mb": limit_mb}).encode()
    except Exception:  # the static files' manifest is missing (production before collectstatic)
        logger.exception("Could not render the 413 page; answering with a plain one")
        return f"<!doctype html><title>Too large</title><p>Requests are limited to {limit_mb} MB.</p>".encode()


def too_large_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    """The 413's headers: those every page of the site carries, though no Django middleware saw it."""
    from csp.utils import build_policy

    return [
        (b"Content-Type", b"text/html; charset=utf-8"),
        (b"Content-Length", str(len(body)).encode()),
        (b"Connection", b"close"),
        (b"Cache-Control", b"no-store"),
        (b"Content-Security-Policy", build_policy().encode()),
        (b"X-Content-Type-Options", b"nosniff"),
        (b"X-Frame-Options", b"DENY"),
        (b"Referrer-Policy", b"same-origin"),
    ]


def _too_large_response() -> bytes:
    body = too_large_page(settings.FAULTLINE_REQUEST_MAX_MB)
    head = b"HTTP/1.1 413 Content Too Large\r\n" + b"".join(
        name + b": " + value + b"\r\n" for name, value in too_large_headers(body)
    )
    return head + b"\r\n" + body


# ── in daphne: where the bytes arrive ─────────────────────────────────────────────────────────


class _LargeBodies:
    """Turns for large bodies in one web process: LARGE_BODIES_AT_ONCE are read at a time, the
    rest wait in arrival order (one entry per open connection, gone when it is answered)."""

    def __init__(self, turns: int):
        self.free, self.waiting = turns, deque()

    def ask(self, request: BoundedRequest) -> bool:
        if self.free > 0:
            self.free -= 1
            return True
        self.waiting.append(request)
        return False

    def give_back(self) -> None:
        while self.waiting:
            request = self.waiting.popleft()
            if not request.finished and not request._disconnected:
                request.take_turn()
                return
        self.free += 1


LARGE_BODIES = _LargeBodies(LARGE_BODIES_AT_ONCE)


class BoundedRequest(WebRequest):
    """daphne's request, refusing a body past the limit as it arrives instead of keeping it, and
    reading a large one only in its turn."""

    def __init__(self, *args, **kwargs):
        # Twisted would read a form or multipart body whole into memory, for request.args.
        super().__init__(*args, parsePOSTFormSubmission=False, **kwargs)
        self.body_limit = body_limit_bytes()
        self.body_received = 0
        self.body_refused = False
        self.has_turn = False

    def gotLength(self, length):
        if length is not None and length > self.body_limit:
            super().gotLength(0)
            self._refuse(f"a body of {length} bytes declared")
            return
        super().gotLength(length)
        if length is not None and length > LARGE_BODY_BYTES:
            self.notifyFinish().addBoth(self._turn_over)
            if LARGE_BODIES.ask(self):
                self.has_turn = True
            else:
                self.channel.transport.pauseProducing()

    def take_turn(self) -> None:
        self.has_turn = True
        self.channel.transport.resumeProducing()

    def _turn_over(self, result):
        if self.has_turn:
            self.has_turn = False
            LARGE_BODIES.give_back()
        return None  # a lost connection is no error here

    def handleContentChunk(self, data):
        if self.body_refused:
            return  # dropped: read only so that the client can read the answer
        self.body_received += len(data)
        if self.body_received > self.body_limit:
            self._refuse(f"more than {self.body_limit} bytes sent")
            return
        super().handleContentChunk(data)

    def requestReceived(self, command, path, version):
        if not self.body_refused:
            super().requestReceived(command, path, version)

    def _refuse(self, what: str) -> None:
        self.body_refused = True
        self.content.close()  # what arrived goes (a temporary file, for a large body)
        self.content = io.BytesIO()
        # Twisted sends "100 Continue" after gotLength; the answer has been given already.
        self.requestHeaders.removeHeader(b"Expect")
        self.channel.persistent = False  # the rest of the body is no next request
        client = self.client.host if hasattr(self.client, "host") else "?"
        logger.warning("Refused a request body from %s: %s, past the %s-byte limit", client, what, self.body_limit)
        transport = self.channel.transport
        transport.write(_too_large_response())
        transport.loseWriteConnection()
        from twisted.internet import reactor  # daphne's, installed before the application loads

        reactor.callLater(LINGER_SECONDS, _hang_up, transport)


def _hang_up(transport) -> None:
    if transport.connected:
        transport.abortConnection()


class BoundedHTTPFactory(HTTPFactory):
    def __init__(self, server):
        super().__init__(server)
        server.request_buffer_size = max(server.request_buffer_size, BODY_CHUNK_BYTES)

    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        return protocol


def daphne_install() -> None:
    """Make daphne build its HTTP requests as ``BoundedRequest``. daphne's server names its
    factory class at run time (daphne.server.Server.run), after it has loaded the application."""
    import daphne.server

    daphne.server.HTTPFactory = BoundedHTTPFactory


# ── in ASGI terms ─────────────────────────────────────────────────────────────────────────────


def _content_length(headers) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _send_too_large(send) -> None:
    body = too_large_page(settings.FAULTLINE_REQUEST_MAX_MB)
    await send({"type": "http.response.start", "status": 413, "headers": too_large_headers(body)})
    await send({"type": "http.response.body", "body": body})


class RequestBodyLimit:
    """ASGI middleware: a request whose Content-Length passes the limit is answered 413 without
    its body being read; one whose body, as it is received, passes it is cut off (the
    application is told the client went away, as Django then answers nothing) and answered 413."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = body_limit_bytes()
        declared = _content_length(scope.get("headers", []))
        if declared is not None and declared > limit:
            return await _send_too_large(send)
        received = 0
        refused = False

        async def bounded_receive():
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, bounded_receive, send)
        if refused:
            await _send_too_large(send)
