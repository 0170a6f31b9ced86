import contextlib
import json

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput
from pydantic import TypeAdapter
from pydantic import ValidationError as ContractValidationError

from personas.contracts import PHRASE_LIST, VOICE_EXAMPLE_LIST, EvidencePolicy, contract_error_messages
from personas.models import Persona

MAX_UPLOAD_BYTES = 10 * 1024 * 1024


def _contract_part_clean(adapter: TypeAdapter, value, *, empty):
    """Validate a JSON field by the contract file's own rules; return it in the contract's shape."""
    if value is None:
        value = empty
    try:
        return adapter.dump_python(adapter.validate_python(value), by_alias=True)
    except ContractValidationError as exc:
        raise ValidationError(contract_error_messages(exc)) from exc


class IndentedJSONField(forms.JSONField):
    """Shows stored JSON indented, one list item per line, so it can be edited by hand."""

    def prepare_value(self, value):
        if isinstance(value, InvalidJSONInput):
            return value
        return json.dumps(value, indent=2, ensure_ascii=False, cls=self.encoder)


# The persona's JSON fields, the contract rules each follows, and what an empty field means.
CONTRACT_PARTS = {
    "evidence_policy": (TypeAdapter(EvidencePolicy), {}),
    "speech_patterns": (PHRASE_LIST, []),
    "vocabulary": (PHRASE_LIST, []),
    "forbidden_phrases": (PHRASE_LIST, []),
    "voice_examples": (VOICE_EXAMPLE_LIST, []),
}


class PersonaAdminForm(forms.ModelForm):
    class Meta:
        model = Persona
        fields = "__all__"  # noqa: DJ007 - the admin edits every field of a persona
        field_classes = {name: IndentedJSONField for name in CONTRACT_PARTS}
        widgets = {
            name: forms.Textarea(attrs={"rows": 4, "cols": 80})
            for name in ("personality", "bias", "stakes", "epistemology", "time_horizon", "flip_conditions")
        } | {
            name: forms.Textarea(attrs={"rows": 8, "cols": 80, "style": "font-family: monospace"})
            for name in CONTRACT_PARTS
        }
        help_texts = {
            "evidence_policy": 'JSON: {"acceptedSources": ["..."], "rejectedSources": ["..."], "weighting": "..."}',
            "speech_patterns": 'JSON list of instructions, e.g. ["You speak in declarative statements."]',
            "vocabulary": "JSON list of words and phrases this persona reaches for.",
            "forbidden_phrases": """JSON list of phrases this persona never says, e.g. ["That's a great point"]""",
            "voice_examples": 'JSON list: [{"situation": "...", "response": "..."}]',
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # PostgreSQL's jsonb does not keep key order; show objects in the contract's order instead.
        for name, (adapter, empty) in CONTRACT_PARTS.items():
            if self.initial.get(name):
                with contextlib.suppress(ValidationError):  # shown as stored; saving reports what is wrong
                    self.initial[name] = _contract_part_clean(adapter, self.initial[name], empty=empty)

    def _clean_contract_part(self, name):
        adapter, empty = CONTRACT_PARTS[name]
        return _contract_part_clean(adapter, self.cleaned_data.get(name), empty=empty)

    def clean_evidence_policy(self):
        return self._clean_contract_part("evidence_policy")

    def clean_speech_patterns(self):
        return self._clean_contract_part("speech_patterns")

    def clean_vocabulary(self):
        return self._clean_contract_part("vocabulary")

    def clean_forbidden_phrases(self):
        return self._clean_contract_part("forbidden_phrases")

    def clean_voice_examples(self):
        return self._clean_contract_part("voice_examples")


class ContractUploadForm(forms.Form):
    file = forms.FileField(
        label="Contract file",
        help_text="One persona contract (.json), a decks.json, or a .zip of them. "
        "Every file is checked first; if any is bad, nothing is imported.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise ValidationError(f"{upload.name}: larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
        return upload
