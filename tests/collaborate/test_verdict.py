"""A collaboration's verdict, from the verdict table (debates/regime.py): the two revised answers,
whether the synthesis merged them, and what the artifact leaves open; named by its label on the
results page, in the exports and in the CLI."""

import pytest
from django.core.management import call_command

from debates.exports import debate_markdown
from debates.models import Debate
from debates.selectors import debate_view
from orchestration.run import debate_run
from tests.collaborate.conftest import ARTIFACT, BRIEF

pytestmark = pytest.mark.django_db(transaction=True)

SETTLED = "# URL shortener design\n\n## Storage\n\n- Postgres, base62 keys\n\n## Open questions\n\nNone: they agree."


@pytest.mark.parametrize(
    ("script", "regime"),
    [
        ({}, "partial"),  # the artifact lists one open question
        ({"artifact": SETTLED}, "consensus"),
        ({"artifact": "   "}, "undetermined"),  # empty: the stand-in holds the two answers, nothing merged
        ({"fail": ["reviewer"]}, "partial"),  # the Reviewer never answered, but an open question speaks
        ({"fail": ["reviewer"], "artifact": SETTLED}, "undetermined"),
    ],
    ids=["open question", "nothing open", "stand-in artifact", "reviewer missing, open question", "reviewer missing"],
)
def test_the_verdict_of_a_collaboration(collab_api, new_collaboration, script, regime):
    collab_api(**script)
    debate = debate_run(debate_id=new_collaboration().id)

    assert debate.status == Debate.Status.COMPLETED
    assert debate.results["regime"] == regime


def test_a_stop_before_the_artifact_is_undetermined(collab_api, new_collaboration):
    collab_api()
    debate = new_collaboration()
    Debate.objects.filter(pk=debate.pk).update(stop_requested=True)
    debate = debate_run(debate_id=debate.id)

    assert debate.results["status"] == "stopped" and debate.results["regime"] == "undetermined"
    assert "no artifact (none was written)" in debate.results["regime_basis"]


def test_the_cli_and_the_export_name_the_verdict_by_its_label(collab_api, capsys):
    collab_api()
    call_command("rundebate", "--mode", "collaborate", "--topic", BRIEF)

    out = capsys.readouterr().out
    assert "Regime: Partial agreement" in out and "Regime: partial" not in out
    assert out.rstrip().endswith(ARTIFACT)  # the artifact is still printed last
    debate = Debate.objects.get()
    assert "Regime: **Partial agreement**" in debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))


def test_the_results_page_names_the_verdict_by_its_label(collab_api, new_collaboration, user, owner_client):
    collab_api(artifact=SETTLED)
    debate = debate_run(debate_id=new_collaboration(owner=user).id)

    page = owner_client.get(f"/debates/{debate.id}/results/").content.decode()
    assert '<strong class="verdict-sentence">Consensus: every final answer agrees' in page
