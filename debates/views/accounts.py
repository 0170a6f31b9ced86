from django.conf import settings
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django_ratelimit.decorators import ratelimit

from debates.forms import SignupForm


def _signup_rate(group, request) -> str:
    return settings.FAULTLINE_SIGNUP_RATE


@ratelimit(key="ip", rate=_signup_rate, method="POST", block=False)
def signup(request):
    if request.user.is_authenticated:
        return redirect("debate_new")
    if getattr(request, "limited", False):
        return signup_throttled(request)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "debate_new")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def signup_throttled(request):
    """When one address creates accounts too fast (FAULTLINE_SIGNUP_RATE)."""
    return render(
        request,
        "registration/locked_out.html",
        {
            "message": "Too many sign-ups from your address. Wait a while, then try again.",
        },
        status=429,
    )
