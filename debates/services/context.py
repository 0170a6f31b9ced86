"""A debate's context (a project, an assignment or a repository of its owner's): chosen when the
debate is created, assembled once there under its token budget (projects/context.py), kept on the
debate, and put into the stable prompt prefix of every persona and extraction call as its own
section, so the prompt cache keeps it from one call to the next."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError

from debates import prompts as words
from debates.budget import Section, clip, estimate_tokens
from debates.models import Debate
from projects.context import context_assemble
from projects.models import Assignment, Project, Repository
from projects.services import repository_activity_refresh


def _frame(label: str) -> tuple[str, str]:
    head = Section(words.CONTEXT_TITLE.format(label=label), 0).header
    return f"{head}\n{words.CONTEXT_PREAMBLE}\n", "\n" + Section(words.CONTEXT_END, 0).header


def _body_budget(label: str) -> int:
    """What is left of the budget for the material once the section's frame is counted."""
    head, tail = _frame(label)
    return max(0, settings.FAULTLINE_CONTEXT_TOKENS - estimate_tokens(head + tail) - 1)


def context_fields(*, owner, target: Project | Assignment | Repository | None) -> dict:
    """The Debate fields for a context ``target``: refused unless it is the owner's own."""
    if target is None:
        return {"context_type": Debate.ContextType.NONE}
    project = target if isinstance(target, Project) else target.project
    if owner is None or project.owner_id != owner.pk:
        raise ValidationError({"context": "Pick one of your own projects, assignments or repositories."})
    label = context_assemble(target=target, budget=0).label[:300]
    assembled = context_assemble(target=target, budget=_body_budget(label))
    return {
        "context_type": assembled.type,
        "context_project": project,
        "context_assignment": target if isinstance(target, Assignment) else None,
        "context_repository": target if isinstance(target, Repository) else None,
        "context_label": label,
        "context_text": assembled.text,
    }


def context_read_again(*, owner, target: Project | Assignment | Repository | None) -> None:
    """Before a debate is made (outside its transaction): what moves between debates is read
    again, a GitHub repository's open issues and pull requests. Never raises (the ones read
    before are used); only the owner's own repository is read."""
    if isinstance(target, Repository) and owner is not None and target.project.owner_id == owner.pk:
        repository_activity_refresh(repository=target)


def context_section(debate: Debate) -> str:
    """The context as a prompt section ('' for a debate without one), never past its budget."""
    if debate.context_type == Debate.ContextType.NONE or not debate.context_text:
        return ""
    head, tail = _frame(debate.context_label)
    return head + clip(debate.context_text, _body_budget(debate.context_label)) + tail


def side_work_prompt(instruction: str, debate: Debate) -> dict:
    """The system part of a side call's prompt (ledger, detection, round record, card...), as
    ``Prompt(**side_work_prompt(INSTRUCTION, debate), messages=...)``.

    A debate with a context (its owner's project...) puts the context first, with the question,
    as one prefix every side call of the debate shares byte for byte, and the job's instruction
    after it: the ledger keeper, the detector and the card writer then read one cached prefix,
    once it is long enough for the model to cache (gateways/llm/pricing.py). Without a context
    there is nothing to share: the instruction alone is the prefix, as short as it can be (a
    longer shared frame would be paid on every call and cached on none). The order of every
    prompt: orchestration/prompts.py.

    Once planning has set the yes/no question the verdict is about (debates/question.py), the
    instruction says it: a speaker's side in the position ledger is the answer to that question,
    not to an open topic's literal words."""
    instruction = _with_question(instruction, debate)
    section = context_section(debate)
    if not section:
        return {"system_prefix": instruction, "system": ""}
    return {"system_prefix": words.SIDE_WORK_FRAME.format(topic=debate.topic, context=section), "system": instruction}


def _with_question(instruction: str, debate: Debate) -> str:
    if debate.no_yes_no:
        return f"{instruction}\n\n{words.NO_QUESTION_DECIDED}"
    if debate.decided_on and debate.decided_on != debate.topic:
        return f"{instruction}\n\n{words.QUESTION_DECIDED.format(question=debate.decided_on)}"
    return instruction


def with_context(system_prefix: str, debate: Debate) -> str:
    """An extraction prompt's stable prefix with the debate's context after it."""
    section = context_section(debate)
    return f"{system_prefix}\n\n{section}" if section else system_prefix


def context_value(*, debate: Debate) -> str:
    """The setup form's value for the debate's context ('project:<id>', ...), '' when it had none
    or its target is gone: what "Ask a new question" prefills."""
    target = {
        Debate.ContextType.PROJECT: ("project", debate.context_project_id),
        Debate.ContextType.ASSIGNMENT: ("assignment", debate.context_assignment_id),
        Debate.ContextType.REPOSITORY: ("repository", debate.context_repository_id),
    }.get(debate.context_type)
    return f"{target[0]}:{target[1]}" if target and target[1] else ""
