# The orchestrator tests' fixtures (personas, a scripted fake Messages API, a debate factory) and
# the page tests' (a logged-in owner, a deck).
from tests.debates.conftest import deck, owner_client  # noqa: F401
from tests.orchestrator.conftest import new_debate, personas, scripted_api  # noqa: F401
