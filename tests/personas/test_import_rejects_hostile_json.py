"""Huge or deeply nested contract files are refused with one line per file, never a crash."""

import pytest
from django.core.management import CommandError, call_command

from personas.services import MAX_CONTRACT_BYTES, MAX_JSON_NESTING
from tests.personas.samples import database_is_empty
from tests.personas.test_admin_import import messages_of, upload

pytestmark = pytest.mark.django_db

DEEPLY_NESTED = "[" * 200_000 + "]" * 200_000  # past Python's recursion limit
NESTED_BEYOND_THE_LIMIT = '{"personaId": ' + "[" * (MAX_JSON_NESTING + 1) + "]" * (MAX_JSON_NESTING + 1) + "}"


@pytest.mark.parametrize("text", [DEEPLY_NESTED, NESTED_BEYOND_THE_LIMIT])
def test_importpersonas_refuses_deeply_nested_json_in_one_line(tmp_path, text):
    (tmp_path / "nested.json").write_text(text)

    with pytest.raises(CommandError) as caught:
        call_command("importpersonas", str(tmp_path / "nested.json"))

    assert str(caught.value) == (
        f"nothing was imported:\n{tmp_path / 'nested.json'}: invalid contract: "
        f"JSON nested more than {MAX_JSON_NESTING} levels deep"
    )
    assert database_is_empty()


def test_importpersonas_refuses_a_huge_file_without_reading_it(tmp_path):
    with open(tmp_path / "huge.json", "wb") as huge:
        huge.truncate(MAX_CONTRACT_BYTES + 1)

    with pytest.raises(
        CommandError, match=r"huge.json: too large for a contract \(1048577 bytes; the limit is 1048576\)"
    ):
        call_command("importpersonas", str(tmp_path))


def test_the_admin_import_reports_deeply_nested_json_instead_of_failing(admin_client):
    response = upload(admin_client, "nested.json", DEEPLY_NESTED.encode())

    assert response.status_code == 200
    (message,) = messages_of(response)
    assert f"<li>nested.json: invalid contract: JSON nested more than {MAX_JSON_NESTING} levels deep</li>" in message
    assert database_is_empty()
