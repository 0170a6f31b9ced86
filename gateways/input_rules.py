"""One rule for what comes in: no NUL anywhere (PostgreSQL keeps no NUL in text or jsonb, so a
NUL that reached a query was a server error), no number too long to be one (Python's int() stops
at 4,300 digits, a database id at 19), and JSON read with the same limits. The web's middleware
(faultline/input_rules.py) answers a NUL in a path, a query parameter or a form field with a 400;
the helpers here are what a view, a form or the websocket consumer uses for the rest.
"""

from __future__ import annotations

import json
import math

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

NUL = "\x00"
# A database id (a PostgreSQL bigint) has at most 19 digits; 18 always fits.
ID_DIGITS = 18
# A number in JSON that no field of ours could hold; longer is refused, not parsed.
JSON_NUMBER_CHARS = 40


class InputRefused(ValueError):
    pass


def contains_nul(value) -> bool:
    """Whether a string, or any key or string inside a list or dict, holds a NUL."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(contains_nul(key) or contains_nul(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(contains_nul(item) for item in value)
    return False


def object_id(value) -> int | None:
    """A database id from a form field or a query parameter: digits only, at most 18 of them;
    None for anything else (the caller answers 404 or the form's error)."""
    text = str(value if value is not None else "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > ID_DIGITS:
        return None
    return int(text)


def _number(kind):
    def parse(text: str):
        if len(text) > JSON_NUMBER_CHARS:
            raise InputRefused(f"a number in it is longer than {JSON_NUMBER_CHARS} characters")
        value = kind(text)
        if isinstance(value, float) and not math.isfinite(value):
            raise InputRefused("a number in it is too large")
        return value

    return parse


def _no_constant(name: str):
    raise InputRefused(f"{name} is not a number JSON allows")


def json_read(text: str | bytes):
    """json.loads with the rule: InputRefused (a ValueError) for malformed JSON, a number too long
    or too large (1e999), NaN or Infinity, a NUL in any key or string, or nesting too deep."""
    try:
        value = json.loads(text, parse_int=_number(int), parse_float=_number(float), parse_constant=_no_constant)
    except InputRefused:
        raise
    except RecursionError:
        raise InputRefused("it is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and a bad UTF-8 byte
        raise InputRefused(f"it is not valid JSON ({exc})") from None
    if contains_nul(value):
        raise InputRefused("it holds a NUL character")
    return value


class StrictJSONField(forms.JSONField):
    """A form's JSON field read by ``json_read``: bad JSON is the form's error, never a 500. Empty
    is ``empty_value`` (a callable: the model field's default, so a cleared field is [] or {}, not
    a NULL the column refuses)."""

    def __init__(self, *, empty_value=None, **kwargs):
        super().__init__(**kwargs)
        self.empty_value = empty_value

    def to_python(self, value):
        if self.disabled:
            return value
        if value in self.empty_values:
            return self.empty_value() if callable(self.empty_value) else self.empty_value
        if isinstance(value, list | dict | int | float | forms.fields.JSONString):
            return value
        try:
            converted = json_read(value)
        except InputRefused as exc:
            raise ValidationError(f"Enter valid JSON: {exc}.", code="invalid", params={"value": value}) from None
        return forms.fields.JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data, initial):
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return json_read(data)
        except InputRefused:
            return forms.fields.InvalidJSONInput(data)


class StrictJSONAdmin:
    """A ModelAdmin mixin: every JSON field of the model is a StrictJSONField in the admin's form."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.JSONField):
            kwargs.setdefault("form_class", StrictJSONField)
            if db_field.has_default() and not db_field.null:
                kwargs.setdefault("empty_value", db_field.get_default)
        return super().formfield_for_dbfield(db_field, request, **kwargs)
