"""The child process a worker reads an upload in stops at each of its limits and says which, keeps
a library's printing out of its answer, passes the reader's own refusal through, and sees none
of the site's secrets."""

import pytest

from gateways.untrusted import ReadLimits, UntrustedRefused, untrusted_read
from tests.support.untrusted_targets import Refusal

pytestmark = pytest.mark.slow  # starts a reader process per case

LIMITS = ReadLimits(cpu_seconds=1, memory_mb=512, wall_seconds=15, output_mb=1)
# The stalling reader sleeps for ever: any wall limit stops it, so it gets a short one; the others
# keep 15 s, room for a child to start on a loaded machine.
STALL_LIMITS = ReadLimits(cpu_seconds=1, memory_mb=512, wall_seconds=2, output_mb=1)
TARGETS = "tests.support.untrusted_targets"


@pytest.mark.parametrize(
    ("target", "kwargs", "cause", "line"),
    [
        ("burn_cpu", {}, "cpu", "“f.pdf” took more than 1 s of processor time to read (the limit); refused."),
        ("hog_memory", {}, "memory", "“f.pdf” needed more than 512 MB of memory to read (the limit); refused."),
        ("stall", {"limits": STALL_LIMITS}, "time", "“f.pdf” was still being read after 2 s (the limit); refused."),
        ("shout", {"size": 2 * 1024 * 1024}, "output", "“f.pdf” gave more than 1 MB of text (the limit); refused."),
        ("refuse", {}, "reader", "“notes.pdf” is not a PDF Faultline can read (PdfStreamError)."),
        ("no_such_reader", {}, "crash", "“f.pdf” could not be read (the reader stopped unexpectedly); refused."),
    ],
)
def test_a_reader_that_misbehaves_is_refused_saying_why(target, kwargs, cause, line):
    with pytest.raises(UntrustedRefused) as refused:
        untrusted_read(f"{TARGETS}:{target}", expected=(Refusal,), **{"limits": LIMITS, **kwargs})

    assert refused.value.cause == cause
    assert refused.value.lines_for("f.pdf") == [line]


def test_what_a_library_prints_does_not_spoil_the_answer():
    assert untrusted_read(f"{TARGETS}:chatter", limits=LIMITS) == "the answer"


def test_the_child_sees_none_of_the_sites_secrets(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    monkeypatch.setenv("DATABASE_URL", "postgres://user:password@db/faultline")

    seen = set(untrusted_read(f"{TARGETS}:environment", limits=LIMITS))

    assert "PATH" in seen and not seen & {"ANTHROPIC_API_KEY", "DATABASE_URL", "SECRET_KEY"}
