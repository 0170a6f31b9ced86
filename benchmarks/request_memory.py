"""The web process's resident memory before and after many large request bodies at once.

Starts one daphne as the launcher does (ops/launcher.py daphne_command), measures its resident
memory once it answers, sends PARALLEL POSTs of BODY_MB each at once (a multipart file under the
FAULTLINE_REQUEST_MAX_MB limit, as a persona's corpus upload is), waits for every answer, lets it
settle, and measures again. Target: within 50 MB of where it started.

    .venv/bin/python benchmarks/request_memory.py [--parallel 16] [--body-mb 50] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ops.launcher import daphne_command  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def resident_mb(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / 2**20


def post_body(url: str, body_mb: int) -> int:
    boundary = "faultline-benchmark"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="corpus.txt"\r\n'
        "Content-Type: text/plain\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    chunk = b"word " * 200_000  # 1 MB

    def body():
        yield head
        for _ in range(body_mb):
            yield chunk
        yield tail

    length = len(head) + body_mb * len(chunk) + len(tail)
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(length)}
    return httpx.post(url, content=body(), headers=headers, timeout=300).status_code


def settle(pid: int, seconds: float = 5.0) -> float:
    time.sleep(seconds)
    return resident_mb(pid)


def measure(*, parallel: int, body_mb: int, rounds: int, env: dict | None = None) -> dict:
    port = free_port()
    web = subprocess.Popen(
        daphne_command(host="127.0.0.1", port=port),
        cwd=ROOT,
        env=env or os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/accounts/login/"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(url, timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if web.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the web process did not start")
            time.sleep(0.3)
        for _ in range(3):  # warm: the pages it will answer are rendered once
            httpx.post(url, data={"username": "x"}, timeout=30)
        before = settle(web.pid)
        peaks, afters, statuses = [], [], []
        for _ in range(rounds):
            with ThreadPoolExecutor(parallel) as pool:
                futures = [pool.submit(post_body, url, body_mb) for _ in range(parallel)]
                peak = 0.0
                while not all(future.done() for future in futures):
                    peak = max(peak, resident_mb(web.pid))
                    time.sleep(0.05)
                statuses += [future.result() for future in futures]
            peaks.append(peak)
            afters.append(settle(web.pid))
        return {"before": before, "peaks": peaks, "afters": afters, "statuses": sorted(set(statuses))}
    finally:
        web.terminate()
        web.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parallel", type=int, default=16)
    parser.add_argument("--body-mb", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    figures = measure(parallel=args.parallel, body_mb=args.body_mb, rounds=args.rounds)
    print(
        f"{args.parallel} x {args.body_mb} MB, {args.rounds} rounds: resident {figures['before']:.0f} MB before, "
        f"peaks {', '.join(f'{peak:.0f}' for peak in figures['peaks'])} MB, "
        f"after {', '.join(f'{after:.0f}' for after in figures['afters'])} MB; answers {figures['statuses']}"
    )
    return 0 if max(figures["afters"]) - figures["before"] <= 50 else 1


if __name__ == "__main__":
    sys.exit(main())
