from django.conf import settings


def model_provider(request):
    """Lets every page say when its text comes from the offline demo model."""
    return {"model_provider": settings.FAULTLINE_LLM, "offline_demo_model": settings.FAULTLINE_LLM == "local"}
