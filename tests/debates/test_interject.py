"""The interjection form's view: only the owner posts; what they post is checked (length, kind,
addressee, a finished debate) with one clear line; it is rate-limited and escaped like any text."""

import pytest

from debates.models import Debate, Event, Interjection
from debates.services.lifecycle import debate_share

pytestmark = pytest.mark.django_db


def _post(client, debate, **data):
    return client.post(f"/debates/{debate.id}/interject/", {"kind": "question", **data})


def test_the_owner_posts_an_interjection_addressed_to_one_persona(owner_client, debate, log, personas):
    log.start()

    response = _post(owner_client, debate, text="Ada, what would change your mind?", to="Ada Hardmoney")

    assert response.status_code == 302
    interjection = Interjection.objects.get(debate=debate)
    assert interjection.to_persona == personas[0] and interjection.kind == "question"
    event = Event.objects.get(debate=debate, kind="interjection_posted")
    assert interjection.seq == event.seq and event.payload["to_name"] == "Ada Hardmoney"
    page = owner_client.get(f"/debates/{debate.id}/").content.decode()
    assert f'id="interjection-{interjection.id}"' in page and "what would change your mind?" in page
    assert 'id="interjection-form"' in page


def test_an_at_name_in_the_text_addresses_it(owner_client, debate, log, personas):
    log.start()

    _post(owner_client, debate, text="@Bram, show me the liquidity data.", kind="challenge")

    interjection = Interjection.objects.get(debate=debate)
    assert interjection.to_persona == personas[1] and interjection.text == "show me the liquidity data."


def test_another_user_and_a_share_link_viewer_get_404(client, other_user, debate, log):
    log.start()
    debate_share(debate=debate)
    debate.refresh_from_db()

    assert _post(client, debate, text="Anonymous, with the link").status_code == 404
    assert 'id="interjection-form"' not in client.get(f"/shared/{debate.share_token}/").content.decode()
    client.force_login(other_user)
    assert _post(client, debate, text="Not my debate").status_code == 404
    assert not Interjection.objects.exists()


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"text": "   "}, "Type what you want to say to the debate."),
        ({"text": "x" * 1001}, "Keep an interjection to 1000 characters or fewer."),
        ({"text": "Hello", "to": "Nobody Here"}, "Select a valid choice."),
        ({"text": "Hello", "kind": "shout"}, "Select a valid choice."),
        ({"text": "See this", "link": "javascript:alert(1)", "kind": "evidence"}, "must be a web address"),
        ({"text": "See this", "link": "https://example.org/report"}, "goes with evidence"),
    ],
)
def test_bad_input_gets_one_clear_line_and_posts_nothing(owner_client, debate, log, data, error):
    log.start()

    response = _post(owner_client, debate, **data)

    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Interjection.objects.exists()


def test_a_finished_debate_refuses_with_a_clear_message(owner_client, debate, log):
    log.start().complete()
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.COMPLETED)

    response = _post(owner_client, debate, text="One more thing")

    assert response.status_code == 400
    assert "This debate has finished; it takes no more interjections." in response.content.decode()
    assert 'id="interjection-form"' not in owner_client.get(f"/debates/{debate.id}/").content.decode()


def test_it_is_rate_limited(owner_client, debate, log, settings):
    settings.FAULTLINE_INTERJECTION_RATE = "2/m"
    log.start()

    codes = [_post(owner_client, debate, text=f"Point {n}").status_code for n in range(3)]

    assert codes == [302, 302, 429]
    assert Interjection.objects.count() == 2


def test_its_text_is_escaped_and_an_htmx_post_gets_the_form_back(owner_client, debate, log):
    log.start()

    response = owner_client.post(
        f"/debates/{debate.id}/interject/",
        {"kind": "evidence", "text": '<script>alert("x")</script> the data', "link": "https://example.org/a?b=1"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200 and 'id="interjection-form"' in response.content.decode()
    assert Interjection.objects.get(debate=debate).link == "https://example.org/a?b=1"
    page = owner_client.get(f"/debates/{debate.id}/").content.decode()
    assert '<script>alert("x")</script>' not in page and "&lt;script&gt;" in page


def test_evidence_may_be_one_of_the_owners_project_documents_and_no_one_elses(
    owner_client, debate, log, user, other_user
):
    from debates.services.interjections import interjection_prompt
    from projects.models import Document, Project

    log.start()
    mine = Project.objects.create(owner=user, name="Gold research")
    theirs = Project.objects.create(owner=other_user, name="Secret")
    report = Document.objects.create(
        project=mine,
        title="Real gold prices",
        kind="md",
        filename="gold.md",
        size=40,
        text="Gold fell 60% in real terms.",
    )
    hidden = Document.objects.create(
        project=theirs, title="Not yours", kind="md", filename="x.md", size=10, text="Private."
    )

    refused = _post(owner_client, debate, kind="evidence", text="See this", document=str(hidden.pk))
    posted = _post(owner_client, debate, kind="evidence", text="See my notes", document=str(report.pk))

    assert refused.status_code == 400 and "Select a valid choice." in refused.content.decode()
    assert posted.status_code == 302
    interjection = Interjection.objects.get(debate=debate)
    assert interjection.document == report and interjection.document_title == "Real gold prices"
    prompt = interjection_prompt(interjection)
    assert "Gold fell 60% in real terms." in prompt and "Private." not in prompt
