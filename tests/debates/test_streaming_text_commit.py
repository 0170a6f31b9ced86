"""Streaming text is committed without waiting for its WAL flush (`synchronous_commit = off` for
that one transaction): a crash can lose the last fraction of a second of a message's text so far,
which the completed message rewrites anyway. Events, and everything else, stay fully durable."""

import pytest
from django.db import connection, transaction

from debates.models import Event, Message
from debates.services.messages import message_finish, message_text_save

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def commits():
    """What `synchronous_commit` each transaction that writes a message or an event commits with:
    a deferred constraint trigger runs at COMMIT and notes it, as (table, setting) rows."""
    tables = (Message._meta.db_table, Event._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE commit_probe (id serial, tbl text, setting text)")
        cursor.execute(
            "CREATE FUNCTION commit_probe_note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "INSERT INTO commit_probe (tbl, setting) VALUES (TG_TABLE_NAME, current_setting('synchronous_commit')); "
            "RETURN NULL; END $$"
        )
        for table in tables:
            cursor.execute(
                f"CREATE CONSTRAINT TRIGGER commit_probe AFTER INSERT OR UPDATE ON {table} "
                "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_probe_note()"
            )

    def seen() -> list[tuple[str, str]]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT tbl, setting FROM commit_probe ORDER BY id")
            rows = cursor.fetchall()
            cursor.execute("TRUNCATE commit_probe")
        return [(table.removeprefix("debates_"), setting) for table, setting in rows]

    yield seen
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"DROP TRIGGER commit_probe ON {table}")
        cursor.execute("DROP FUNCTION commit_probe_note()")
        cursor.execute("DROP TABLE commit_probe")


def test_text_so_far_is_committed_without_waiting_for_the_disk(log, personas, commits):
    message = log.start().begin(personas[0])
    commits()

    message_text_save(message=message, text="Gold is")

    assert commits() == [("message", "off")]
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone() == ("on",)  # for that transaction only


def test_the_completed_message_and_its_event_stay_durable(log, personas, commits):
    message = log.start().begin(personas[0])
    message_text_save(message=message, text="Gold is")
    commits()

    message_finish(message=message, text="Gold is money.")

    assert set(commits()) == {("message", "on"), ("event", "on")}


def test_a_save_inside_a_larger_transaction_does_not_weaken_it(log, personas, commits):
    message = log.start().begin(personas[0])
    commits()

    with transaction.atomic():
        message_text_save(message=message, text="Gold is")
        log.pass_turn(personas[1])

    assert {setting for _, setting in commits()} == {"on"}
