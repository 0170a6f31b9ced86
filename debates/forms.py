from django import forms
from django.contrib.auth.forms import UserCreationForm

from debates.models import Debate
from debates.services.lifecycle import COLLABORATE_HAND, MAX_HAND, MAX_TOPIC_LENGTH, MIN_HAND
from gateways.pages import service_errors_add
from personas.models import Deck, Persona
from personas.selectors import deck_personas_for, decks_visible_to
from projects.selectors import context_target, context_targets_for

# Modes a user can start today (each has a mode in orchestration/modes/). A mode of
# Debate.Mode that is not listed here is shown on the setup page as "coming soon".
AVAILABLE_MODES = [Debate.Mode.DIALOGUE, Debate.Mode.GRAPH, Debate.Mode.ANALYST_CRITIC, Debate.Mode.COLLABORATE]


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class DebateSetupForm(forms.Form):
    available_modes = [mode.value for mode in AVAILABLE_MODES]

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
        choices=[(mode.value, mode.label) for mode in AVAILABLE_MODES],
        initial=Debate.Mode.DIALOGUE,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Pick one of the modes."},
    )

    auto_continue = forms.BooleanField(
        label="Continue automatically after each round",
        required=False,
        help_text="Analyst vs Critic: run every round without pausing for you to press Continue.",
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

    def __init__(self, *args, deck: Deck | None = None, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.deck = deck
        self.user = user
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

    def clean_personas(self):
        personas = self.cleaned_data["personas"]
        if not MIN_HAND <= len(personas) <= MAX_HAND:
            raise forms.ValidationError(
                f"Pick between {MIN_HAND} and {MAX_HAND} personas (you picked {len(personas)})."
            )
        return personas

    def clean(self):
        data = super().clean()
        personas = data.get("personas")
        if data.get("mode") == Debate.Mode.ANALYST_CRITIC and personas is not None and len(personas) != 2:
            # Seat 0 plays the Analyst, seat 1 the Critic; their worldviews colour the two roles.
            self.add_error("personas", "The Analyst vs Critic mode takes a hand of two: the Analyst and the Critic.")
        if data.get("mode") == Debate.Mode.COLLABORATE and personas is not None and len(personas) != 2:
            self.add_error("personas", COLLABORATE_HAND)  # the Architect (seat 0) and the Reviewer
        return data

    def add_service_errors(self, error) -> None:
        """Show a ValidationError from debates.services next to the field it names."""
        service_errors_add(self, error)
