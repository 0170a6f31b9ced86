"""The atlas page, its exports, a card's predictions and a re-run's prefill, on rows built like a
finished debate's, with the offline embedder: a crux worded three ways in three debates is one
crux, an unrelated one stays apart; every URL is the owner's alone (404 for anyone else)."""

import json

import pytest

from atlas.models import Prediction
from memory.models import PersonaMemory
from projects.models import Project
from tests.atlas.builders import debate_with_cards
from tests.factories import DeckFactory, PersonaFactory

pytestmark = pytest.mark.django_db

HASH_RATE = "If hash rate fell for two years straight."


@pytest.fixture
def hand():
    ada, bram, cleo, dan = (PersonaFactory(name=n) for n in ("Ada Hawk", "Bram Dove", "Cleo Quant", "Dan Fourth"))
    deck = DeckFactory(personas=[ada, bram, cleo, dan])
    return ada, bram, cleo, dan, deck


@pytest.fixture
def three_debates(user, hand):
    ada, bram, cleo, _, deck = hand
    project = Project.objects.create(owner=user, name="Money")
    first = debate_with_cards(
        user,
        topic="Will Bitcoin replace gold?",
        personas=[ada, bram],
        deck=deck,
        cards=[("Does scarcity create value?", {ada: "YES", bram: "NO"}, {ada: HASH_RATE}, False)],
    )
    second = debate_with_cards(
        user,
        topic="Are rare sneakers an investment?",
        personas=[ada, cleo],
        deck=deck,
        cards=[("Is an asset valuable because it is rare?", {ada: "YES", cleo: "NO"}, {}, True)],
    )
    third = debate_with_cards(
        user,
        topic="Should a startup buy gold?",
        personas=[bram, cleo],
        deck=deck,
        cards=[
            ("Whether scarcity is what gives an asset its value", {bram: "YES", cleo: "NO"}, {}, False),
            ("Will AI replace most programmers within a decade?", {bram: "NO", cleo: "YES"}, {}, False),
        ],
    )
    from debates.models import Debate

    Debate.objects.filter(pk=third.pk).update(context_type="project", context_project=project)
    return first, second, third, project


def test_a_crux_worded_three_ways_is_one_cluster_of_three_and_an_unrelated_one_stays_apart(client, user, three_debates):
    client.force_login(user)
    page = client.get("/atlas/")
    assert page.status_code == 200
    cruxes = page.context["atlas"].cruxes
    assert [c.record.debates for c in cruxes] == [3, 1]
    recurring, unrelated = cruxes
    assert recurring.record.question == "Does scarcity create value?"
    assert unrelated.record.question.startswith("Will AI replace")
    assert recurring.record.decisive_count == 2 and recurring.record.resolved_count == 1
    assert [str(s) for s in recurring.record.shifts] == ["Bram Dove: NO → YES"]
    html = page.content.decode()
    assert 'id="atlas-grid"' in html and html.count('class="atlas-crux"') == 2


def test_the_search_keeps_the_cruxes_that_hold_every_word(client, user, three_debates):
    client.force_login(user)
    assert [c.record.debates for c in client.get("/atlas/", {"q": "programmers"}).context["atlas"].cruxes] == [1]
    assert client.get("/atlas/", {"q": "sneakers Ada"}).context["atlas"].cruxes[0].record.debates == 3
    assert client.get("/atlas/", {"q": "tulips"}).context["atlas"].cruxes == []


def test_a_projects_atlas_holds_only_that_projects_debates(client, user, three_debates):
    *_, project = three_debates
    client.force_login(user)
    atlas = client.get(f"/projects/{project.pk}/atlas/").context["atlas"]
    assert atlas.cards == 2 and [c.record.debates for c in atlas.cruxes] == [1, 1]


def test_the_exports_say_what_the_page_says(client, user, three_debates):
    client.force_login(user)
    data = json.loads(client.get("/atlas/export.json").content)
    assert [c["debates"] for c in data["cruxes"]] == [3, 1]
    assert data["cruxes"][0]["shifts"] == [{"persona": "Bram Dove", "path": ["NO", "YES"]}]
    markdown = client.get("/atlas/export.md").content.decode()
    assert markdown.startswith("# Crux atlas") and "## Does scarcity create value?" in markdown
    assert client.get("/atlas/export.pdf").status_code == 404


def test_a_checkable_falsifier_becomes_a_prediction_and_its_outcome_reminds_the_persona(
    client, user, three_debates, hand
):
    ada = hand[0]
    card = three_debates[0].crux_cards.get()
    client.force_login(user)
    page = client.get(f"/atlas/cards/{card.pk}/")
    assert "falsifier-checkable" in page.content.decode()
    response = client.post(
        f"/atlas/cards/{card.pk}/", {"persona": ada.pk, "claim": "", "settled_by": "", "check_by": "2027-06-30"}
    )
    assert response.status_code == 302
    prediction = Prediction.objects.get(card=card)
    assert prediction.claim == "Hash rate fell for two years straight" and prediction.source == "falsifier"
    assert str(prediction.check_by) == "2027-06-30"
    reminder = PersonaMemory.objects.get(pk=prediction.reminder_id)
    assert reminder.persona == ada and reminder.owner == user and "still open by 2027-06-30" in reminder.text

    client.post(f"/atlas/predictions/{prediction.pk}/", {"status": "came_true", "outcome_note": "It fell 2025-26."})
    prediction.refresh_from_db()
    assert prediction.status == "came_true" and prediction.decided_at is not None
    reminder.refresh_from_db()
    assert "came true" in reminder.text and "It fell 2025-26." in reminder.text
    assert PersonaMemory.objects.filter(persona=ada, owner=user).count() == 1  # rewritten, not added
    atlas_html = client.get("/atlas/").content.decode()
    assert "prediction-came_true" in atlas_html and "Hash rate fell for two years straight" in atlas_html


def test_a_falsifier_the_rules_cannot_check_is_kept_only_in_the_owners_words(client, user, three_debates, hand):
    ada, bram = hand[0], hand[1]
    debate = debate_with_cards(
        user,
        topic="Gold again",
        personas=[ada, bram],
        cards=[("Is gold money?", {ada: "YES", bram: "NO"}, {bram: "A better argument."}, False)],
    )
    card = debate.crux_cards.get()
    client.force_login(user)
    page = client.post(f"/atlas/cards/{card.pk}/", {"persona": bram.pk, "claim": ""})
    assert page.status_code == 200 and "Write the claim." in page.content.decode()
    assert not Prediction.objects.exists()
    client.post(
        f"/atlas/cards/{card.pk}/",
        {"persona": bram.pk, "claim": "Central banks buy more gold than 1,000 t in 2027", "settled_by": "WGC report"},
    )
    assert Prediction.objects.get().source == "by_hand"


def test_a_rerun_with_a_swap_is_prefilled_on_the_setup_page_and_linked_once_started(client, user, three_debates, hand):
    first = three_debates[0]
    ada, bram, cleo, dan, deck = hand
    type(first).objects.filter(pk=first.pk).update(length="long")  # not the setup page's default
    first.refresh_from_db()
    client.force_login(user)
    response = client.get(f"/debates/{first.pk}/rerun/", {"swap_out": bram.pk, "swap_in": dan.pk, "topic": first.topic})
    assert response.status_code == 302
    setup = client.get(response["Location"])
    form = setup.context["form"]
    assert form["topic"].value() == first.topic and str(form["rerun_of"].value()) == str(first.pk)
    assert form["length"].value() == first.length and form["mode"].value() == first.mode
    checked = {card["persona"].pk for card in setup.context["hand"] if card["checked"]}
    assert checked == {ada.pk, dan.pk}
    started = client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [ada.pk, dan.pk],
            "topic": first.topic,
            "length": "short",
            "mode": "dialogue",
            "rerun_of": str(first.pk),
        },
    )
    assert started.status_code == 302
    from debates.models import Debate

    rerun = Debate.objects.get(rerun_of=first)
    assert set(rerun.participants.values_list("persona_id", flat=True)) == {ada.pk, dan.pk}
    reruns = client.get("/atlas/").context["atlas"].cruxes[0].reruns
    assert [(r.original, r.rerun, r.swapped_out, r.swapped_in) for r in reruns] == [
        (first, rerun, ["Bram Dove"], ["Dan Fourth"])
    ]


def test_another_users_debate_or_a_mangled_id_is_never_linked_as_a_rerun(client, user, other_user, three_debates, hand):
    ada, _, cleo, _, deck = hand
    client.force_login(other_user)
    client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [ada.pk, cleo.pk],
            "topic": "Mine now",
            "length": "short",
            "mode": "dialogue",
            "rerun_of": str(three_debates[0].pk),
        },
    )
    from debates.models import Debate

    assert Debate.objects.get(topic="Mine now").rerun_of is None
    # A mangled link starts the debate all the same, unlinked: a hidden field cannot show an error.
    started = client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [ada.pk, cleo.pk],
            "topic": "Mangled",
            "length": "short",
            "mode": "dialogue",
            "rerun_of": "not-a-debate",
        },
    )
    assert started.status_code == 302 and Debate.objects.get(topic="Mangled").rerun_of is None


def test_another_user_gets_404_on_every_atlas_and_prediction_url(client, user, other_user, three_debates, hand):
    first, _, _, project = three_debates
    card = first.crux_cards.get()
    prediction = Prediction.objects.create(card=card, persona=hand[0], claim="x", settled_by="y")
    client.force_login(other_user)
    for url in [
        f"/projects/{project.pk}/atlas/",
        f"/projects/{project.pk}/atlas/export.md",
        f"/projects/{project.pk}/atlas/export.json",
        f"/atlas/cards/{card.pk}/",
        f"/atlas/predictions/{prediction.pk}/",
        f"/debates/{first.pk}/rerun/",
    ]:
        assert client.get(url).status_code == 404, url
        assert client.post(url, {"status": "did_not", "claim": "z"}).status_code in (404, 405), url
    prediction.refresh_from_db()
    assert prediction.status == "open" and Prediction.objects.count() == 1
    # Their own atlas shows none of it.
    assert client.get("/atlas/").context["atlas"].cards == 0
    assert json.loads(client.get("/atlas/export.json").content)["cruxes"] == []


def test_the_same_hand_on_the_crux_itself_needs_no_swap_but_a_new_topic(client, user, three_debates, hand):
    first = three_debates[0]
    ada, bram = hand[0], hand[1]
    client.force_login(user)
    atlas_html = client.get("/atlas/").content.decode()
    assert "Debate this crux itself" in atlas_html
    same = client.get(f"/debates/{first.pk}/rerun/", {"swap_out": "", "swap_in": "", "topic": first.topic})
    assert same.status_code == 200 and "Swap a persona, or ask about a related crux" in same.content.decode()
    half = client.get(f"/debates/{first.pk}/rerun/", {"swap_out": bram.pk, "swap_in": "", "topic": "Other"})
    assert half.status_code == 200 and "Pick both who leaves and who joins" in half.content.decode()
    response = client.get(
        f"/debates/{first.pk}/rerun/", {"swap_out": "", "swap_in": "", "topic": "Does scarcity create value?"}
    )
    assert response.status_code == 302
    setup = client.get(response["Location"])
    assert setup.context["form"]["topic"].value() == "Does scarcity create value?"
    assert {card["persona"].pk for card in setup.context["hand"] if card["checked"]} == {ada.pk, bram.pk}
