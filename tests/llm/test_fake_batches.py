"""The fake Messages API's Message Batches endpoints, read by the real SDK into its own types."""

import anthropic
import pytest

from devtools.fake_messages_api import FakeMessagesAPI, Reply


def request(custom_id: str, text: str = "hi") -> dict:
    return {
        "custom_id": custom_id,
        "params": {"model": "claude-haiku-4-5", "max_tokens": 50, "messages": [{"role": "user", "content": text}]},
    }


def test_a_batch_is_in_progress_then_ended_and_each_request_is_answered_by_its_call():
    seen = []

    def responder(body, call):
        seen.append((call.role, call.phase))
        return Reply.says(f"{call.role}/{call.phase}: {body['messages'][0]['content']}")

    with FakeMessagesAPI(responder=responder) as api:
        api.batch_polls = 1
        client = anthropic.Anthropic(api_key="test", base_url=api.url, max_retries=0)
        batch = client.messages.batches.create(
            requests=[request("0-judging-evaluation_judge", "one"), request("1-extraction-memory", "two")]
        )
        assert batch.processing_status == "in_progress" and batch.request_counts.processing == 2
        assert seen == []  # nothing is answered before the batch ends

        assert client.messages.batches.retrieve(batch.id).processing_status == "in_progress"
        ended = client.messages.batches.retrieve(batch.id)
        assert ended.processing_status == "ended" and ended.request_counts.succeeded == 2 and ended.results_url

        results = {line.custom_id: line.result for line in client.messages.batches.results(batch.id)}

    assert seen == [("judging", "evaluation_judge"), ("extraction", "memory")]
    assert results["0-judging-evaluation_judge"].type == "succeeded"
    assert results["0-judging-evaluation_judge"].message.content[0].text == "judging/evaluation_judge: one"
    assert results["1-extraction-memory"].message.usage.input_tokens > 0
    assert [r["custom_id"] for r in api.batched] == ["0-judging-evaluation_judge", "1-extraction-memory"]


def test_failures_are_errored_or_expired_results_and_a_canceled_batch_answers_nothing():
    with FakeMessagesAPI() as api:
        api.script(Reply.overloaded(), Reply.expired())
        client = anthropic.Anthropic(api_key="test", base_url=api.url, max_retries=0)
        batch = client.messages.batches.create(requests=[request("0-a-b"), request("1-a-b")])
        client.messages.batches.retrieve(batch.id)
        assert client.messages.batches.retrieve(batch.id).request_counts.errored == 1
        results = {line.custom_id: line.result for line in client.messages.batches.results(batch.id)}
        assert results["0-a-b"].type == "errored" and results["0-a-b"].error.error.type == "overloaded_error"
        assert results["1-a-b"].type == "expired"

        canceled = client.messages.batches.create(requests=[request("0-a-b")])
        client.messages.batches.cancel(canceled.id)
        lines = list(client.messages.batches.results(canceled.id))
        assert [line.result.type for line in lines] == ["canceled"]
        assert len(api.requests) == 2  # the canceled request never reached the model

        with pytest.raises(anthropic.NotFoundError):
            client.messages.batches.retrieve("msgbatch_nowhere")
