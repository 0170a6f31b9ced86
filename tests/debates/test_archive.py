import pytest

pytestmark = pytest.mark.django_db


def test_it_lists_only_my_debates(owner_client, make_debate, other_user):
    make_debate(topic="Mine about gold")
    make_debate(topic="Theirs about tea", owner=other_user)

    content = owner_client.get("/debates/").content.decode()

    assert "Mine about gold" in content
    assert "Theirs about tea" not in content


def test_it_searches_by_topic_and_by_persona(owner_client, make_debate, personas):
    make_debate(topic="Gold versus Bitcoin", hand=personas[:2])
    make_debate(topic="Rates in 2030", hand=personas[2:])

    by_topic = owner_client.get("/debates/", {"q": "bitcoin"}).content.decode()
    by_persona = owner_client.get("/debates/", {"q": "degen"}).content.decode()

    assert "Gold versus Bitcoin" in by_topic and "Rates in 2030" not in by_topic
    assert "Rates in 2030" in by_persona and "Gold versus Bitcoin" not in by_persona
    assert 'value="degen"' in by_persona


def test_each_entry_shows_status_date_personas_and_links(owner_client, debate):
    content = owner_client.get("/debates/").content.decode()

    assert "Waiting for a worker" in content
    assert "Ada Hardmoney" in content and "Bram Macro" in content
    assert f"/debates/{debate.id}/replay/?step=0" in content
    assert f"/debates/{debate.id}/export.md" in content and f"/debates/{debate.id}/export.json" in content


def test_replay_steps_through_the_event_log(owner_client, debate, log, personas):
    log.start()
    log.say(personas[0], "First words.")
    log.say(personas[1], "Second words.")

    step_2 = owner_client.get(f"/debates/{debate.id}/replay/", {"step": 2}).content.decode()
    step_3 = owner_client.get(f"/debates/{debate.id}/replay/", {"step": 3}).content.decode()
    everything = owner_client.get(f"/debates/{debate.id}/replay/").content.decode()

    # step 2: the first message has started, nothing said yet
    assert "First words." not in step_2 and 'class="msg seat-0 is-streaming"' in step_2
    assert "First words." in step_3 and "Second words." not in step_3
    assert "First words." in everything and "Second words." in everything
    assert 'id="replay-step">5<' in everything


def test_replay_answers_htmx_with_just_the_replay_region(owner_client, debate, log, personas):
    log.start()
    log.say(personas[0], "First words.")

    response = owner_client.get(
        f"/debates/{debate.id}/replay/", {"step": 1}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="replay"
    )

    content = response.content.decode()
    assert content.startswith('<div id="replay"')
    assert "<html" not in content
    assert 'id="replay-step">1<' in content


@pytest.mark.parametrize("step, shown", [("-4", "0"), ("999", "3"), ("nonsense", "3")])
def test_replay_clamps_the_step(owner_client, debate, log, personas, step, shown):
    log.start()
    log.say(personas[0], "Words.")

    content = owner_client.get(f"/debates/{debate.id}/replay/", {"step": step}).content.decode()

    assert f'id="replay-step">{shown}<' in content


def test_results_page_shows_the_results(owner_client, debate, log, personas):
    from tests.debates.log_builder import sample_results

    log.start()
    room = log.open_room(personas[0], personas[1], "Is gold a hedge?")
    log.close_room(room)
    log.post_card(room)
    log.complete(sample_results("Is gold a hedge?", names=("Ada Hardmoney", "Bram Macro")))

    content = owner_client.get(f"/debates/{debate.id}/results/").content.decode()

    assert "Polarized" in content
    assert "Fault lines" in content and "Flip conditions" in content and "Evidence ledger" in content
    assert "Resolution paths" in content and "Cruxes" in content
    assert 'id="card-' in content
