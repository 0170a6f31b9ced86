"""What the banner says is happening now (debates/activity.py), read from the folded log: per step,
never per token, and never "speaking" before a word has arrived."""

from debates.activity import EVENT_LABELS, counts_words, debate_activity, paused_words
from debates.payloads import EventKind
from debates.state import fold

ADA = {"id": 1, "name": "The Macro Trader", "seat": 0}
BRAM = {"id": 2, "name": "Bram Macro", "seat": 1}
CLEO = {"id": 3, "name": "Cleo Central", "seat": 2}


def started(mode="dialogue", personas=(ADA, BRAM, CLEO), max_turns=12):
    return ("debate_started", {"topic": "Gold?", "mode": mode, "max_turns": max_turns, "personas": list(personas)})


def asked(persona, kind="opening", room_id=None):
    payload = {"persona_id": persona["id"], "persona_name": persona["name"], "seat": persona["seat"], "kind": kind}
    return ("turn_requested", {**payload, "room_id": room_id})


def begun(message_id, persona, kind="opening", room_id=None, aspect_index=None):
    payload = {"message_id": message_id, "persona_id": persona["id"], "persona_name": persona["name"]}
    payload |= {"seat": persona["seat"], "kind": kind, "turn": message_id, "room_id": room_id}
    return ("message_started", {**payload, "aspect_index": aspect_index})


def done(message_id):
    return ("message_completed", {"message_id": message_id, "text": "Words."})


def phase(name, aspect_index=None):
    return ("phase_changed", {"phase": name, "aspect_index": aspect_index})


def now(*events):
    view = fold("d", [(seq, kind, payload) for seq, (kind, payload) in enumerate(events, start=1)])
    activity = debate_activity(view)
    return activity.now if activity else None, activity.beside if activity else ()


def test_before_a_worker_takes_it_the_page_says_it_waits_for_one():
    assert now() == ("Waiting for a worker to start the debate…", ())
    assert now(started(), ("debate_paused", {}), ("debate_continued", {}))[0] == (
        "Waiting for a worker to continue the debate…"
    )


def test_the_first_seconds_of_a_dialogue_say_the_phase_who_is_thinking_and_the_plan_beside_it():
    assert now(started())[0] == "Getting started: reading what earlier debates left…"
    line, beside = now(started(), phase("opening"), asked(ADA))
    assert line == "Opening statements: The Macro Trader is thinking…"
    assert beside == ("Meanwhile the aspects of the question are being planned.",)


def test_it_says_speaking_only_once_words_have_arrived_and_moves_on_with_each_step():
    events = [started(), phase("opening"), ("aspects_set", {"aspects": [{"label": "Evidence"}]}), asked(ADA)]
    assert "thinking" in now(*events)[0]
    events.append(begun(1, ADA))
    assert now(*events) == ("Opening statements: The Macro Trader is speaking…", ())
    events += [done(1), asked(BRAM)]
    assert now(*events)[0] == "Opening statements: Bram Macro is thinking…"
    events += [phase("dialogue", 0), asked(CLEO, kind="key_argument")]
    assert now(*events)[0] == "Dialogue: Evidence: Cleo Central is thinking…"


def test_a_turn_asked_before_the_last_one_was_written_is_not_taken_for_the_next():
    # Bram's turn was asked while Ada's was still being written: once both of Ada's events are in,
    # the line goes back to Bram, and a pass of his ends his turn.
    events = [started(), phase("dialogue"), asked(ADA, "reply"), begun(1, ADA, "reply"), asked(BRAM, "reply")]
    assert now(*events)[0] == "Dialogue: The Macro Trader is speaking…"
    events.append(done(1))
    assert now(*events)[0] == "Dialogue: Bram Macro is thinking…"
    events.append(("turn_passed", {"persona_id": 2, "persona_name": "Bram Macro"}))
    assert now(*events)[0] == "Dialogue…"


def test_crux_rooms_are_said_beside_the_main_channel():
    room = {"room_id": 9, "persona_a": {"id": 1, "name": "Ada"}, "persona_b": {"id": 2, "name": "Bram"}}
    room |= {"question": "Does the long run matter?", "suit": "♠"}
    events = [started(), phase("dialogue"), ("room_opened", room)]
    assert now(*events)[1] == ("Crux room ♠ opening: Ada and Bram on “Does the long run matter?”",)
    events.append(asked(ADA, "entry", room_id=9))
    assert now(*events)[1] == ("Crux room ♠ (Ada and Bram): The Macro Trader is thinking.",)
    events += [("room_closed", {"room_id": 9})]
    assert now(*events)[1] == ()


def test_the_two_role_modes_name_the_role_and_the_critic_s_assessment():
    hand = ({"id": 1, "name": "Hard Money", "seat": 0}, {"id": 2, "name": "Critic", "seat": 1})
    events = [started("analyst_critic", hand), phase("round", 1), asked(hand[0], "analysis")]
    assert now(*events)[0] == "Round 2: the Analyst (Hard Money) is thinking…"
    events += [begun(1, hand[0], "analysis", aspect_index=1), done(1), asked(hand[1], "critique")]
    assert now(*events)[0] == "Round 2: the Critic is thinking…"
    events += [begun(2, hand[1], "critique", aspect_index=1), done(2)]
    assert now(*events)[0] == "Round 2: the Critic is assessing round 2…"
    events += [("round_scored", {"round": 2, "score": 50.0}), phase("synthesis"), asked(hand[0], "synthesis")]
    assert now(*events)[0] == "Writing the synthesis…"


def test_collaborate_says_both_roles_write_side_by_side():
    hand = ({"id": 1, "name": "Ada", "seat": 0}, {"id": 2, "name": "Bram", "seat": 1})
    events = [started("collaborate", hand), phase("drafting"), begun(1, hand[0], "draft"), begun(2, hand[1], "draft")]
    assert now(*events)[0] == "Both roles answer the brief: the Architect (Ada) and the Reviewer (Bram) are writing…"
    events.append(done(1))
    assert now(*events)[0] == "Both roles answer the brief: the Reviewer (Bram) is writing…"


def test_a_model_waited_on_and_the_results_are_said_too():
    waiting = ("model_waiting", {"reason": "overloaded", "retry_in": 8.0, "waited": 2.0})
    line = "Opening statements: waiting for the model, which is overloaded or unavailable; trying again in 8 s…"
    assert now(started(), phase("opening"), asked(ADA), waiting)[0] == line
    # Started again after the wait and the turn asked again: the page says the model is retried
    # until something comes of it.
    retried = [started(), phase("opening"), asked(ADA), waiting, ("debate_resumed", {}), asked(ADA)]
    assert now(*retried)[0] == "Opening statements: trying the model again (it was overloaded or unavailable)…"
    assert now(*retried, begun(1, ADA))[0] == "Opening statements: The Macro Trader is speaking…"
    closings = [started(personas=(ADA, BRAM)), phase("closing")]
    closings += [begun(1, ADA, "closing"), done(1), begun(2, BRAM, "closing"), done(2)]
    assert now(*closings)[0] == "Closing statements: all are in; drawing up the results…"


def test_paused_finished_and_failed_debates_have_no_activity_line():
    assert now(started(), ("debate_paused", {"reason": "requested"})) == (None, ())
    assert now(started(), ("debate_finished", {"status": "completed"})) == (None, ())
    assert now(started(), ("debate_failed", {"reason": "boom"})) == (None, ())


def test_where_a_debate_paused_is_said_in_the_mode_s_terms():
    def view(*events):
        return fold("d", [(seq, kind, payload) for seq, (kind, payload) in enumerate(events, start=1)])

    aspects = ("aspects_set", {"aspects": [{"label": "Evidence"}, {"label": "Policy"}]})
    assert paused_words(view(started(), aspects, ("debate_paused", {"reason": "round", "round": 1}))) == (
        "Paused after aspect 1 of 2, “Evidence”."
    )
    scored = ("round_scored", {"round": 1, "score": 50.0})
    assert paused_words(
        view(started("analyst_critic"), scored, ("debate_paused", {"reason": "round", "round": 1}))
    ) == ("Paused after round 1 at 50% consensus.")
    assert paused_words(view(started(), ("debate_paused", {"reason": "requested"}))) == "Paused at the owner's request."


def test_the_counts_are_worded_once_messages_and_turns_of_the_budget():
    view = fold(
        "d",
        [
            (1, *started(personas=(ADA, BRAM), max_turns=12)),
            (2, *begun(1, ADA, "opening")),
            (3, *done(1)),
            (4, *begun(2, BRAM, "reply")),
            (5, *done(2)),
            (6, "turn_passed", {"persona_id": 1, "persona_name": "The Macro Trader"}),
        ],
    )
    assert counts_words(view) == "2 messages · 2 of 12 turns"


def test_every_event_kind_has_words_for_the_replay():
    assert set(EVENT_LABELS) == {kind.value for kind in EventKind}
