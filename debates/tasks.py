from celery import shared_task


@shared_task(name="debates.run_debate", acks_late=True)
def run_debate(debate_id: str) -> None:
    from debates.orchestrator import debate_run

    debate_run(debate_id=debate_id)
