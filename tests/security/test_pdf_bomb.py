"""A PDF built to burn processor time (pages sharing one Flate content stream of hundreds of
thousands of text operators: a few KB to upload, minutes to read) never ties up the web process:
the request only keeps the file, and the worker reads it in a child process that is stopped at
its CPU limit. The document is refused saying which limit, and the site answers all along."""

import threading
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from projects.models import Document, Project
from projects.tasks import read_document
from tests.support.documents import pdf_cpu_bomb

pytestmark = pytest.mark.django_db

CPU_LIMIT = 1
# Starting the child (Python, pypdf) and reporting back, on a busy shared machine; reading the
# whole file takes about a minute there.
OVERHEAD = 15


@pytest.fixture
def bomb():
    data = pdf_cpu_bomb(pages=10, operators=200_000)  # about a minute of CPU time to read whole
    assert len(data) < 20_000
    return data


def _health_while(reading: threading.Event, latencies: list[float]) -> None:
    client = Client()
    try:
        while not reading.is_set():
            started = time.monotonic()
            response = client.get("/healthz")
            latencies.append(time.monotonic() - started)
            assert response.status_code in (200, 503)  # answered (503: no worker in this test)
            time.sleep(0.1)
    finally:
        connection.close()


def test_a_pdf_cpu_bomb_is_refused_at_the_cpu_limit_while_the_site_answers(client, user, bomb, settings):
    settings.FAULTLINE_READ_CPU_SECONDS = CPU_LIMIT
    client.force_login(user)
    project = Project.objects.create(owner=user, name="Reading list")
    # The worker's ping in /healthz waits for replies; none come here, so it is timed on its own.
    started = time.monotonic()
    Client().get("/healthz")
    healthz_alone = time.monotonic() - started

    started = time.monotonic()
    response = client.post(reverse("document_new", args=[project.pk]), {"file": SimpleUploadedFile("slides.pdf", bomb)})
    assert response.status_code == 302
    assert time.monotonic() - started < 1, "the web request parsed the PDF"
    document = Document.objects.get()
    assert document.status == "reading"
    assert "reading…" in client.get(reverse("project_detail", args=[project.pk])).content.decode()

    done, latencies = threading.Event(), []
    health = threading.Thread(target=_health_while, args=(done, latencies))
    health.start()
    started = time.monotonic()
    try:
        read_document(document.pk)  # what the worker runs
    finally:
        done.set()
        health.join()
    reading = time.monotonic() - started

    document.refresh_from_db()
    assert document.status == "refused"
    assert document.refusal == "“slides.pdf” took more than 1 s of processor time to read (the limit); refused."
    assert document.upload is None and document.text == ""
    assert reading < CPU_LIMIT + OVERHEAD
    assert latencies and max(latencies) < healthz_alone + 1
    page = client.get(reverse("project_detail", args=[project.pk])).content.decode()
    assert "not read: “slides.pdf” took more than 1 s of processor time to read" in page
