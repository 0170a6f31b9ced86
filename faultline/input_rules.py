"""The web's half of the input rule (gateways/input_rules.py): a NUL in the path, in a query
parameter's name or value, or in a form field's, is answered with a 400 before any view runs, so
no view, form or query can pass one to PostgreSQL (which keeps no NUL in text), whatever it reads.
Uploaded files are not looked at: a file may hold any byte."""

from __future__ import annotations

from django.shortcuts import render

from gateways.input_rules import NUL


def _has_nul(params) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in params.lists())


class BadInputMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if NUL in request.path or _has_nul(request.GET) or (request.method == "POST" and _has_nul(request.POST)):
            return render(request, "400.html", {"reason": "It held a NUL character."}, status=400)
        return self.get_response(request)
