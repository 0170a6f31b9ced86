"""A collaboration's verdict compares the two revised answers, never the artifact's headings: the
key decisions of the first answers are listed by id (``[D1] Architect: ...``), each revision is
shown them, and a structured call reads, decision by decision and by id, whether the other role's
revision accepts it; the code checks every id it gets back. An Architect who answers "Yes: move
search to OpenSearch this quarter" and a Reviewer who answers "No: tune Postgres first", in both
drafts and both revisions, disagree, whatever the merged artifact's headings say."""

import pytest
from django.core.management import call_command

from debates.exports import debate_markdown
from debates.models import Debate
from debates.regime import verdict_sentence
from debates.selectors import debate_view
from orchestration.run import debate_run
from tests.collaborate.conftest import BRIEF, Reader, user_text

pytestmark = pytest.mark.django_db(transaction=True)

SEARCH_BRIEF = "Should we move product search to OpenSearch this quarter? Write the plan."
QUESTION = "Should product search move to OpenSearch this quarter?"

SPLIT = {
    ("architect", "draft"): """## Answer

**Yes: move search to OpenSearch this quarter.** Postgres full-text search answers the median query
in 40 ms but the 99th percentile in 2.3 s, and every relevance fix needs a migration.

## Plan

1. **Weeks 1-3:** index the catalogue into a three-node OpenSearch cluster, fed from the outbox.
2. **Weeks 4-6:** shadow every search query; compare the top ten results.
3. **Weeks 7-8:** switch reads over behind a flag, Postgres kept as the fallback for a month.
""",
    ("reviewer", "draft"): """## Answer

**No: do not move search this quarter.** The slow queries are the 3% that sort by popularity
across every category, and a covering index plus `pg_trgm` fixes most of them.

## Plan instead

| Step | Effort | Expected p99 |
|---|---|---|
| Covering index for the popularity sort | 2 days | 600 ms |
| `pg_trgm` for typo tolerance | 1 week | unchanged |

Re-measure in six weeks; move only if p99 stays above one second.
""",
    ("architect", "revision"): """## Answer (revised)

**Still yes.** The covering index is worth adding this week, and I will, but it fixes one sort; the
relevance work is what the product team is waiting for.

- **Tuning Postgres first:** not a plan for the quarter, a delay of it.
""",
    ("reviewer", "revision"): """## Answer (revised)

**Still no.** The shadow-traffic step is well designed and I'd want it whatever we choose.

- **A cluster this quarter:** three more nodes to page someone about, for a problem an index may solve.
- **The eight-week switch-over:** it lands in the holiday freeze.
""",
}
# The merged plan a synthesis model writes: tidy, no "Open questions" heading, although they split.
TIDY_ARTIFACT = "# Search: the plan\n\n## Steps\n\n1. Covering index this week.\n2. OpenSearch pilot behind a flag.\n\n## Risks\n\n- Holiday freeze."
SPLIT_READER = Reader(
    decisions={
        "Architect": ["search moves to an OpenSearch cluster this quarter", "eight weeks: index, shadow, switch"],
        "Reviewer": ["keep Postgres and add a covering index and pg_trgm first"],
    },
    question=QUESTION,
    reactions={"Architect": ["rejects", "rejects"], "Reviewer": ["rejects"]},
    sides={"Architect": "YES", "Reviewer": "NO"},
)
AGREEING = Reader(
    decisions={
        "Architect": ["nightly base backups with WAL archiving to object storage"],
        "Reviewer": ["a restore drill every month, timed"],
    },
    reactions={"Architect": ["accepts"], "Reviewer": ["accepts"]},
)
# The agreeing plan still lists questions both roles leave for later, under the heading that used
# to make any collaboration a partial agreement.
DEFERRED = "# Backups\n\n## Plan\n\n- Nightly base backups, WAL to object storage.\n\n## Open questions\n\n- Which bucket region, once legal answers."


def test_a_split_is_a_disagreement_whatever_the_artifacts_headings(collab_api, new_collaboration):
    collab_api(texts=SPLIT, reader=SPLIT_READER, artifact=TIDY_ARTIFACT)
    debate = debate_run(debate_id=new_collaboration(topic=SEARCH_BRIEF).id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    results = debate.results
    assert results["regime"] == "polarized", results["regime_basis"]
    assert [d["outcome"] for d in results["decisions"]] == ["disputed", "disputed", "disputed"]
    assert [(d["id"], d["role"]) for d in results["decisions"]] == [
        ("D1", "Architect"),
        ("D2", "Architect"),
        ("D3", "Reviewer"),
    ]
    assert results["decided_on"] == QUESTION
    assert results["final_sides"] == {"Architect": "YES", "Reviewer": "NO"}
    assert "Open questions" not in results["artifact"]


def test_an_agreement_is_a_consensus_even_when_the_artifact_lists_questions_for_later(collab_api, new_collaboration):
    collab_api(reader=AGREEING, artifact=DEFERRED)
    debate = debate_run(debate_id=new_collaboration().id)

    results = debate.results
    assert results["regime"] == "consensus", results["regime_basis"]
    assert [d["outcome"] for d in results["decisions"]] == ["agreed", "agreed"]


def test_a_decision_its_own_role_withdraws_is_no_split(collab_api, new_collaboration):
    """The Reviewer drops its alternative and takes the Architect's design."""
    collab_api(
        reader=Reader(
            decisions={"Architect": ["events in an outbox table"], "Reviewer": ["Kafka from day one"]},
            reactions={"Architect": ["accepts"], "Reviewer": ["withdrawn"]},
        )
    )
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.results["regime"] == "consensus"
    assert [d["outcome"] for d in debate.results["decisions"]] == ["agreed", "dropped"]


def test_an_accepted_decision_beside_a_disputed_one_is_a_partial_agreement(collab_api, new_collaboration):
    collab_api(
        reader=Reader(
            decisions={
                "Architect": ["sessions in Redis", "API tokens as signed JWTs"],
                "Reviewer": ["opaque API tokens"],
            },
            reactions={"Architect": ["accepts", "rejects"], "Reviewer": ["rejects"]},
        )
    )
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.results["regime"] == "partial"
    assert [d["outcome"] for d in debate.results["decisions"]] == ["agreed", "disputed", "disputed"]


def test_the_review_answers_by_id_and_an_id_nobody_gave_is_refused(collab_api, new_collaboration):
    script = collab_api(
        reader=Reader(
            decisions={"Architect": ["one Postgres table"], "Reviewer": ["rate limits per key"]},
            reactions={"Architect": ["accepts"], "Reviewer": ["accepts"]},
            unknown_id="D9",
            leave_out=("D2",),
        )
    )
    debate = debate_run(debate_id=new_collaboration().id)

    results = debate.results
    assert [(d["id"], d["outcome"]) for d in results["decisions"]] == [("D1", "agreed"), ("D2", "undecided")]
    assert results["regime"] == "partial"  # a decision the review said nothing of is not agreed
    # Both revisions were shown every key decision, by its id, as item lines.
    for body in script.bodies("architect")[1:] + script.bodies("reviewer")[1:]:
        text = user_text(body)
        assert "[D1] Architect: one Postgres table" in text and "[D2] Reviewer: rate limits per key" in text


def test_a_review_that_cannot_be_read_leaves_the_verdict_undetermined(collab_api, new_collaboration):
    collab_api(reader=Reader(fails=True))
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.results["regime"] == "undetermined"
    assert "the two revisions could not be compared" in debate.results["regime_basis"]


def test_a_missing_revision_leaves_the_verdict_undetermined(collab_api, new_collaboration):
    collab_api(fail=["reviewer"])
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.results["regime"] == "undetermined"
    assert "the Reviewer's not recorded" in debate.results["regime_basis"]


def test_a_missing_revision_still_records_what_the_other_revision_did_with_each_decision(collab_api, new_collaboration):
    reader = Reader(reactions={"Architect": ["undecided"], "Reviewer": ["rejects"]})
    collab_api(texts={("reviewer", "revision"): " "}, reader=reader)  # the Reviewer's revision says nothing
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.results["regime"] == "undetermined"
    outcomes = {d["role"]: d["outcome"] for d in debate.results["decisions"]}
    assert outcomes == {"Architect": "undecided", "Reviewer": "disputed"}  # the Architect rejected it


def test_a_stop_before_the_artifact_is_undetermined(collab_api, new_collaboration):
    collab_api()
    debate = new_collaboration()
    Debate.objects.filter(pk=debate.pk).update(stop_requested=True)
    debate = debate_run(debate_id=debate.id)

    assert debate.results["status"] == "stopped" and debate.results["regime"] == "undetermined"


def test_the_cli_the_export_and_the_results_page_say_the_one_sentence(
    collab_api, new_collaboration, user, owner_client, capsys
):
    collab_api(texts=SPLIT, reader=SPLIT_READER, artifact=TIDY_ARTIFACT)
    call_command("rundebate", "--mode", "collaborate", "--topic", SEARCH_BRIEF)
    out = capsys.readouterr().out

    debate = Debate.objects.get()
    sentence = verdict_sentence(results=debate.results, status=debate.status)
    assert sentence.startswith("Polarized")
    assert f"Where it landed: {sentence}" in out and "Regime:" not in out
    assert out.rstrip().endswith(TIDY_ARTIFACT)  # the artifact is still printed last
    markdown = debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    assert f"Where it landed: **{sentence}**" in markdown and "Regime:" not in markdown
    assert "| D1 | Architect | search moves to an OpenSearch cluster this quarter | disputed |" in markdown


def test_the_results_page_lists_the_key_decisions_and_how_each_came_out(
    collab_api, new_collaboration, user, owner_client
):
    collab_api(reader=AGREEING, artifact=DEFERRED)
    debate = debate_run(debate_id=new_collaboration(owner=user, topic=BRIEF).id)

    page = owner_client.get(f"/debates/{debate.id}/results/").content.decode()
    assert '<strong class="verdict-sentence">Consensus: every final answer agrees' in page
    assert "nightly base backups with WAL archiving to object storage" in page
    assert "a restore drill every month, timed" in page
