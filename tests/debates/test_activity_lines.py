"""``rundebate``'s lines on stderr while its debate runs: the banner's words (debates/activity.py),
each written once, when it becomes true."""

import re

from debates.cli import ActivityLines
from tests.debates.log_builder import DebateLog


def test_each_step_is_written_once_when_it_becomes_true(debate, personas):
    written = []
    lines = ActivityLines(debate.id, write=written.append)
    log = DebateLog(debate)

    lines.poll()
    assert written == []  # not begun: the command says nothing yet
    log.start().phase("opening").ask(personas[0], kind="opening")
    lines.poll()
    lines.poll()
    message = log.begin(personas[0], kind="opening")
    lines.poll()
    log.finish(message, "Words.")
    log.ask(personas[1], kind="opening")
    lines.poll()

    said = [line.split("] ", 1)[1] for line in written]
    assert said == [
        "Opening statements: Ada Hardmoney is thinking…",
        "Meanwhile the aspects of the question are being planned.",
        "Opening statements: Ada Hardmoney is speaking…",
        "Opening statements: Bram Macro is thinking…",
    ]
    assert all(re.match(r"\[ *\d+ s\] ", line) for line in written)  # the seconds since the command began
