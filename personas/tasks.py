"""Celery tasks: thin, they load by id and call the service."""

from celery import shared_task


@shared_task(name="personas.draft_persona_build", acks_late=True)
def draft_persona_build(build_id: int) -> None:
    from personas.services.builds import persona_build_draft

    persona_build_draft(build_id=build_id)


@shared_task(name="personas.look_at_persona_build_batch", acks_late=True)
def look_at_persona_build_batch(build_id: int) -> None:
    from personas.services.builds import persona_build_look

    persona_build_look(build_id=build_id)


@shared_task(name="personas.cancel_persona_build_batch", acks_late=True)
def cancel_persona_build_batch(batch_id: str) -> None:
    from personas.services.builds import persona_build_batch_cancel

    persona_build_batch_cancel(batch_id=batch_id)


@shared_task(name="personas.store_persona_build", acks_late=True)
def store_persona_build(build_id: int) -> None:
    from personas.services.builds import persona_build_store

    persona_build_store(build_id=build_id)


@shared_task(name="personas.store_corpus_upload", acks_late=True)
def store_corpus_upload(upload_id: int) -> None:
    from personas.services.builds import persona_corpus_upload_store

    persona_corpus_upload_store(upload_id=upload_id)
