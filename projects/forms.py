from django import forms

from projects.markdown import MARKDOWN_MAX_CHARS
from projects.models import Assignment, Note, Project, Repository
from projects.services import checklist_text


class ProjectForm(forms.ModelForm):
    class Meta:
        model = Project
        fields = ["name", "description", "goals", "status"]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "goals": forms.Textarea(attrs={"rows": 3, "placeholder": "What this project is meant to achieve"}),
        }
        error_messages = {"name": {"required": "Give the project a name."}}


class AssignmentForm(forms.ModelForm):
    checklist_text = forms.CharField(
        label="Checklist",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "[ ] Draft the outline\n[x] Collect sources"}),
        help_text="One task per line; start a line with [x] when it is done.",
    )

    class Meta:
        model = Assignment
        fields = ["name", "brief", "status", "priority"]
        widgets = {"brief": forms.Textarea(attrs={"rows": 4})}
        error_messages = {"name": {"required": "Give the assignment a name."}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["checklist_text"].initial = checklist_text(self.instance.checklist)


class DocumentForm(forms.Form):
    title = forms.CharField(max_length=200, required=False, help_text="Empty: the file's name.")
    file = forms.FileField(
        help_text="A .md, .txt, .pdf or .html file.",
        error_messages={"required": "Choose a file to upload.", "empty": "That file is empty."},
        widget=forms.ClearableFileInput(attrs={"accept": ".md,.markdown,.txt,.pdf,.html,.htm"}),
    )


class RepositoryForm(forms.Form):
    source = forms.ChoiceField(
        choices=Repository.Source.choices, initial=Repository.Source.LOCAL, widget=forms.RadioSelect
    )
    name = forms.CharField(max_length=200, required=False, help_text="Empty: the repository's own name.")
    path = forms.CharField(
        label="Local folder",
        max_length=500,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "/home/me/code/my-repo"}),
        help_text="A git repository on this machine (for GitHub: a local clone to fall back on).",
    )
    url = forms.URLField(
        label="GitHub address",
        required=False,
        assume_scheme="https",
        widget=forms.URLInput(attrs={"placeholder": "https://github.com/owner/name"}),
    )
    archive = forms.FileField(
        required=False,
        help_text="A .zip or .tar.gz of the repository.",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,.tar.gz,.tgz,.tar"}),
    )


class NoteForm(forms.ModelForm):
    content = forms.CharField(
        label="Content (Markdown)",
        required=False,
        max_length=MARKDOWN_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 14}),
        error_messages={"max_length": f"Keep a note to {MARKDOWN_MAX_CHARS:,} characters or fewer."},
    )
    tags_text = forms.CharField(label="Tags", required=False, help_text="Separated by spaces or commas.")

    class Meta:
        model = Note
        fields = ["title", "content"]
        error_messages = {"title": {"required": "Give the note a title."}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["tags_text"].initial = " ".join(self.instance.tags)
