"""A persona built from its own corpus quotes it in debates: its context offers the passages
relevant to the exchange, and a turn that leans on one records the citation on the message, in
the evidence ledger and under the message on the page. A tag it was not given counts for nothing."""

import json

import pytest
from django.core.management import call_command

from debates import fragments
from debates.blackboard.models import PositionState
from debates.models import Debate, Message
from debates.snapshot import debate_live_view
from devtools.fake_messages_api import user_text
from devtools.scripted_debate import DebateScript
from orchestration import prompts as words
from personas.corpus.models import CorpusChunk
from personas.corpus.sources import corpus_files_from_uploads
from personas.corpus.store import replace_corpus
from tests.orchestrator.conftest import make_persona
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)

ESSAY = (
    "Gold pays no yield, and that is its point. It cannot default, because it is nobody's liability. "
    "A saver who holds <b>gold</b> & bonds knows which one a government can inflate away.\n\n"
    "Inflation is a tax nobody voted for. It falls hardest on the people who hold cash."
)


class CitingScript(DebateScript):
    """Personas cite the first passage they are offered, and a tag they never were."""

    def _persona_turn(self, reading) -> str:
        text = super()._persona_turn(reading)
        if self.offers_own_writing(reading):
            return f"{text} Gold cannot be printed away, as I have written [C1]. Nor can this [C9]."
        return text


@pytest.fixture
def citing_api(settings):
    script = CitingScript(dispute="none")
    with fake_messages_apis(settings, retries=2, offline_embeddings=True) as serve:
        yield serve(script.respond)


def persona_contexts(trace, persona_id) -> list[str]:
    calls = [json.loads(line) for line in trace.read_text().splitlines()]
    return [user_text(call) for call in calls if call["role"] == "persona" and call["persona"] == persona_id]


def test_a_turn_that_leans_on_its_corpus_records_the_citation(citing_api, tmp_path):
    ada = make_persona("Ada Essayist")
    make_persona("Bram Macro")
    replace_corpus(persona=ada, files=corpus_files_from_uploads([("gold.txt", ESSAY.encode())]))
    trace = tmp_path / "trace.jsonl"

    call_command(
        "rundebate", "--personas", "Ada Essayist,Bram Macro", "--topic", "Is gold a good store of value?",
        "--max-turns", "4", "--trace", str(trace),
    )  # fmt: skip

    debate = Debate.objects.get()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    offered = words.OWN_WRITING_TITLE  # whatever the wording (the suite rewords it)
    assert all(offered in context for context in persona_contexts(trace, "ada-essayist"))
    assert not any(offered in context for context in persona_contexts(trace, "bram-macro"))

    cited = Message.objects.filter(debate=debate, persona=ada).exclude(citations=[]).order_by("turn")
    assert cited.exists()
    chunk_ids = set(CorpusChunk.objects.filter(persona=ada).values_list("id", flat=True))
    for message in cited:
        assert [c["tag"] for c in message.citations] == ["C1"], "C9 was never offered"
        citation = message.citations[0]
        assert citation["chunk_id"] in chunk_ids and citation["source"] == "gold.txt"
        assert citation["excerpt"] in ESSAY
        assert "[C1]" not in message.text and "[C9]" not in message.text
    assert not Message.objects.filter(debate=debate, persona__name="Bram Macro").exclude(citations=[]).exists()

    evidence = PositionState.objects.get(debate=debate, persona=ada).evidence
    assert any(e.startswith('their own writing, gold.txt: "') for e in evidence)
    ledger = debate.results["evidence_ledger"]
    assert any(entry["persona"] == "Ada Essayist" and "gold.txt" in entry["evidence"] for entry in ledger)

    message = cited.first()
    html = fragments.message(debate_live_view(debate_id=debate.id).message(message.id))
    assert 'class="msg-citations"' in html and "gold.txt" in html
    assert "&lt;b&gt;gold&lt;/b&gt; &amp; bonds" in html and "<b>gold</b>" not in html


def test_the_markdown_export_lists_a_message_s_citations_neutralised():
    from debates.exports import _message_md
    from debates.state import MessageView

    message = MessageView(
        id=1, persona_id=1, persona_name="Ada", seat=0, kind="reply", turn=1, text="Gold holds.", streaming=False,
        citations=[{"tag": "C1", "chunk_id": 3, "source": "gold.txt", "excerpt": "<b>Gold</b> pays [no] yield."}],
    )  # fmt: skip

    lines = _message_md(message)

    assert "> — C1: “&lt;b&gt;Gold&lt;/b&gt; pays \\[no\\] yield.” (gold.txt)" in lines
