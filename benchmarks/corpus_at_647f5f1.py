"""The truth corpus played against commit 647f5f1 (the code before issue 39), to record its figures
beside today's (benchmarks/README.md, "Truth corpus").

    git worktree add --detach /tmp/ac-base 647f5f1
    .venv/bin/python benchmarks/corpus_at_647f5f1.py [--base /tmp/ac-base] [--corpus DIR] [--json out.json]
    FAULTLINE_STATE_DIR=/tmp/ac-base/.faultline .venv/bin/python -m faultline stop
    git worktree remove --force /tmp/ac-base

A measuring tool, never part of the app. It copies into the base checkout what 647f5f1 lacks to play
the corpus, all of it evaluation or development code and none of it the app's: the corpus loader
(evaluation/corpus/loader.py; the scenarios are read from ``--corpus``, by default this branch's
visible ones, so nothing held out is copied), the runner's modules (orchestration/evaluation/
corpus_*.py) and devtools/prompt_reading.py. It refuses to overwrite a file 647f5f1 tracks. Then it
runs itself again inside the base checkout (``--inside``), with that checkout first on the import
path and its own state directory (the embedded PostgreSQL and Redis), so the app measured, its
orchestrator, prompts, schemas, ledgers, verdicts and pages, is 647f5f1's.

647f5f1 predates the call tags and the data lines (its calls say only role, phase and persona; its
prompts write their data in their own words), so this adapter does what a scripted model of that
time did: it reads the prompt's wording (``LegacyReading``: the landmarks 647f5f1's own truth script
read, such as "LATEST MESSAGES", "The Analyst's answer (round n):", "THE MAP NOW") into the same
reading the runner's speakers and reader get today: transcript lines, item lines and the call's
round, turn, turns, room and attempt (a round counted per role, a turn counted per channel, the
voice guard's second draft known by its note). The reader answers 647f5f1's schemas as they were
(the Analyst/Critic assessment as the agreed, disagreed and unverifiable lists: corpus_reader.py).
One helper 647f5f1 has not is given to the runner in the process, not in the base's files: the CLI
printout (its rundebate's own ``_print``) as ``print_debate``. Reports go to benchmarks/reports/
(truth-fake-647f5f1.txt and .json; ``--json`` elsewhere).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

BRANCH = Path(__file__).resolve().parents[1]
COPIED = [
    "evaluation/__init__.py",
    "evaluation/corpus/__init__.py",
    "evaluation/corpus/loader.py",
    "devtools/prompt_reading.py",
    "orchestration/evaluation/corpus_stage.py",
    "orchestration/evaluation/corpus_reader.py",
    "orchestration/evaluation/corpus_script.py",
    "orchestration/evaluation/corpus_metrics.py",
    "orchestration/evaluation/corpus_surfaces.py",
    "orchestration/evaluation/corpus_report.py",
    "orchestration/evaluation/corpus_run.py",
]
SECOND_DRAFT = "Your last draft"  # 647f5f1's voice guard's note (orchestration/speaking.py _second_draft_note)
ROLE_TITLES = ("Analyst", "Critic", "Architect", "Reviewer")


# ── outside: prepare the base checkout and run there ──────────────────────────────────────────


def prepare(base: Path) -> None:
    for relative in COPIED:
        target = base / relative
        tracked = subprocess.run(
            ["git", "-C", str(base), "ls-files", "--error-unmatch", relative], capture_output=True, check=False
        )
        if tracked.returncode == 0:
            raise SystemExit(f"{relative} is part of {base}'s commit: not overwritten")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(BRANCH / relative, target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="/tmp/ac-base", help="a checkout of 647f5f1 (git worktree add)")
    parser.add_argument("--corpus", default=str(BRANCH / "evaluation/corpus/truth"))
    parser.add_argument("--json", default=str(BRANCH / "benchmarks/reports/truth-fake-647f5f1.json"))
    parser.add_argument("--scenario", action="append")
    parser.add_argument("--mode", action="append")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        return inside(args)
    base = Path(args.base).resolve()
    prepare(base)
    env = {
        **os.environ,
        "FAULTLINE_STATE_DIR": str(base / ".faultline"),
        "DJANGO_SETTINGS_MODULE": "faultline.settings",
    }
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--inside",
        f"--base={base}",
        f"--json={Path(args.json).resolve()}",
    ]
    command += [f"--corpus={Path(args.corpus).resolve()}"]
    command += [f"--scenario={name}" for name in args.scenario or []]
    command += [f"--mode={mode}" for mode in args.mode or []]
    done = subprocess.run(command, cwd=base, env=env, check=False)
    sys.exit(done.returncode)


# ── inside: 647f5f1's app, the runner, and this reading of its prompts ────────────────────────


def inside(args) -> None:
    base = Path(args.base)
    sys.path.insert(0, str(base))  # before the branch's editable install: the app is the base's
    os.chdir(base)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    _shim_print_debate()
    from orchestration.evaluation import corpus_report, corpus_run, corpus_script

    def respond(script, body: dict, call):
        reading = LegacyReading.of(script, body, call)
        reply = script.answer(reading)
        if call.role == "persona" and reading.call.room is None and reply.text == corpus_script.PASS:
            script.legacy.main_turns -= 1  # a pass is no message: the next turn has the number
        return reply

    corpus_script.CorpusScript.respond = respond
    report = corpus_run.corpus_evaluate(root=Path(args.corpus), only=args.scenario, modes=args.mode, progress=_progress)
    report["commit"] = subprocess.run(
        ["git", "-C", str(base), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    report["created"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    text = corpus_report.corpus_report_text(report)
    out.with_suffix(".txt").write_text(text, encoding="utf-8")
    print(text)
    print(f"Report: {out} and {out.with_suffix('.txt')}")


def _progress(record: dict) -> None:
    print(f"  {record['scenario']}: {record['status']}, reported {record['verdict'] or '–'}", file=sys.stderr)


def _shim_print_debate() -> None:
    """rundebate's printout as one function, as today's app has it (orchestration.modes.printing)."""
    import io

    from orchestration.management.commands.rundebate import Command
    from orchestration.modes import printing

    if hasattr(printing, "print_debate"):
        return

    def print_debate(debate, write) -> None:
        out = io.StringIO()
        Command(stdout=out)._print(debate)
        for line in out.getvalue().splitlines():
            write(line)

    printing.print_debate = print_debate


@dataclass(frozen=True)
class FullCall:
    """What today's call tag says, rebuilt for a call of 647f5f1's."""

    role: str = ""
    phase: str = ""
    persona: str = ""
    debate: str = ""
    addressee: str = ""
    round: int | None = None
    aspect: int | None = None
    room: int | None = None
    turn: int | None = None
    turns: tuple[int, ...] = ()
    participants: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    attempt: int = 1


class LegacyState:
    """Per scenario: what 647f5f1's calls do not say and this reading counts."""

    def __init__(self) -> None:
        self.rounds: Counter = Counter()  # the Analyst/Critic role's first attempts so far
        self.main_turns = 0  # main-channel messages said so far
        self.rooms: dict[str, int] = {}  # a room's question -> a room number
        self.room_turns: Counter = Counter()


class LegacyReading:
    """A 647f5f1 request as today's reading: title, call, transcript lines, item lines."""

    def __init__(self, body: dict, call: FullCall, said: list, items: dict, names: dict[str, str]) -> None:
        self.body, self.call, self.said, self.items = body, call, said, items
        self._names = names
        from devtools.prompt_reading import schema_title

        self.title = schema_title(body)

    def name_of(self, persona_id: str) -> str:
        return self._names.get(persona_id, "")

    @classmethod
    def of(cls, script, body: dict, old) -> LegacyReading:
        from devtools.fake_messages_api import message_text, system_text
        from devtools.prompt_reading import Item, Said, schema_title

        state = script.__dict__.setdefault("legacy", LegacyState())
        names = list(script.s.names()) + list(ROLE_TITLES)
        ids = {name: pid for pid, name in script.stage.personas.items()}
        first = next((m for m in body.get("messages", []) if m.get("role") == "user"), {})
        user = message_text(first.get("content"))
        attempt = 2 if SECOND_DRAFT in system_text(body) else 1
        base = {"role": old.role, "phase": old.phase, "persona": old.persona, "debate": old.debate, "attempt": attempt}
        title = schema_title(body)
        said, items, extra = [], {}, {}
        if title == "AgreementAssessment":
            found = re.search(
                r"The Analyst's answer \(round (\d+)\):\n(.*?)\n\nThe Critic's evaluation \(round \d+\):\n(.*)\Z",
                user,
                re.S,
            )
            if found:
                number = int(found[1])
                said = [Said(2 * number - 1, "Analyst", found[2]), Said(2 * number, "Critic", found[3])]
                extra = {"round": number, "turns": (2 * number - 1, 2 * number)}
            ledger = _section(user, "Point ledger so far:")
            for index, (tags, text) in enumerate(re.findall(r"^- \[([^\]]*)\] (.+)$", ledger, re.M), 1):
                items[f"P{index}"] = Item(f"P{index}", f"({tags}) {text}")
        elif title in ("LedgerDigest", "WindowDigest", "DisagreementScan"):
            said = _labelled(_after(user, "LATEST MESSAGES\n"), names) or _unlabelled(
                _after(user, "LATEST MESSAGES\n"), names
            )
            asked = tuple(int(n) for n in re.findall(r"\[turn (\d+)\] \(", user))
            for key, text in re.findall(r"^\[(\d+)\] (.+)$", _section(user, "KNOWN DISPUTES"), re.M):
                items[key] = Item(key, text)
            extra = {"turns": asked, "items": tuple(items)}
        elif title in ("CruxExitCheck", "CruxCardDraft"):
            question = re.search(r'(?:Disagreement|opened the room): "(.+)"', user)
            question = question[1] if question else ""
            items["room"] = Item("room", question)
            said = _unlabelled(_after(user, "CONVERSATION\n") if "CONVERSATION\n" in user else user, names)
            people = re.search(r"^People: (.+)$", user, re.M)
            two = [name.strip() for name in people[1].split(", ")] if people else []
            extra = {"room": state.rooms.setdefault(question, len(state.rooms) + 1), "items": ("room",),
                     "participants": tuple(ids.get(name, name) for name in two)}  # fmt: skip
        elif title == "Crystallization":
            said = _labelled(user, names)
            fresh = tuple(line.turn for line in _labelled(_after(user, "NEW TURNS\n"), names))
            items = _map_items(_section(user, "THE MAP NOW"))
            extra = {"turns": fresh}
        elif title:
            said = _labelled(user, names) or _unlabelled(user, names)
        else:
            extra = cls._speaking(state, old, user, attempt, items)
        call = FullCall(**base, **extra)
        return cls(body, call, said, items, script.stage.personas)

    @staticmethod
    def _speaking(state: LegacyState, old, user: str, attempt: int, items: dict) -> dict:
        from devtools.prompt_reading import Item

        if old.role in ("analyst", "critic"):
            if attempt == 1:
                state.rounds[old.role] += 1
            number = max(1, state.rounds[old.role])
            return {"round": number, "turn": 2 * number - (1 if old.role == "analyst" else 0)}
        if old.phase.startswith("crux_room"):
            question = re.search(r'get to the bottom of: "(.+)"', user)
            question = question[1] if question else ""
            items["room"] = Item("room", question)
            room = state.rooms.setdefault(question, len(state.rooms) + 1)
            if attempt == 1:
                state.room_turns[room] += 1
            return {"room": room, "items": ("room",), "turn": state.room_turns[room]}
        if old.role == "persona":
            if attempt == 1:
                state.main_turns += 1  # a pass takes no turn: given back below when the script passes
            return {"turn": state.main_turns}
        return {}


def _after(text: str, header: str) -> str:
    return text.split(header, 1)[1] if header in text else ""


def _section(text: str, header: str) -> str:
    return _after(text, header + "\n").split("\n\n", 1)[0]


def _labelled(text: str, names: list[str]) -> list:
    """ "[turn N] Name: text" lines, a line after one that is not labelled belonging to it."""
    from devtools.prompt_reading import Said

    ordered = sorted(names, key=len, reverse=True)
    found: list[list] = []
    for line in text.split("\n"):
        match = re.match(r"^\[turn (\d+)\] (.*)$", line)
        speaker = next((n for n in ordered if match and match[2].startswith(f"{n}: ")), None)
        if match and speaker:
            found.append([int(match[1]), speaker, match[2][len(speaker) + 2 :]])
        elif found and line.strip() and not line.isupper():
            found[-1][2] += "\n" + line
        elif found and not line.strip():
            found.append(None)  # a blank line ends a message: what follows is the prompt's
    return [Said(*entry) for entry in found if entry is not None]


def _unlabelled(text: str, names: list[str]) -> list:
    """ "Name: text" lines, numbered in order."""
    from devtools.prompt_reading import Said

    ordered = sorted(names, key=len, reverse=True)
    found: list[list] = []
    for line in text.split("\n"):
        speaker = next((n for n in ordered if line.startswith(f"{n}: ")), None)
        if speaker:
            found.append([len(found) + 1, speaker, line[len(speaker) + 2 :]])
        elif found and line.strip():
            found[-1][2] += "\n" + line
    return [Said(*entry) for entry in found]


def _map_items(text: str) -> dict:
    """647f5f1's map ("D1 [type] question", "  S1 YES — Holder: claim [label]", "    R1 supports S1 —
    Holder: text [label]") as today's item lines."""
    from devtools.prompt_reading import Item

    items, dispute, stance = {}, None, None
    for line in text.split("\n"):
        if match := re.match(r"^(D\d+) \[(\w+)\] (.+)$", line):
            dispute = match[1]
            items[dispute] = Item(dispute, f"({match[2]}) {match[3]}")
        elif match := re.match(r"^  (S\d+) (YES|NO) — ([^:]+): (.*?) \[[^\]]*\]$", line):
            stance = match[1]
            items[stance] = Item(stance, f"{match[3]}: {match[2]} — {match[4]}", depth=1, parent=dispute)
        elif match := re.match(r"^    (R\d+) (\w+) (S\d+) — ([^:]+): (.*?) \[[^\]]*\]", line):
            items[match[1]] = Item(match[1], f"{match[4]}: {match[2]} {match[3]} — {match[5]}", depth=2, parent=stance)
    return items


if __name__ == "__main__":
    main()
