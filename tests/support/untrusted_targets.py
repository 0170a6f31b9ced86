"""Readers that misbehave in each way a hostile file can make a real one misbehave, for the
limited child process of gateways/untrusted.py to run (it imports them by name)."""

import os
import time


class Refusal(ValueError):
    pass


def burn_cpu() -> None:
    while True:
        pass


def hog_memory() -> int:
    hoard = []
    while True:
        hoard.append(bytearray(64 * 1024 * 1024))


def stall() -> None:
    time.sleep(3600)


def shout(*, size: int) -> str:
    return "x" * size


def chatter() -> str:
    print("a library printing to stdout")  # noqa: T201 (what the child must keep out of its answer)
    os.write(1, b"and writing to fd 1 itself\n")
    return "the answer"


def refuse() -> None:
    raise Refusal("“notes.pdf” is not a PDF Faultline can read (PdfStreamError).")


def environment() -> list[str]:
    return sorted(os.environ)
