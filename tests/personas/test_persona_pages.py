"""The persona pages a user browses: cards, one persona's contract and voice, export."""

import json

import pytest

pytestmark = pytest.mark.django_db


def test_the_list_shows_seed_decks_and_personas_and_the_users_own(alice, seed_deck, own_persona, others_persona):
    response = alice.get("/personas/")

    content = response.content.decode()
    assert response.status_code == 200
    assert "The Macro Bear" in content and "Alice&#x27;s Own" in content
    assert "Markets" in content
    assert "Mallory" not in content


def test_the_site_nav_links_to_the_personas(alice):
    assert 'href="/personas/"' in alice.get("/projects/").content.decode()


def test_a_persona_page_shows_its_contract_voice_and_excerpts(alice, seed_persona):
    response = alice.get(f"/personas/{seed_persona.pk}/")

    content = response.content.decode()
    assert response.status_code == 200
    for text in ("A worldview in one line.", "Ten years of contrary data.", "Primary data", "Data first."):
        assert text in content
    assert "You speak in declarative statements." in content and "ledger" in content
    assert "Every cycle ends in credit." in content
    assert 'id="edit-persona"' not in content  # a seed persona is cloned, not edited


def test_export_downloads_the_contract_json(alice, seed_persona):
    response = alice.get(f"/personas/{seed_persona.pk}/contract.json")

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="the-macro-bear.json"'
    data = json.loads(response.content)
    assert data["personaId"] == "the-macro-bear"
    assert data["anchorExcerpts"] == [
        {"id": "bear-01", "content": "Every cycle ends in credit.", "source": "Faultline archetype sample"}
    ]


def test_the_pages_need_a_login(client, seed_persona):
    response = client.get(f"/personas/{seed_persona.pk}/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
