import pytest

pytestmark = pytest.mark.django_db


def test_it_shows_the_debate_so_far(owner_client, debate, log, personas):
    log.start().phase("opening")
    log.say(personas[0], "Gold has five thousand years of history.", kind="opening")
    streaming = log.begin(personas[1], kind="opening")
    log.stream(streaming, "Liquidity beats hist")

    response = owner_client.get(f"/debates/{debate.id}/")

    content = response.content.decode()
    assert response.status_code == 200
    assert f'ws-connect="/ws/debates/{debate.id}/"' in content
    assert "Gold has five thousand years of history." in content
    assert f'id="msg-{streaming.id}"' in content and "Liquidity beats hist" in content
    assert 'id="status-line"' in content and "Opening statements" in content
    assert 'id="drawer"' in content and 'id="drawer-tabs"' in content and 'id="crux-cards"' in content
    assert "is-owner" in content and 'id="stop-debate"' in content


def test_another_user_gets_404(client, other_user, debate):
    client.force_login(other_user)

    for url in ["", "replay/", "results/", "export.md", "export.json"]:
        assert client.get(f"/debates/{debate.id}/{url}").status_code == 404, url
    for url in ["stop/", "resume/", "share/", "unshare/"]:
        assert client.post(f"/debates/{debate.id}/{url}").status_code == 404, url


def test_being_staff_alone_does_not_open_others_private_debates(client, debate, log):
    from django.contrib.auth import get_user_model

    log.start()
    staff = get_user_model().objects.create_user("staff", password="x", is_staff=True)
    client.force_login(staff)

    assert client.get(f"/debates/{debate.id}/").status_code == 404


def test_the_view_any_debate_permission_may_watch_but_not_control(client, debate, log):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    log.start()
    moderator = get_user_model().objects.create_user("moderator", password="x")
    moderator.user_permissions.add(Permission.objects.get(codename="view_any_debate"))
    client.force_login(moderator)

    response = client.get(f"/debates/{debate.id}/")
    assert response.status_code == 200
    assert "is-owner" not in response.content.decode()
    assert client.post(f"/debates/{debate.id}/stop/").status_code == 404


def test_an_anonymous_visitor_is_sent_to_login(client, debate):
    response = client.get(f"/debates/{debate.id}/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_share_link_shows_the_debate_read_only(owner_client, client, debate, log, personas):
    log.start()
    log.say(personas[0], "Shared words.")

    owner_client.post(f"/debates/{debate.id}/share/")
    debate.refresh_from_db()
    assert debate.share_token

    from django.test import Client

    visitor = Client()
    response = visitor.get(f"/shared/{debate.share_token}/")
    content = response.content.decode()
    assert response.status_code == 200
    assert "Shared words." in content
    assert "read-only" in content
    assert f'ws-connect="/ws/debates/{debate.id}/?share={debate.share_token}"' in content
    assert "is-owner" not in content
    assert visitor.post(f"/debates/{debate.id}/stop/").status_code == 302  # to login; nothing stopped
    debate.refresh_from_db()
    assert not debate.stop_requested


def test_unsharing_kills_the_link(owner_client, client, debate):
    owner_client.post(f"/debates/{debate.id}/share/")
    debate.refresh_from_db()
    token = debate.share_token

    owner_client.post(f"/debates/{debate.id}/unshare/")

    from django.test import Client

    assert Client().get(f"/shared/{token}/").status_code == 404


def test_the_owner_sees_the_share_link(owner_client, debate):
    owner_client.post(f"/debates/{debate.id}/share/")
    debate.refresh_from_db()

    content = owner_client.get(f"/debates/{debate.id}/").content.decode()

    assert f"http://testserver/shared/{debate.share_token}/" in content
    assert 'id="unshare-debate"' in content


def test_a_wrong_share_token_is_404(client, debate):
    assert client.get("/shared/not-a-token/").status_code == 404


def test_stop_asks_the_orchestrator_to_stop(owner_client, debate, log):
    log.start()

    response = owner_client.post(f"/debates/{debate.id}/stop/")

    assert response.status_code == 302
    debate.refresh_from_db()
    assert debate.stop_requested


def test_stop_from_htmx_answers_in_place(owner_client, debate, log):
    log.start()

    response = owner_client.post(f"/debates/{debate.id}/stop/", HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert b"Stopping" in response.content


def test_stop_needs_post(owner_client, debate):
    assert owner_client.get(f"/debates/{debate.id}/stop/").status_code == 405


def test_a_failed_debate_shows_its_owner_the_reason_every_message_and_resume(
    owner_client, debate, log, personas, monkeypatch
):
    log.start()
    log.say(personas[0], "First words.")
    log.say(personas[1], "Second words.")
    log.fail("The model provider kept timing out.")

    content = owner_client.get(f"/debates/{debate.id}/").content.decode()
    reason = owner_client.get(f"/debates/{debate.id}/failure/").content.decode()

    assert "This debate failed." in content
    assert "The model provider kept timing out." in reason
    assert "First words." in content and "Second words." in content
    assert 'id="resume-debate"' in content
    assert 'id="stop-debate"' not in content

    from debates.services import lifecycle

    queued = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))
    response = owner_client.post(f"/debates/{debate.id}/resume/")
    assert response.status_code == 302
    assert queued == [str(debate.id)]


def test_resume_of_a_finished_debate_is_refused(owner_client, debate, log, monkeypatch):
    from debates.services import lifecycle

    log.start()
    log.complete()
    queued = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))

    response = owner_client.post(f"/debates/{debate.id}/resume/", follow=True)

    assert queued == []
    assert "nothing to resume" in response.content.decode()


def test_an_orphaned_debate_offers_resume(owner_client, debate, log):
    log.start()  # running, but no orchestrator holds it: its worker died

    content = owner_client.get(f"/debates/{debate.id}/").content.decode()

    assert 'id="resume-debate"' in content


def test_it_labels_text_from_the_offline_demo_model(owner_client, debate, log):
    log.start(provider="local")

    content = owner_client.get(f"/debates/{debate.id}/").content.decode()

    assert 'class="debate-hand"' in content
    hand = content[content.index('class="debate-hand"') :]
    assert "offline demo model" in hand[: hand.index("</ul>")]


def test_a_completed_debate_shows_results_on_the_page(owner_client, debate, log, personas):
    from tests.debates.log_builder import sample_results

    log.start()
    log.complete(sample_results("Is gold a hedge?"))

    content = owner_client.get(f"/debates/{debate.id}/").content.decode()

    assert 'href="#results"' in content
    assert "Polarized" in content and "Is gold a hedge?" in content
