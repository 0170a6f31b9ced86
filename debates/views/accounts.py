from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django_ratelimit.decorators import ratelimit

from debates.forms import SignupForm
from debates.services.accounts import account_delete


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


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label="Your password", widget=forms.PasswordInput, error_messages={"required": "Type your password."}
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError("That is not your password.")
        return password


@login_required
def account_delete_page(request):
    """GET asks, with the password; POST deletes the account with everything that is its own."""
    form = AccountDeleteForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            account_delete(user=request.user)
        except ValidationError as refused:
            form.add_error(None, " ".join(refused.messages))
        else:
            logout(request)
            messages.info(request, "Your account is deleted, with everything that was yours.")
            return redirect("login")
    return render(request, "registration/account_delete.html", {"form": form})
