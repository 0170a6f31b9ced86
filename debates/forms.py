import uuid

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm

from debates.models import Debate, Interjection
from debates.modes import DEFAULT_MODE, MAX_HAND, MIN_HAND, hand_problem, mode_find, modes_available
from debates.services.interjections import MAX_INTERJECTION_LENGTH, InterjectionDraft
from debates.services.lifecycle import MAX_ROUNDS, MAX_TOPIC_LENGTH
from gateways.pages import service_errors_add
from personas.models import Deck, Persona
from personas.selectors import deck_personas_for, decks_visible_to
from projects.models import Document
from projects.selectors import context_target, context_targets_for


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class DebateSetupForm(forms.Form):
    deck = forms.ModelChoiceField(
        queryset=Deck.objects.none(),
        empty_label=None,
        error_messages={"required": "Pick a deck.", "invalid_choice": "Pick one of the decks shown."},
    )
    personas = forms.ModelMultipleChoiceField(
        queryset=Persona.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": f"Pick a hand of {MIN_HAND} to {MAX_HAND} personas.",
            "invalid_choice": "That persona is not in this deck any more; pick again.",
        },
    )
    topic = forms.CharField(
        max_length=MAX_TOPIC_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Will Bitcoin replace gold as a store of value?"}),
        error_messages={
            "required": "Type a topic for the debate.",
            "max_length": f"Keep the topic to {MAX_TOPIC_LENGTH} characters or fewer (it has %(show_value)d).",
        },
    )
    length = forms.ChoiceField(choices=Debate.Length.choices, initial=Debate.Length.STANDARD, widget=forms.RadioSelect)
    mode = forms.ChoiceField(
        choices=(),  # the registered modes (debates/modes.py), read per form
        initial=DEFAULT_MODE,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Pick one of the modes."},
    )

    auto_continue = forms.BooleanField(
        label="Continue automatically after each round",
        required=False,
        help_text="Analyst vs Critic: run every round without pausing for you to press Continue.",
    )

    pause_after_round = forms.BooleanField(
        label="Pause after each round",
        required=False,
        help_text="Any mode: pause at the end of each round so you can read it, then continue. Dialogue and "
        "graph: a round is one aspect of the question; Collaborate: the drafts; Analyst vs Critic always "
        "pauses after its rounds unless it continues automatically.",
    )

    # A mode whose budget is rounds (its spec row names a rounds setting); the others ignore it.
    rounds = forms.IntegerField(
        label="Rounds",
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        widget=forms.NumberInput(attrs={"min": 1, "max": MAX_ROUNDS, "step": 1}),
        error_messages={
            "invalid": f"Give the rounds as a whole number from 1 to {MAX_ROUNDS}.",
            "min_value": f"Pick between 1 and {MAX_ROUNDS} rounds.",
            "max_value": f"Pick between 1 and {MAX_ROUNDS} rounds.",
        },
    )

    context = forms.ChoiceField(
        label="Context",
        required=False,
        help_text="Your own project, assignment or repository for the personas to work from.",
        error_messages={"invalid_choice": "Pick one of your own projects, assignments or repositories."},
    )

    recall_all_insights = forms.BooleanField(
        label="With no context, recall insights from all my debates",
        required=False,
        help_text="Without a context a debate recalls none of your earlier debates' insights, so "
        "nothing from an unrelated project creeps in. With a context it recalls that project's.",
    )

    # "Re-run with a swap" (atlas/): the debate this one re-runs, so the two are linked.
    rerun_of = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, deck: Deck | None = None, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.deck = deck
        self.user = user
        # Every registered mode can be started (one added by a spec row, too): its row is its offer.
        self.fields["mode"].choices = [(spec.key, spec.label) for spec in modes_available()]
        # The rounds field speaks for the modes whose spec row gives a rounds setting, with its default.
        by_rounds = [spec for spec in modes_available() if spec.rounds_setting]
        # Only those modes show the rounds and auto-continue fields (the page hides them for the
        # others, and static/js/setup_modes.js follows the mode picked).
        self.rounds_modes = " ".join(spec.key for spec in by_rounds)
        self.fields["rounds"].help_text = "; ".join(
            f"{spec.label}: rounds before the synthesis without consensus, 1 to {MAX_ROUNDS} "
            f"(empty: {getattr(settings, spec.rounds_setting)})"
            for spec in by_rounds
        )
        # The seed's decks and personas and the user's own: anyone else's is an invalid choice.
        self.fields["deck"].queryset = decks_visible_to(user=user)
        if deck is not None:
            self.fields["personas"].queryset = deck_personas_for(deck=deck, user=user)
        # The selector lists the user's own only; a value naming anyone else's is an invalid choice.
        self.fields["context"].choices = [("", "None: a general debate")] + (
            context_targets_for(user=user) if user is not None and user.is_authenticated else []
        )

    def clean_context(self):
        """The chosen project, assignment or repository (None for no context)."""
        value = self.cleaned_data.get("context")
        if not value:
            return None
        target = context_target(user=self.user, value=value)
        if target is None:
            raise forms.ValidationError("Pick one of your own projects, assignments or repositories.")
        return target

    def clean_rerun_of(self):
        """The user's own debate, or None: anyone else's, or a mangled id, is dropped, never linked
        (a hidden field's error would stop the debate with nothing shown)."""
        try:
            debate_id = uuid.UUID(self.cleaned_data.get("rerun_of") or "")
        except ValueError:
            return None
        return Debate.objects.filter(pk=debate_id, owner=self.user).first() if self.user else None

    def clean_personas(self):
        personas = self.cleaned_data["personas"]
        if problem := hand_problem(None, len(personas)):
            raise forms.ValidationError(problem)
        return personas

    @property
    def rounds_shown(self) -> bool:
        """Whether the mode picked so far (or the default) is one whose budget is rounds."""
        return self["mode"].value() in self.rounds_modes.split()

    def clean(self):
        data = super().clean()
        personas, spec = data.get("personas"), mode_find(data.get("mode"))
        if personas is not None and spec is not None and (problem := hand_problem(spec, len(personas))):
            self.add_error("personas", problem)  # a fixed-seat mode's hand (its spec row says which)
        if data.get("auto_continue") and data.get("pause_after_round"):
            self.add_error(
                "pause_after_round", "Pick either pausing after each round or continuing automatically, not both."
            )
        return data

    def add_service_errors(self, error) -> None:
        """Show a ValidationError from debates.services next to the field it names."""
        service_errors_add(self, error)


class InterjectionForm(forms.Form):
    """The owner's interjection under the live chat. What it may say is the service's to check
    (debates/services/interjections.py); the form only collects it."""

    kind = forms.ChoiceField(
        choices=Interjection.Kind.choices, initial=Interjection.Kind.QUESTION, widget=forms.RadioSelect
    )
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": MAX_INTERJECTION_LENGTH}),
        max_length=MAX_INTERJECTION_LENGTH,
        error_messages={
            "required": "Type what you want to say to the debate.",
            "max_length": f"Keep an interjection to {MAX_INTERJECTION_LENGTH} characters or fewer.",
        },
    )
    to = forms.ChoiceField(required=False, label="To")
    link = forms.CharField(required=False, max_length=500, label="Link (evidence)")
    document = forms.ChoiceField(required=False, label="Document (evidence)")

    def __init__(self, *args, debate: Debate, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        names = debate.participants.select_related("persona").order_by("seat")
        self.fields["to"].choices = [("", "Whoever is most concerned")] + [
            (p.persona.name, p.persona.name) for p in names
        ]
        documents = Document.objects.filter(
            project__owner_id=debate.owner_id, status=Document.Status.READY
        ).select_related("project")
        self.fields["document"].choices = [("", "No document")] + [
            (str(d.pk), f"{d.project.name}: {d.title}") for d in documents.order_by("project__name", "title")
        ]

    def draft(self) -> InterjectionDraft:
        data = self.cleaned_data
        return InterjectionDraft(
            text=data["text"],
            kind=data["kind"],
            to_name=data["to"],
            link=data["link"],
            document_id=int(data["document"]) if data["document"] else None,
        )
