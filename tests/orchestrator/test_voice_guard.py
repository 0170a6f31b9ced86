import pytest

from debates.models import Message
from debates.orchestrator import debate_run
from faultline.llm.models import ModelCall
from tests.support.group_recorder import GroupRecorder
from tests.support.scripted_debate import FORBIDDEN_SAMPLE

pytestmark = pytest.mark.django_db(transaction=True)


def test_forbidden_phrases_never_reach_the_page(scripted_api, new_debate):
    _, script = scripted_api(dispute="none", forbidden_first_attempt=True, chunk_size=4)
    debate = new_debate(max_turns=6)

    with GroupRecorder(debate.id) as recorder:
        debate_run(debate_id=debate.id)

    assert recorder.messages, "nothing was pushed to the page"
    assert "great point" not in recorder.html.lower()
    texts = list(Message.objects.filter(debate=debate).values_list("text", flat=True))
    assert texts and not any("great point" in text.lower() for text in texts)
    # Each persona's first draft used the phrase and was generated once more.
    persona_calls = ModelCall.objects.filter(debate=debate, role="persona").count()
    assert persona_calls == len(texts) + 3
    assert FORBIDDEN_SAMPLE in {p for persona in debate.personas.all() for p in persona.forbidden_phrases}


def test_a_phrase_that_survives_the_regeneration_is_cut_out():
    from debates.orchestrator.voice import remove_forbidden

    text = "That’s a great point, Bram. But the data says otherwise. I understand your perspective."

    cleaned = remove_forbidden(text, ["That's a great point", "I understand your perspective"])

    assert cleaned == "Bram. But the data says otherwise."
