"""Celery tasks: thin, they load by id and call the service."""

from celery import shared_task


@shared_task(name="projects.read_document", acks_late=True)
def read_document(document_id: int) -> None:
    from projects.services import document_read

    document_read(document_id=document_id)


@shared_task(name="projects.read_repository_archive", acks_late=True)
def read_repository_archive(repository_id: int) -> None:
    from projects.services import repository_archive_read

    repository_archive_read(repository_id=repository_id)
