"""How the scripted models read a digest call (debates/blackboard/ledger.py, crux/services/detection.py):
as the one-message ledger updates and the window scan it stands for. A scripted model answers a
LedgerDigest or WindowDigest by answering, for each message it is asked about, the prompt that
message alone would have had (its speaker's position state, the messages before it, what they
just said), and for the window the scan's prompt (known disputes, the window's lines); so each
script keeps one way of reading a message and one of reading a window.
"""

from __future__ import annotations

import re

_ASKED = re.compile(r"\[turn (\d+)\] \(([^)\n]+)\)")
_LINE = re.compile(r"^\[turn (\d+)\] (.*)$")
RECENT_BEFORE = 3


def _user(body: dict) -> str:
    return body["messages"][0]["content"]  # a repair request appends turns after it


def _section(user: str, header: str) -> str:
    return user.split(f"{header}\n", 1)[1].split("\n\n", 1)[0] if f"{header}\n" in user else ""


def _participants(user: str) -> list[str]:
    match = re.search(r"^Participants: (.+)$", user, flags=re.M)
    return [name.strip() for name in match.group(1).split(",")] if match else []


def window_lines(body: dict) -> list[tuple[int, str, str]]:
    """(turn, speaker, text) of the digest's LATEST MESSAGES, in order."""
    user = _user(body)
    names = sorted(_participants(user), key=len, reverse=True)
    said: list[tuple[int, str, str]] = []
    for line in user.split("LATEST MESSAGES\n", 1)[-1].splitlines():
        labelled = _LINE.match(line)
        speaker = next((n for n in names if labelled and labelled.group(2).startswith(f"{n}: ")), None)
        if labelled and speaker:
            said.append((int(labelled.group(1)), speaker, labelled.group(2)[len(speaker) + 2 :]))
        elif said:
            turn, speaker, text = said[-1]
            said[-1] = (turn, speaker, f"{text}\n{line}")
    return said


def message_bodies(body: dict) -> list[tuple[int, str, dict]]:
    """(turn, speaker, the one-message ledger prompt) for each message the digest asks about."""
    user = _user(body)
    head = user.split("\n\n", 1)[0]  # the question and the participants
    said = window_lines(body)
    proposals = _section(user, "Open proposals:") or "(none)"
    bodies = []
    for turn, speaker in ((int(t), s.strip()) for t, s in _ASKED.findall(user)):
        at = next((i for i, line in enumerate(said) if line[0] == turn), None)
        if at is None:
            continue
        state = re.search(rf"^{re.escape(speaker)}'s current position state:\n(.*)$", user, flags=re.M)
        challenges = re.search(rf"^Unanswered challenges listed for {re.escape(speaker)}: (.*)$", user, flags=re.M)
        before = "\n".join(f"{s}: {t}" for _, s, t in said[max(0, at - RECENT_BEFORE) : at]) or "(none)"
        legacy = (
            f"{head}\n\n{speaker}'s current position state:\n{state.group(1) if state else '{}'}\n\n"
            f"Unanswered challenges listed for {speaker}: {challenges.group(1) if challenges else '[]'}\n\n"
            f"Open proposals by others:\n{proposals}\n\nRecent messages before it:\n{before}\n\n"
            f'{speaker} just said:\n"{said[at][2]}"'
        )
        bodies.append((turn, speaker, {**body, "messages": [{"role": "user", "content": legacy}]}))
    return bodies


def scan_body(body: dict) -> dict:
    """The window scan's prompt: the participants, the known disputes, the window's "Name: text" lines."""
    user = _user(body)
    lines = "\n".join(f"{speaker}: {text}" for _, speaker, text in window_lines(body))
    known = _section(user, "KNOWN DISPUTES") or "(none yet)"
    scan = f"Participants: {', '.join(_participants(user))}\n\nKNOWN DISPUTES\n{known}\n\nLATEST MESSAGES\n{lines}"
    return {**body, "messages": [{"role": "user", "content": scan}]}


def digest_answer(body: dict, update, scan=None) -> dict:
    """A digest's answer from ``update(one-message body) -> dict`` and, for a WindowDigest,
    ``scan(scan body) -> {"disagreements": [...]}``."""
    answer = {
        "updates": [{**update(one), "turn": turn, "speaker": speaker} for turn, speaker, one in message_bodies(body)]
    }
    if scan is not None:
        answer.update(scan(scan_body(body)))
    return answer
