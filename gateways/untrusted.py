"""Reading an untrusted file (an uploaded PDF, a corpus, an archive) in a child process that may
use only so much CPU time, memory, wall-clock time and output, so that a hostile file costs at
most those limits and never the web process or a worker's own memory.

    text = untrusted_read("projects.documents:document_text", filename=name, data=data,
                          expected=(DocumentUnreadable,))

The child (``python -m gateways.untrusted``) limits itself with setrlimit before it looks at the
file, calls the target (``module:function``) with the keyword arguments, and writes its result as
JSON. ``UntrustedRefused`` carries one line per problem, fit to show the user: the target's own
message when it raised one of the ``expected`` exceptions (a damaged PDF), or which limit the
file hit. The arguments go to the child pickled (the parent wrote them); what comes back is read
only as JSON, since the child has handled hostile bytes.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import os
import pickle
import resource
import signal
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class ReadLimits:
    cpu_seconds: int = 20
    memory_mb: int = 1024
    wall_seconds: int = 60
    output_mb: int = 64

    @classmethod
    def from_settings(cls) -> ReadLimits:
        from django.conf import settings

        return cls(
            cpu_seconds=settings.FAULTLINE_READ_CPU_SECONDS,
            memory_mb=settings.FAULTLINE_READ_MEMORY_MB,
            wall_seconds=settings.FAULTLINE_READ_WALL_SECONDS,
            output_mb=settings.FAULTLINE_READ_OUTPUT_MB,
        )


class UntrustedRefused(Exception):
    """The file was not read. ``errors``: one line per problem. ``cause``: "reader" when the
    reader refused the file (its lines name the file), else the limit the file hit ("cpu",
    "memory", "time", "output") or "crash" (the reader failed; the operator's log says how)."""

    def __init__(self, errors: list[str] | str, *, cause: str = "reader"):
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        self.cause = cause
        super().__init__("\n".join(self.errors))

    def lines_for(self, filename: str) -> list[str]:
        """What to tell the user: the reader's own lines, or the limit's, naming the file."""
        return self.errors if self.cause == "reader" else [f"“{filename}” {line}." for line in self.errors]


def _limit_reason(limit: str, limits: ReadLimits) -> str:
    return {
        "cpu": f"took more than {limits.cpu_seconds} s of processor time to read (the limit); refused",
        "memory": f"needed more than {limits.memory_mb} MB of memory to read (the limit); refused",
        "time": f"was still being read after {limits.wall_seconds} s (the limit); refused",
        "output": f"gave more than {limits.output_mb} MB of text (the limit); refused",
    }[limit]


_INHERITED = frozenset(["PATH"])  # the system's, not a setting of ours


def _child_env() -> dict[str, str]:
    """Only what Python needs: the child has no business with the site's secrets."""
    inherited = {name: value for name, value in os.environ.items() if name in _INHERITED}
    return {**inherited, "PYTHONPATH": str(_ROOT), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}


def _qualified(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def untrusted_read(
    target: str, *, expected: tuple[type[Exception], ...] = (), limits: ReadLimits | None = None, **kwargs
) -> Any:
    """``target(**kwargs)`` run in a limited child process: its (JSON) result, or UntrustedRefused."""
    limits = limits or ReadLimits.from_settings()
    payload = pickle.dumps(
        {
            "target": target,
            "expected": [_qualified(cls) for cls in expected],
            "limits": asdict(limits),
            "kwargs": kwargs,
        }
    )
    with tempfile.TemporaryFile() as stderr:  # on disk: a chatty reader cannot fill our memory
        process = subprocess.Popen(
            [sys.executable, "-m", "gateways.untrusted"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=_ROOT,
            env=_child_env(),
        )
        try:
            out, _ = process.communicate(payload, timeout=limits.wall_seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise UntrustedRefused(_limit_reason("time", limits), cause="time") from None
        stderr.seek(max(0, stderr.seek(0, os.SEEK_END) - 2000))
        err = stderr.read().decode("utf-8", "replace")
    if process.returncode == -signal.SIGXCPU:
        raise UntrustedRefused(_limit_reason("cpu", limits), cause="cpu")
    if len(out) > limits.output_mb * 1024 * 1024 + 1024:
        raise UntrustedRefused(_limit_reason("output", limits), cause="output")
    try:
        answer = json.loads(out)
    except ValueError:
        # Killed without a word (the kernel's OOM killer, a crash in a C extension): say what we know.
        logger.warning("Untrusted reader %s ended with %s: %s", target, process.returncode, err[-2000:])
        if process.returncode == -signal.SIGKILL:
            raise UntrustedRefused(_limit_reason("memory", limits), cause="memory") from None
        raise UntrustedRefused("could not be read (the reader stopped unexpectedly); refused", cause="crash") from None
    if "result" in answer:
        return answer["result"]
    if answer.get("limit") in ("cpu", "memory", "output"):
        raise UntrustedRefused(_limit_reason(answer["limit"], limits), cause=answer["limit"])
    if answer.get("expected"):
        raise UntrustedRefused(answer["errors"])
    logger.error("Untrusted reader %s failed: %s", target, answer.get("detail", ""))
    raise UntrustedRefused(
        "could not be read (an error in the reader, logged for the operator); refused", cause="crash"
    )


# ── the child ──────────────────────────────────────────────────────────────────────────────────


def _limit_self(limits: ReadLimits) -> None:
    # The CPU limit is on the reading: starting Python and importing the reader are not counted.
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(usage.ru_utime + usage.ru_stime) + limits.cpu_seconds
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    memory = limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _load(qualified: str):
    module, _, name = qualified.partition(":")
    value = importlib.import_module(module)
    for part in name.split("."):
        value = getattr(value, part)
    return value


def _child() -> None:
    payload = pickle.loads(sys.stdin.buffer.read())  # noqa: S301 (written by our own parent)
    limits = ReadLimits(**payload["limits"])
    # The answer goes to the parent on the pipe we were given; anything a library prints goes
    # nowhere, so it cannot corrupt the answer.
    answer_to = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    target = _load(payload["target"])
    expected = tuple(_load(name) for name in payload["expected"])
    _limit_self(limits)
    try:
        answer = {"result": target(**payload["kwargs"])}
    except MemoryError:
        answer = {"limit": "memory"}
    except expected as exc:
        answer = {"expected": True, "errors": list(getattr(exc, "errors", None) or [str(exc)])}
    except Exception as exc:  # reported to the parent, which logs it and refuses the file
        answer = {"detail": f"{type(exc).__name__}: {exc}"[:2000]}
    try:
        out = json.dumps(answer).encode()
    except MemoryError:
        out = b'{"limit": "memory"}'
    if len(out) > limits.output_mb * 1024 * 1024:
        out = b'{"limit": "output"}'
    answer_to.write(out)
    answer_to.flush()


if __name__ == "__main__":
    _child()
