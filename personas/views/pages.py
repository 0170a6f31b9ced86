"""Persona pages for users: browse decks and personas, read a persona's contract and voice, edit,
clone, import and export contracts, build decks of one's own.

Users see the seed (no owner) and their own; anyone else's persona or deck is a 404 on every URL
here, so its existence is not revealed. Views are short: access, form, service, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from gateways.input_rules import object_id
from gateways.pages import confirm_delete, form_page
from personas import selectors
from personas.corpus.selectors import corpus_document_list
from personas.forms import CONTRACT_TEXTS, PHRASE_PARTS, ContractImportForm, DeckForm, PersonaContractForm
from personas.models import Deck, Persona
from personas.services import PersonaImportError, persona_contract_json, studio
from personas.services.contract_import import persona_import_owned

# An import with hundreds of problems would bury the page; the first ones are enough to act on.
MAX_ERROR_LINES = 25


def _visible_persona(request, pk) -> Persona:
    persona = selectors.persona_detail_for(user=request.user, pk=pk)
    if persona is None:
        raise Http404("No such persona.")
    return persona


def _own_persona(request, pk) -> Persona:
    return get_object_or_404(Persona, pk=pk, owner=request.user)


def _own_deck(request, pk) -> Deck:
    return get_object_or_404(Deck, pk=pk, owner=request.user)


# Seconds between two looks at work a worker is doing (the page polls with htmx).
POLL_SECONDS = 2

# Which fields of the contract form go under which heading (personas/partials/contract_form.html).
CONTRACT_FORM_PARTS = {
    "contract_fields": [*CONTRACT_TEXTS, "evidence_policy"],
    "voice_fields": [*PHRASE_PARTS, "voice_examples"],
}


# ── personas ──────────────────────────────────────────────────────────────────────────────────


@login_required
def persona_list(request):
    return render(
        request,
        "personas/list.html",
        {
            "decks": selectors.decks_visible_to(user=request.user),
            "own_personas": selectors.personas_owned_by(user=request.user),
            "builds": selectors.persona_builds_open(user=request.user),
            "seed_personas": selectors.personas_visible_to(user=request.user).filter(owner__isnull=True),
        },
    )


@login_required
def persona_detail(request, pk):
    persona = _visible_persona(request, pk)
    own_decks = Deck.objects.filter(owner=request.user).order_by("name")
    return render(
        request,
        "personas/detail.html",
        {
            "persona": persona,
            "is_own": persona.owner_id == request.user.pk,
            "decks": selectors.decks_visible_to(user=request.user).filter(personas=persona),
            "own_decks": own_decks.exclude(personas=persona),
            "documents": corpus_document_list(persona=persona),
            "upload": selectors.corpus_upload_latest(persona=persona) if persona.owner_id == request.user.pk else None,
            "poll_seconds": POLL_SECONDS,
        },
    )


@login_required
def persona_edit(request, pk):
    persona = _own_persona(request, pk)

    def save(form):
        studio.persona_save(persona=form.save(commit=False), user=request.user, fields=list(form.fields))
        messages.success(request, f"Saved “{persona.name}”.")
        return redirect("persona_detail", pk=persona.pk)

    form = PersonaContractForm(request.POST or None, instance=persona)
    context = {"persona": persona, **CONTRACT_FORM_PARTS}
    return form_page(request, form, save=save, template="personas/edit.html", context=context)


@login_required
@require_POST
def persona_clone(request, pk):
    copy = studio.persona_clone(persona=_visible_persona(request, pk), owner=request.user)
    messages.success(request, f"Cloned into “{copy.name}”: yours to edit.")
    return redirect("persona_edit", pk=copy.pk)


@login_required
def persona_export(request, pk):
    persona = _visible_persona(request, pk)
    response = HttpResponse(persona_contract_json(persona).encode(), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{persona.persona_id}.json"'
    return response


@login_required
def persona_delete(request, pk):
    persona = _own_persona(request, pk)
    return confirm_delete(
        request,
        thing=persona,
        what="persona, its voice and its excerpts",
        cancel_url=persona.get_absolute_url(),
        done_url=reverse("persona_list"),
        delete=lambda: studio.persona_delete(persona=persona, user=request.user),
        done_message=f"Deleted the persona “{persona.name}”.",
    )


@login_required
def persona_import(request):
    form = ContractImportForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            persona, created = persona_import_owned(
                owner=request.user, filename=data["filename"], content=data["content"]
            )
        except PersonaImportError as error:
            errors = error.errors
        else:
            messages.success(request, f"{'Imported' if created else 'Updated'} “{persona.name}”.")
            return redirect("persona_detail", pk=persona.pk)
    return render(
        request,
        "personas/import.html",
        {"form": form, "errors": errors[:MAX_ERROR_LINES], "more_errors": max(0, len(errors) - MAX_ERROR_LINES)},
    )


# ── decks ─────────────────────────────────────────────────────────────────────────────────────


@login_required
def deck_new(request):
    def save(form):
        deck = studio.deck_create(
            owner=request.user,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            topic_area=form.cleaned_data["topic_area"],
            personas=form.cleaned_data["personas"],
        )
        messages.success(request, f"Created the deck “{deck.name}”.")
        return redirect("deck_detail", pk=deck.pk)

    form = DeckForm(
        request.POST or None,
        initial={"personas": request.GET.getlist("persona")},
        personas=selectors.personas_visible_to(user=request.user),
    )
    return form_page(request, form, save=save, template="personas/deck_form.html", context={"title": "New deck"})


@login_required
def deck_detail(request, pk):
    deck = get_object_or_404(selectors.decks_visible_to(user=request.user), pk=pk)
    return render(
        request,
        "personas/deck.html",
        {"deck": deck, "is_own": deck.owner_id == request.user.pk, "personas": deck.personas.all()},
    )


@login_required
def deck_edit(request, pk):
    deck = _own_deck(request, pk)

    def save(form):
        studio.deck_save(deck=form.save(commit=False), user=request.user, personas=form.cleaned_data["personas"])
        messages.success(request, f"Saved the deck “{deck.name}”.")
        return redirect("deck_detail", pk=deck.pk)

    form = DeckForm(request.POST or None, instance=deck, personas=selectors.personas_visible_to(user=request.user))
    context = {"deck": deck, "title": f"Edit “{deck.name}”"}
    return form_page(request, form, save=save, template="personas/deck_form.html", context=context)


@login_required
@require_POST
def deck_add_persona(request, pk):
    deck = _own_deck(request, pk)
    persona = _visible_persona(request, object_id(request.POST.get("persona")))
    studio.deck_add_persona(deck=deck, persona=persona, user=request.user)
    messages.success(request, f"Added “{persona.name}” to the deck “{deck.name}”.")
    return redirect(persona if request.POST.get("next") == "persona" else deck)


@login_required
@require_POST
def deck_remove_persona(request, pk, persona_pk):
    deck = _own_deck(request, pk)
    persona = get_object_or_404(deck.personas.all(), pk=persona_pk)
    studio.deck_remove_persona(deck=deck, persona=persona, user=request.user)
    messages.success(request, f"Took “{persona.name}” out of the deck “{deck.name}”.")
    return redirect("deck_detail", pk=deck.pk)


@login_required
def deck_delete(request, pk):
    deck = _own_deck(request, pk)
    return confirm_delete(
        request,
        thing=deck,
        what="deck (not its personas)",
        cancel_url=deck.get_absolute_url(),
        done_url=reverse("persona_list"),
        delete=lambda: studio.deck_delete(deck=deck, user=request.user),
        done_message=f"Deleted the deck “{deck.name}”; its personas are still yours.",
    )
