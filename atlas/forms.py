from django import forms

from atlas.models import Prediction
from atlas.services.predictions import MAX_CLAIM


class PredictionForm(forms.Form):
    """Keep one persona's falsifier on a card as a prediction: an empty claim takes the suggested one."""

    persona = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    claim = forms.CharField(max_length=MAX_CLAIM, required=False, widget=forms.Textarea(attrs={"rows": 2}))
    settled_by = forms.CharField(
        label="What would settle it", max_length=MAX_CLAIM, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    check_by = forms.DateField(label="Check by", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, personas: list[tuple[int, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["persona"].choices = [("", "Nobody in particular")] + list(personas)


class OutcomeForm(forms.Form):
    status = forms.ChoiceField(choices=Prediction.Status.choices, widget=forms.RadioSelect)
    outcome_note = forms.CharField(
        label="What happened", max_length=MAX_CLAIM, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    check_by = forms.DateField(label="Check by", required=False, widget=forms.DateInput(attrs={"type": "date"}))


class RerunForm(forms.Form):
    swap_out = forms.TypedChoiceField(label="Swap out", coerce=int, empty_value=None, required=False)
    swap_in = forms.TypedChoiceField(label="For", coerce=int, empty_value=None, required=False)
    topic = forms.CharField(
        label="Topic (leave as it is, or ask about a related crux)", max_length=2000, required=False
    )

    def __init__(self, *args, hand: list[tuple[int, str]] = (), bench: list[tuple[int, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["swap_out"].choices = [("", "Nobody: the same hand")] + list(hand)
        self.fields["swap_in"].choices = [("", "Nobody")] + list(bench)

    def clean(self):
        data = super().clean()
        if (data.get("swap_out") is None) != (data.get("swap_in") is None):
            raise forms.ValidationError("Pick both who leaves and who joins, or neither for the same hand.")
        return data
