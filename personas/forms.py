import contextlib
import json

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput
from pydantic import TypeAdapter
from pydantic import ValidationError as ContractValidationError

from gateways.input_rules import InputRefused, StrictJSONField, json_read
from personas.contracts import PHRASE_LIST, VOICE_EXAMPLE_LIST, EvidencePolicy, contract_error_messages
from personas.corpus.sources import CorpusError, folder_upload_paths
from personas.models import Deck, Persona

MAX_UPLOAD_BYTES = 10 * 1024 * 1024


def _contract_part_clean(adapter: TypeAdapter, value, *, empty):
    """Validate a JSON field by the contract file's own rules; return it in the contract's shape."""
    if value is None:
        value = empty
    try:
        return adapter.dump_python(adapter.validate_python(value), by_alias=True)
    except ContractValidationError as exc:
        raise ValidationError(contract_error_messages(exc)) from exc


class IndentedJSONField(StrictJSONField):
    """Shows stored JSON indented, one list item per line, so it can be edited by hand; read by the
    input rule (gateways/input_rules.py: too long a number, a NUL, NaN are the form's error)."""

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


class ContractPartsForm(forms.ModelForm):
    """A persona form whose JSON fields follow the contract file's own rules (personas/contracts.py):
    the admin's form and the users' edit form both check through here."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # PostgreSQL's jsonb does not keep key order; show objects in the contract's order instead.
        for name, (adapter, empty) in CONTRACT_PARTS.items():
            if name in self.fields and self.initial.get(name):
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


_JSON_HELP = {
    "evidence_policy": 'JSON: {"acceptedSources": ["..."], "rejectedSources": ["..."], "weighting": "..."}',
    "speech_patterns": 'JSON list of instructions, e.g. ["You speak in declarative statements."]',
    "vocabulary": "JSON list of words and phrases this persona reaches for.",
    "forbidden_phrases": """JSON list of phrases this persona never says, e.g. ["That's a great point"]""",
    "voice_examples": 'JSON list: [{"situation": "...", "response": "..."}]',
}
CONTRACT_TEXTS = ("personality", "bias", "stakes", "epistemology", "time_horizon", "flip_conditions")


class PersonaAdminForm(ContractPartsForm):
    class Meta:
        model = Persona
        fields = "__all__"  # noqa: DJ007 - the admin edits every field of a persona
        field_classes = {name: IndentedJSONField for name in CONTRACT_PARTS}
        widgets = {name: forms.Textarea(attrs={"rows": 4, "cols": 80}) for name in CONTRACT_TEXTS} | {
            name: forms.Textarea(attrs={"rows": 8, "cols": 80, "style": "font-family: monospace"})
            for name in CONTRACT_PARTS
        }
        help_texts = _JSON_HELP


class PhraseLinesField(forms.JSONField):
    """A list of phrases edited as one phrase per line; the contract's rules check the list."""

    widget = forms.Textarea

    def to_python(self, value):
        if isinstance(value, list):
            return value
        return [line.strip() for line in (value or "").splitlines() if line.strip()]

    def bound_data(self, data, initial):
        return data

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(str(item) for item in value)
        return value or ""


PHRASE_PARTS = ("speech_patterns", "vocabulary", "forbidden_phrases")


class PersonaContractForm(ContractPartsForm):
    """A user's edit of their own persona: the contract and the voice. The personaId, version and
    the anchor excerpts (verbatim quotes) are not edited here."""

    class Meta:
        model = Persona
        fields = [
            "name",
            "tagline",
            *CONTRACT_TEXTS,
            "evidence_policy",
            *PHRASE_PARTS,
            "voice_examples",
        ]
        field_classes = {"evidence_policy": IndentedJSONField, "voice_examples": IndentedJSONField} | {
            name: PhraseLinesField for name in PHRASE_PARTS
        }
        widgets = (
            {name: forms.Textarea(attrs={"rows": 3}) for name in CONTRACT_TEXTS}
            | {
                name: forms.Textarea(attrs={"rows": 6, "class": "mono"})
                for name in ("evidence_policy", "voice_examples")
            }
            | {name: forms.Textarea(attrs={"rows": 4}) for name in PHRASE_PARTS}
        )
        help_texts = {
            "evidence_policy": _JSON_HELP["evidence_policy"],
            "voice_examples": _JSON_HELP["voice_examples"],
            "speech_patterns": "One instruction per line, e.g. “You speak in declarative statements.”",
            "vocabulary": "One word or phrase per line that this persona reaches for.",
            "forbidden_phrases": "One phrase per line that this persona never says.",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in PHRASE_PARTS:
            self.fields[name].required = False


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


class ContractImportForm(forms.Form):
    """One persona contract as JSON, uploaded as a file or pasted."""

    file = forms.FileField(label="Contract file (.json)", required=False)
    text = forms.CharField(
        label="…or paste the contract JSON",
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "class": "mono", "spellcheck": "false"}),
    )

    def clean(self):
        data = super().clean()
        upload, text = data.get("file"), (data.get("text") or "").strip()
        if upload and text:
            raise ValidationError("Upload a file or paste JSON, not both.")
        if upload:
            if not upload.name.lower().endswith(".json"):
                raise ValidationError(f"{upload.name}: upload one persona contract, a .json file.")
            if upload.size > MAX_UPLOAD_BYTES:
                raise ValidationError(f"{upload.name}: larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
            data["filename"], data["content"] = upload.name, upload.read()
        elif text:
            data["filename"], data["content"] = "pasted contract", text.encode("utf-8")
        else:
            raise ValidationError("Choose a contract file or paste its JSON.")
        return data


class DeckForm(forms.ModelForm):
    """A user's own deck: its name and which of the personas they can see it holds."""

    personas = forms.ModelMultipleChoiceField(
        queryset=Persona.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Deck
        fields = ["name", "description", "topic_area"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, personas, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["personas"].queryset = personas
        if self.instance.pk:
            self.initial.setdefault("personas", list(self.instance.personas.values_list("pk", flat=True)))


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (the files, or a folder's files with webkitdirectory)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data if item]
        return [super().clean(data, initial)] if data else []


class CorpusUploadForm(forms.Form):
    """A corpus: files (.txt, .md, .html, .pdf or a .zip of them) and/or a whole folder."""

    files = MultipleFileField(
        label="Files",
        required=False,
        help_text=".txt, .md, .html or .pdf files, or a .zip of them.",
        widget=MultipleFileInput(attrs={"accept": ".txt,.text,.md,.markdown,.html,.htm,.pdf,.zip"}),
    )
    folder = MultipleFileField(
        label="…or a folder",
        required=False,
        help_text="Every readable file in the folder and its subfolders.",
        widget=MultipleFileInput(attrs={"webkitdirectory": True, "directory": True}),
    )
    # The folder's files' paths from the chosen folder, in their order, as a JSON list: the page's
    # script fills it from each file's webkitRelativePath (see folder_upload_paths).
    folder_paths = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_folder_paths(self) -> list[str]:
        raw = self.cleaned_data.get("folder_paths") or ""
        try:
            paths = json_read(raw) if raw else []
        except InputRefused:
            paths = None
        if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
            raise ValidationError("The folder's list of paths is unreadable; choose the folder again.")
        return paths

    def clean(self):
        data = super().clean()
        files, folder = data.get("files") or [], data.get("folder") or []
        if not files and not folder:
            raise ValidationError("Choose some files, a .zip or a folder.")
        try:
            folder_names = folder_upload_paths([upload.name for upload in folder], data.get("folder_paths") or [])
        except CorpusError as error:
            raise ValidationError(error.errors) from error
        data["uploads"] = [(upload.name, upload.read()) for upload in files] + [
            (name, upload.read()) for name, upload in zip(folder_names, folder, strict=True)
        ]
        return data


class PersonaBuildForm(CorpusUploadForm):
    name = forms.CharField(max_length=120, label="Name", help_text="Whose writing is this? The persona's name.")
    batched = forms.BooleanField(
        required=False,
        label="Draft at half price",
        help_text="The drafting call waits in the model provider's batch queue: usually minutes. Past "
        "the longest wait it is drafted directly, at full price. You can leave the page meanwhile.",
    )
    field_order = ["name", "files", "folder", "batched"]

    def __init__(self, *args, batching: bool = False, **kwargs):
        """``batching``: the model provider has a Message Batches API (the offline model has not:
        the half-price choice is not offered)."""
        super().__init__(*args, **kwargs)
        if not batching:
            del self.fields["batched"]
