import pytest

from faultline.llm import gateway
from faultline.llm.fake_messages_api import FakeMessagesAPI


@pytest.fixture
def fake_anthropic(settings):
    """The real anthropic SDK, pointed at a scripted local Messages API."""
    with FakeMessagesAPI() as api:
        settings.FAULTLINE_LLM = "anthropic"
        settings.ANTHROPIC_API_KEY = "test-key"
        settings.ANTHROPIC_BASE_URL = api.url
        settings.ANTHROPIC_MAX_RETRIES = 3
        gateway.reset_provider()
        yield api
    gateway.reset_provider()
