"""Renaming and deleting a debate: its owner's, one page each, no JavaScript needed."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render

from debates.services import lifecycle
from debates.views.access import debate_for_owner


class RenameForm(forms.Form):
    topic = forms.CharField(
        max_length=lifecycle.MAX_TOPIC_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": "Type a topic for the debate."},
    )


@login_required
def debate_rename(request, debate_id):
    debate = debate_for_owner(request, debate_id)
    form = RenameForm(request.POST or None, initial={"topic": debate.topic})
    if request.method == "POST" and form.is_valid():
        try:
            lifecycle.debate_rename(debate=debate, topic=form.cleaned_data["topic"])
        except ValidationError as error:
            form.add_error("topic", error.message_dict.get("topic", error.messages))
        else:
            messages.info(request, "Renamed.")
            return redirect("debate_live", debate_id=debate.id)
    return render(request, "debates/rename.html", {"debate": debate, "form": form})


@login_required
def debate_delete(request, debate_id):
    """GET asks for confirmation; POST deletes."""
    debate = debate_for_owner(request, debate_id)
    error = ""
    if request.method == "POST":
        try:
            lifecycle.debate_delete(debate=debate)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.info(request, f"Deleted “{debate.topic}”.")
            return redirect("debate_archive")
    return render(request, "debates/delete.html", {"debate": debate, "error": error}, status=409 if error else 200)
