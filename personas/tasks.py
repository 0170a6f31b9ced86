"""Celery tasks: thin, they load by id and call the service."""

from celery import shared_task


@shared_task(name="personas.draft_persona_build", acks_late=True)
def draft_persona_build(build_id: int) -> None:
    from personas.services.builds import persona_build_draft

    persona_build_draft(build_id=build_id)
