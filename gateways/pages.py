"""The two shapes every owner's page of forms shares, so the apps' views stay short: a form page
(access is the caller's; on a valid POST a service saves and says where to go) and a delete
confirmation. It sits below every app in the import-linter layers, so any app may use it and it
imports none of them."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render


def service_errors_add(form, error: ValidationError) -> None:
    """Show a ValidationError from a service next to the field it names (or above the form)."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def form_page(
    request, form, *, save: Callable[..., HttpResponse], template: str, context: dict | None = None
) -> HttpResponse:
    """On a valid POST, ``save(form)`` calls the service and returns where to go next (a
    ValidationError from the service lands on the form); otherwise the form, on ``template``."""
    if request.method == "POST" and form.is_valid():
        try:
            return save(form)
        except ValidationError as error:
            service_errors_add(form, error)
    return render(request, template, {"form": form, **(context or {})})


def confirm_delete(
    request,
    *,
    thing,
    what: str,
    cancel_url: str,
    done_url: str,
    delete: Callable[[], object],
    done_message: str | None = None,
) -> HttpResponse:
    """A GET asks; a POST deletes and goes to ``done_url``. A ValidationError from ``delete`` (the
    service refusing) goes back to ``cancel_url`` with its reason."""
    if request.method == "POST":
        try:
            delete()
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect(cancel_url)
        messages.success(request, done_message or f"Deleted the {what} “{thing}”.")
        return redirect(done_url)
    return render(request, "confirm_delete.html", {"thing": thing, "what": what, "cancel_url": cancel_url})
