"""How long rendering a stored text as Markdown can take (projects/markdown.py render_markdown).

Hostile texts (2.4 MB of `[`, and each pattern that makes markdown-it-py or nh3 slow) at 2.4 MB
and just under the size limit, and a 200 KB real-world Markdown note (this repository's own
documentation, repeated). Prints, per text, the CPU and wall seconds and whether it came out as
Markdown or as plain text under the notice. Target: every text under 1 s, the real note as Markdown.

    .venv/bin/python benchmarks/markdown_budget.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from projects.markdown import MARKDOWN_MAX_CHARS, PLAIN_NOTICE, render_markdown  # noqa: E402

PATTERNS = ["[", "*a ", "[a](", "*_", "&#", "`", "a\n", "[[", "> ", "- ", "*a **a ", "<", "![", "[a]: ", "~~", "&"]
PATTERNS += ["a\n\n", "| a |\n|---|\n", "```\n" + "&" * 1000 + "\n", "<a " * 3 + "\n", "\\" + "*", " *a* " * 3]


def real_note(size: int) -> str:
    sources = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]
    text = "\n\n".join(path.read_text() for path in sources)
    return (text * (size // len(text) + 1))[:size]


def measure(label: str, text: str) -> float:
    wall, cpu = time.perf_counter(), time.thread_time()
    html = render_markdown(text)
    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    shown = "plain text" if PLAIN_NOTICE in html[:300] else "Markdown"
    print(f"{label:<34} {len(text):>9,} chars  cpu {cpu:6.3f} s  wall {wall:6.3f} s  {shown}")
    return wall


def main() -> int:
    worst = 0.0
    for pattern in PATTERNS:
        for size in (2_400_000, MARKDOWN_MAX_CHARS - 1):
            worst = max(worst, measure(repr(pattern)[:30], (pattern * (size // len(pattern) + 1))[:size]))
    note = real_note(200_000)
    real = measure("200 KB of real Markdown", note)
    formatted = PLAIN_NOTICE not in render_markdown(note)[:300]
    print(f"\nslowest hostile text: {worst:.3f} s wall; real note: {real:.3f} s, as Markdown: {formatted}")
    return 0 if worst < 1 and formatted else 1


if __name__ == "__main__":
    sys.exit(main())
