import pytest

from debates.models import Debate

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(monkeypatch):
    """Record debate_start's calls to the worker instead of queueing real tasks."""
    queued = []
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))
    return queued


def test_it_shows_the_deck_as_cards(owner_client, deck, personas):
    response = owner_client.get("/debates/new/")

    content = response.content.decode()
    assert response.status_code == 200
    for persona in personas:
        assert persona.name in content
        assert persona.tagline in content
    assert content.count('class="persona-card') == len(personas)
    assert 'value="graph"' in content and "Argumentation graph" in content and "coming soon" not in content


def test_it_swaps_the_hand_for_another_deck_keeping_shared_picks(owner_client, deck, personas):
    from tests.factories import DeckFactory

    other = DeckFactory(slug="other", name="Other", personas=personas[2:])

    response = owner_client.get(
        "/debates/new/hand/", {"deck": other.pk, "personas": [personas[0].pk, personas[2].pk]}, HTTP_HX_REQUEST="true"
    )

    content = response.content.decode()
    assert content.startswith('<div id="hand"')
    assert personas[0].name not in content
    assert f'value="{personas[2].pk}" class="visually-hidden" checked' in content
    assert f'value="{personas[3].pk}" class="visually-hidden">' in content


def test_start_creates_the_debate_and_redirects_to_it(owner_client, user, deck, personas, started):
    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [personas[0].pk, personas[1].pk],
            "topic": "  Is gold obsolete?  ",
            "length": "short",
            "mode": "dialogue",
        },
    )

    debate = Debate.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/debates/{debate.id}/"
    assert debate.owner == user
    assert debate.topic == "Is gold obsolete?"
    assert debate.length == "short" and debate.max_turns == 12
    assert debate.deck == deck
    assert list(debate.participants.values_list("persona__name", flat=True)) == ["Ada Hardmoney", "Bram Macro"]
    assert started == [str(debate.id)]


def test_it_rejects_an_empty_topic_and_keeps_the_hand(owner_client, deck, personas, started):
    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [personas[0].pk, personas[2].pk],
            "topic": "   ",
            "length": "long",
            "mode": "dialogue",
        },
    )

    content = response.content.decode()
    assert response.status_code == 200
    assert "Type a topic for the debate." in content
    assert f'value="{personas[0].pk}" class="visually-hidden" checked' in content
    assert f'value="{personas[2].pk}" class="visually-hidden" checked' in content
    assert 'value="long" id="id_length_2" required checked' in content
    assert not Debate.objects.exists() and not started


def test_it_rejects_a_topic_over_500_characters_and_keeps_it(owner_client, deck, personas, started):
    topic = "Why " + "x" * 520

    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [personas[0].pk, personas[1].pk],
            "topic": topic,
            "length": "standard",
            "mode": "dialogue",
        },
    )

    content = response.content.decode()
    assert "Keep the topic to 500 characters or fewer" in content
    assert topic in content
    assert not Debate.objects.exists()


@pytest.mark.parametrize("picked", [1, 7])
def test_it_rejects_a_hand_of_the_wrong_size(owner_client, deck, personas, started, picked):
    from tests.factories import PersonaFactory

    extra = [PersonaFactory() for _ in range(3)]
    deck.personas.add(*extra)
    hand = (personas + extra)[:picked]

    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [p.pk for p in hand],
            "topic": "Will it rain?",
            "length": "standard",
            "mode": "dialogue",
        },
    )

    content = response.content.decode()
    assert f"Pick between 2 and 6 personas (you picked {picked})." in content
    assert "Will it rain?" in content
    assert not Debate.objects.exists()


def test_it_rejects_a_persona_from_another_deck(owner_client, deck, started):
    from tests.factories import PersonaFactory

    outsider = PersonaFactory(name="Outsider")

    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [outsider.pk, deck.personas.first().pk],
            "topic": "T",
            "length": "standard",
            "mode": "dialogue",
        },
    )

    assert "not in this deck" in response.content.decode()
    assert not Debate.objects.exists()


def test_it_rejects_a_mode_without_an_engine(owner_client, deck, personas, started):
    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [personas[0].pk, personas[1].pk],
            "topic": "T",
            "length": "standard",
            "mode": "blitz",
        },
    )

    assert "Pick one of the modes." in response.content.decode()
    assert not Debate.objects.exists()


def test_it_shows_service_errors_next_to_their_field(owner_client, deck, personas, monkeypatch):
    from django.core.exceptions import ValidationError

    from debates.services import lifecycle

    def refuse(**kwargs):
        raise ValidationError({"topic": "The service says no.", "elsewhere": "Something else."})

    monkeypatch.setattr(lifecycle, "debate_start", refuse)

    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [personas[0].pk, personas[1].pk],
            "topic": "Fine topic",
            "length": "standard",
            "mode": "dialogue",
        },
    )

    content = response.content.decode()
    assert 'id="topic-errors"' in content and "The service says no." in content
    assert "Something else." in content
    assert "Fine topic" in content


def test_the_owner_can_opt_a_debate_without_context_into_recalling_all_their_insights(
    owner_client, deck, personas, started
):
    page = owner_client.get("/debates/new/").content.decode()
    assert 'name="recall_all_insights"' in page and "With no context, recall insights from all my debates" in page
    base = {"deck": deck.pk, "personas": [personas[0].pk, personas[1].pk], "length": "short", "mode": "dialogue"}

    owner_client.post("/debates/new/", {**base, "topic": "Is gold obsolete?"})
    owner_client.post("/debates/new/", {**base, "topic": "Is silver obsolete?", "recall_all_insights": "on"})

    assert dict(Debate.objects.values_list("topic", "recall_all_insights")) == {
        "Is gold obsolete?": False,
        "Is silver obsolete?": True,
    }
