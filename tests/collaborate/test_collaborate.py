"""The Collaborate mode end to end through the real SDK: two roles side by side, each revising on
the other's first answer, one artifact; failures degrade, a dead worker's run resumes."""

from datetime import timedelta

import pytest

from debates.models import Debate, Event, Message
from debates.payloads import EventKind
from devtools.fake_messages_api import Reply
from gateways.llm.models import ModelCall
from orchestration.modes.collaborate import prompts as words
from orchestration.run import debate_run
from tests.collaborate.conftest import (
    ARCHITECT_MODEL,
    ARTIFACT,
    REVIEWER_MODEL,
    SYNTHESIS_MODEL,
    first_answer,
    user_text,
)

pytestmark = pytest.mark.django_db(transaction=True)


def kinds(debate) -> list[tuple[int, str, str]]:
    messages = Message.objects.filter(debate=debate).order_by("turn")
    return list(messages.values_list("turn", "kind", "persona__name"))


def interval(call: ModelCall):
    return call.created_at - timedelta(milliseconds=call.latency_ms), call.created_at


def test_a_collaboration_writes_drafts_revisions_and_one_artifact(collab_api, new_collaboration):
    collab_api()
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.status == Debate.Status.COMPLETED
    assert kinds(debate) == [
        (1, "draft", "Architect"),
        (2, "draft", "Reviewer"),
        (3, "revision", "Architect"),
        (4, "revision", "Reviewer"),
        (5, "artifact", "Architect"),
    ]
    assert all(m.status == Message.Status.COMPLETE for m in Message.objects.filter(debate=debate))
    results = debate.results
    assert results["mode"] == "collaborate" and results["status"] == "artifact"
    assert results["artifact"] == ARTIFACT and results["title"] == "URL shortener design"
    assert results["synthesised"] and results["unanswered"] == []
    phases = [e.payload["phase"] for e in Event.objects.filter(debate=debate, kind=EventKind.PHASE_CHANGED)]
    assert phases == ["drafting", "revising", "artifact"]


def test_the_two_roles_run_at_the_same_time_on_their_two_models(collab_api, new_collaboration):
    collab_api(chunk_delay=0.05)
    debate = debate_run(debate_id=new_collaboration().id)

    calls = ModelCall.objects.filter(debate_id=debate.id, error="", streamed=True)
    assert set(calls.filter(role="architect").values_list("model", flat=True)) == {ARCHITECT_MODEL}
    assert set(calls.filter(role="reviewer").values_list("model", flat=True)) == {REVIEWER_MODEL}
    assert set(calls.filter(role="synthesis").values_list("model", flat=True)) == {SYNTHESIS_MODEL}
    for phase in ("collaborate_draft", "collaborate_revision"):
        architect = calls.get(role="architect", phase=phase)
        reviewer = calls.get(role="reviewer", phase=phase)
        (a_start, a_end), (r_start, r_end) = interval(architect), interval(reviewer)
        overlap = min(a_end, r_end) - max(a_start, r_start)
        # Each call streams for about a second; side by side they overlap for most of it.
        assert overlap > timedelta(milliseconds=0.5 * min(architect.latency_ms, reviewer.latency_ms)), phase
    # The revisions start after both drafts are done, the artifact after both revisions.
    drafts_end = max(interval(c)[1] for c in calls.filter(phase="collaborate_draft"))
    revisions = calls.filter(phase="collaborate_revision")
    assert min(interval(c)[0] for c in revisions) >= drafts_end - timedelta(milliseconds=50)
    artifact = calls.get(phase="collaborate_artifact")
    assert interval(artifact)[0] >= max(interval(c)[1] for c in revisions) - timedelta(milliseconds=50)
    assert debate.results["models"] == {
        "architect": ARCHITECT_MODEL,
        "reviewer": REVIEWER_MODEL,
        "synthesis": SYNTHESIS_MODEL,
    }


def test_each_revision_reads_the_other_roles_first_answer_and_the_artifact_both_revisions(
    collab_api, new_collaboration
):
    script = collab_api()
    debate_run(debate_id=new_collaboration().id)

    architect_revision, reviewer_revision = (
        user_text(body) for body in (script.bodies("architect")[1], script.bodies("reviewer")[1])
    )
    # Both first answers, as transcript lines (orchestration/modes/collaborate/prompts.py).
    for revision in (architect_revision, reviewer_revision):
        assert f"\n[turn 1] Architect: {first_answer('architect')}" in revision
        assert f"\n[turn 2] Reviewer: {first_answer('reviewer')}" in revision
    artifact_prompt = user_text(script.bodies("synthesis")[0])
    assert "\n[turn 3] Architect: ## Architect: Revised answer" in artifact_prompt
    assert "\n[turn 4] Reviewer: ## Reviewer: Revised answer" in artifact_prompt
    assert "First answer" not in artifact_prompt


def test_an_artifact_wrapped_in_a_markdown_fence_is_unwrapped(collab_api, new_collaboration):
    collab_api(artifact=f"Here is the document:\n```markdown\n{ARTIFACT}\n```")
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.results["artifact"] == ARTIFACT


@pytest.mark.parametrize(
    "artifact", [Reply.says("   "), Reply(status=400, error_type="invalid_request_error")], ids=["empty", "failed"]
)
def test_an_artifact_that_cannot_be_written_is_stood_in_for_by_the_two_revised_answers(
    collab_api, new_collaboration, artifact
):
    collab_api(artifact=artifact)
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.status == Debate.Status.COMPLETED
    text = debate.results["artifact"]
    assert text.startswith("# Design a URL shortener") and "could not be written" in text
    assert "## Architect\n\n## Architect: Revised answer" in text and "## Reviewer: Revised answer" in text
    assert not debate.results["synthesised"]


def test_a_role_whose_model_fails_is_noted_and_the_collaboration_goes_on(collab_api, new_collaboration):
    script = collab_api(fail=["reviewer"])
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.status == Debate.Status.COMPLETED
    reviewer = Message.objects.filter(debate=debate, persona__name="Reviewer").order_by("turn")
    assert [(m.text, m.unanswered) for m in reviewer] == [("", Message.Unanswered.CALL_FAILED)] * 2
    assert debate.results["unanswered"] == ["Reviewer first answer", "Reviewer revision"]
    assert f"\n[turn 2] Reviewer: {words.WROTE_NOTHING}\n" in user_text(script.bodies("architect")[1])
    assert debate.results["artifact"] == ARTIFACT
    failed = ModelCall.objects.filter(debate_id=debate.id, role="reviewer").exclude(error="")
    assert failed.count() == 2


def test_a_run_that_follows_a_dead_one_resumes_without_repeating_finished_phases(collab_api, new_collaboration):
    collab_api()
    debate = new_collaboration()
    debate_run(debate_id=debate.id)
    # As if the worker died during the revisions: the Architect's was done, the Reviewer's cut off
    # mid-stream, the artifact never begun.
    Message.objects.filter(debate=debate, turn=5).delete()
    Message.objects.filter(debate=debate, turn=4).update(status=Message.Status.STREAMING, text="## Revi")
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING, results={}, phase="revising")
    before = ModelCall.objects.filter(debate_id=debate.id, streamed=True).count()

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED and debate.results["artifact"] == ARTIFACT
    assert [turn for turn, _, _ in kinds(debate)] == [1, 2, 3, 4, 5]
    again = ModelCall.objects.filter(debate_id=debate.id, streamed=True).order_by("id")[before:]
    assert [(call.role, call.phase) for call in again] == [
        ("reviewer", "collaborate_revision"),
        ("synthesis", "collaborate_artifact"),
    ]
    reviewer_revision = Message.objects.get(debate=debate, turn=4)
    assert reviewer_revision.status == Message.Status.COMPLETE and reviewer_revision.text.startswith("## Reviewer")


def test_a_run_that_follows_one_dead_mid_drafts_says_both_again_into_the_same_messages(collab_api, new_collaboration):
    collab_api()
    debate = new_collaboration()
    debate_run(debate_id=debate.id)
    Message.objects.filter(debate=debate, turn__gt=2).delete()
    Message.objects.filter(debate=debate).update(status=Message.Status.STREAMING, text="## Half")
    ids = set(Message.objects.filter(debate=debate).values_list("id", flat=True))
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING, results={}, phase="drafting")
    before = ModelCall.objects.filter(debate_id=debate.id, streamed=True).count()

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED and debate.results["artifact"] == ARTIFACT
    assert ids <= set(Message.objects.filter(debate=debate, turn__lte=2).values_list("id", flat=True))
    assert [turn for turn, _, _ in kinds(debate)] == [1, 2, 3, 4, 5]
    again = ModelCall.objects.filter(debate_id=debate.id, streamed=True).order_by("id")[before:]
    assert sorted((call.role, call.phase) for call in again) == [
        ("architect", "collaborate_draft"),
        ("architect", "collaborate_revision"),
        ("reviewer", "collaborate_draft"),
        ("reviewer", "collaborate_revision"),
        ("synthesis", "collaborate_artifact"),
    ]


def test_a_stop_asked_for_before_the_artifact_ends_the_run_stopped_without_one(collab_api, new_collaboration):
    collab_api()
    debate = new_collaboration()
    Debate.objects.filter(pk=debate.pk).update(stop_requested=True)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.STOPPED
    assert debate.results["status"] == "stopped" and debate.results["artifact"] == ""
    assert not Message.objects.filter(debate=debate).exists()


def test_an_outage_in_one_role_is_waited_out_and_only_that_answer_said_again(collab_api, new_collaboration, settings):
    collab_api(overloaded_once=["reviewer"])
    settings.FAULTLINE_MODEL_WAIT_SECONDS = 5
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.status == Debate.Status.COMPLETED
    drafts = ModelCall.objects.filter(debate_id=debate.id, phase="collaborate_draft")
    assert drafts.filter(role="architect").count() == 1  # done the first time, not said again
    assert drafts.filter(role="reviewer").count() == 2  # the outage, then the answer
    assert Event.objects.filter(debate=debate, kind=EventKind.MODEL_WAITING).count() == 1
    assert debate.results["unanswered"] == [] and debate.results["artifact"] == ARTIFACT
