"""Import of persona contracts, and loading the shipped seed.

Every import takes the same road, whether it comes from a file, a folder, an admin upload or the
seed: read every file, validate every file, and only then write, in one transaction. A bad file is
reported by name and field, and nothing at all is written.
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from django.db import transaction
from pydantic import ValidationError

from gateways.input_rules import contains_nul
from personas.contracts import (
    DECK_LIST,
    DECKS_FILE,
    DeckContract,
    PersonaContract,
    contract_error_messages,
)
from personas.models import AnchorExcerpt, Deck, Persona
from personas.selectors import deck_list, persona_list, visible_to
from personas.services.contract_export import deck_contract_dict, persona_contract_dict

SEED_DIR = Path(__file__).resolve().parent.parent / "seed"
MAX_ARCHIVE_BYTES = 20 * 1024 * 1024
# A contract is a few kilobytes and a few levels deep; anything far beyond is refused up front,
# before it can exhaust memory or the parser's recursion.
MAX_CONTRACT_BYTES = 1024 * 1024
MAX_JSON_NESTING = 32


class PersonaImportError(Exception):
    """Nothing was imported. ``errors`` holds one line per problem, each naming file and field."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass
class ImportResult:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    decks_created: list[str] = field(default_factory=list)
    decks_updated: list[str] = field(default_factory=list)
    decks_unchanged: list[str] = field(default_factory=list)

    def summary_lines(self) -> list[str]:
        groups = [
            ("Created personas", self.created),
            ("Updated personas", self.updated),
            ("Unchanged personas", self.unchanged),
            ("Created decks", self.decks_created),
            ("Updated decks", self.decks_updated),
            ("Unchanged decks", self.decks_unchanged),
        ]
        return [f"{label} ({len(ids)}): {', '.join(ids)}" for label, ids in groups if ids]


@dataclass(frozen=True)
class _ContractFile:
    label: str  # how messages name the file: the path as given, or "upload.zip/inner/name.json"
    name: str  # the bare file name; "decks.json" holds decks, anything else one persona
    content: bytes


# ── Import ───────────────────────────────────────────────────────────────────────────────────


def persona_import(*, path: Path) -> ImportResult:
    """Import one contract file, or every ``*.json`` in a folder (``decks.json`` holds decks).

    A persona already in the database is updated in place and its anchor excerpts replaced; a deck
    already there gets exactly the members the file lists. Raises PersonaImportError, having
    written nothing, if any file is bad.
    """
    return _contract_files_import(files=_contract_files_at(Path(path)))


def persona_import_upload(*, filename: str, content: bytes) -> ImportResult:
    """Import an uploaded ``.json`` contract (or ``decks.json``), or a ``.zip`` of them."""
    name = PurePosixPath(filename.replace("\\", "/")).name
    if name.lower().endswith(".zip"):
        files = _contract_files_in_zip(zip_name=name, content=content)
    elif name.lower().endswith(".json"):
        files = [_ContractFile(label=name, name=name, content=content)]
    else:
        raise PersonaImportError([f"{name}: upload a .json contract or a .zip of them"])
    return _contract_files_import(files=files)


def persona_import_owned(*, owner, filename: str, content: bytes) -> tuple[Persona, bool]:
    """Import one contract (an upload or pasted text) as ``owner``'s own persona.

    A personaId the owner already has updates that persona in place (excerpts replaced); one the
    seed has is refused, so a user can never overwrite what is not theirs; any other creates a
    private persona. Ids are unique per owner: other users' private personas are never looked at,
    so the answer never tells whether one of them has this id. Returns the persona and whether it
    was created.
    Raises PersonaImportError, having written nothing, naming the file and field of each problem.
    """
    file = _ContractFile(label=filename, name=filename, content=content)
    data, problem = _json_load(file)
    if problem:
        raise PersonaImportError([problem])
    try:
        contract = PersonaContract.model_validate(data)
    except ValidationError as exc:
        raise PersonaImportError([f"{filename}: {message}" for message in contract_error_messages(exc)]) from exc
    with transaction.atomic():
        taken = Persona.objects.select_for_update().filter(visible_to(owner), persona_id=contract.persona_id)
        if any(persona.owner_id is None for persona in taken):
            raise PersonaImportError(
                [
                    f"{filename}: personaId: '{contract.persona_id}' belongs to a shared persona; "
                    "give this contract a personaId of its own (or clone that persona from its page)"
                ]
            )
        created = not taken
        persona = _persona_write(contract=contract, result=ImportResult(), owner=owner)
    return persona, created


# Older `manage.py evaluate` runs left ownerless "eval-…" personas behind (migration 0005 removes
# them; the evaluation now works under a throwaway owner). They are never the seed: they must not
# keep it from loading.
EVALUATION_LEFTOVER_PREFIX = "eval-"


def persona_seed_load(*, force: bool = False) -> ImportResult | None:
    """Import the shipped seed unless seed personas already exist (``force`` re-imports it anyway);
    users' own personas do not count."""
    seeds = Persona.objects.filter(owner__isnull=True).exclude(persona_id__startswith=EVALUATION_LEFTOVER_PREFIX)
    if not force and seeds.exists():
        return None
    return persona_import(path=SEED_DIR)


def _contract_files_at(path: Path) -> list[_ContractFile]:
    if path.is_dir():
        paths = sorted(
            child
            for child in path.iterdir()
            if child.is_file() and child.suffix.lower() == ".json" and not child.name.startswith(".")
        )
        if not paths:
            raise PersonaImportError([f"{path}: no .json contract files in this folder"])
    elif path.is_file():
        paths = [path]
    else:
        raise PersonaImportError([f"{path}: no such file or folder"])
    too_large = [each for each in paths if each.stat().st_size > MAX_CONTRACT_BYTES]
    if too_large:
        raise PersonaImportError([_too_large(str(each), each.stat().st_size) for each in too_large])
    return [_ContractFile(label=str(each), name=each.name, content=each.read_bytes()) for each in paths]


def _contract_files_in_zip(*, zip_name: str, content: bytes) -> list[_ContractFile]:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            members = sorted(
                (info for info in archive.infolist() if not info.is_dir() and _is_contract_member(info.filename)),
                key=lambda info: info.filename,
            )
            if not members:
                raise PersonaImportError([f"{zip_name}: no .json contract files in this archive"])
            if sum(info.file_size for info in members) > MAX_ARCHIVE_BYTES:
                raise PersonaImportError([f"{zip_name}: too large once unpacked (limit {MAX_ARCHIVE_BYTES} bytes)"])
            return [
                _ContractFile(
                    label=f"{zip_name}/{info.filename}",
                    name=PurePosixPath(info.filename).name,
                    content=archive.read(info),
                )
                for info in members
            ]
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError) as exc:
        raise PersonaImportError([f"{zip_name}: not a readable .zip file ({exc})"]) from exc


def _is_contract_member(member: str) -> bool:
    parts = PurePosixPath(member).parts
    hidden = any(part.startswith(".") or part == "__MACOSX" for part in parts)
    return bool(parts) and not hidden and parts[-1].lower().endswith(".json")


class _DuplicateKey(ValueError):
    pass


def _reject_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    data = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def _too_large(label: str, size: int) -> str:
    return f"{label}: too large for a contract ({size} bytes; the limit is {MAX_CONTRACT_BYTES})"


def _nesting_depth(data: object) -> int:
    """How deep lists and objects nest (0 for a plain value); counting stops past the limit."""
    deepest, pending = 0, [(data, 1)]
    while pending and deepest <= MAX_JSON_NESTING:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in (value.values() if isinstance(value, dict) else value))
    return deepest


def _json_load(file: _ContractFile) -> tuple[object, str | None]:
    """The parsed JSON, or an error line naming the file (and line/column for syntax errors)."""
    if len(file.content) > MAX_CONTRACT_BYTES:
        return None, _too_large(file.label, len(file.content))
    too_deep = f"{file.label}: invalid contract: JSON nested more than {MAX_JSON_NESTING} levels deep"
    try:
        text = file.content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, f"{file.label}: not UTF-8 text"
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicate_keys)
    except json.JSONDecodeError as exc:
        return None, f"{file.label}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except _DuplicateKey as exc:
        return None, f"{file.label}: invalid JSON: key '{exc}' appears twice in one object"
    except RecursionError:
        return None, too_deep
    except ValueError:
        # Python refuses to turn more than sys.get_int_max_str_digits() digits into an int (the
        # quadratic-time guard); no contract field is a number, let alone one that long.
        return None, f"{file.label}: invalid JSON: a number longer than {sys.get_int_max_str_digits()} digits"
    if _nesting_depth(data) > MAX_JSON_NESTING:
        return None, too_deep
    if contains_nul(data):  # PostgreSQL keeps no NUL in text (gateways/input_rules.py)
        return None, f"{file.label}: invalid contract: a NUL character in a name or a value"
    return data, None


def _contract_files_import(*, files: list[_ContractFile]) -> ImportResult:
    contracts: dict[str, PersonaContract] = {}
    defined_in: dict[str, str] = {}
    decks: list[tuple[str, DeckContract]] = []
    errors: list[str] = []

    for file in files:
        data, problem = _json_load(file)
        if problem:
            errors.append(problem)
            continue
        try:
            if file.name == DECKS_FILE:
                decks.extend((file.label, deck) for deck in DECK_LIST.validate_python(data))
                continue
            contract = PersonaContract.model_validate(data)
        except ValidationError as exc:
            errors.extend(f"{file.label}: {message}" for message in contract_error_messages(exc))
            continue
        if contract.persona_id in contracts:
            errors.append(
                f"{file.label}: personaId: '{contract.persona_id}' is also defined in {defined_in[contract.persona_id]}"
            )
            continue
        contracts[contract.persona_id] = contract
        defined_in[contract.persona_id] = file.label

    errors.extend(_deck_problems(decks=decks, imported_ids=set(contracts)))
    if errors:
        raise PersonaImportError(errors)

    result = ImportResult()
    with transaction.atomic():
        for contract in contracts.values():
            _persona_write(contract=contract, result=result)
        for label, deck in decks:
            _deck_write(deck=deck, label=label, result=result)
    return result


def _deck_problems(*, decks: list[tuple[str, DeckContract]], imported_ids: set[str]) -> list[str]:
    problems = []
    referenced = {persona_id for _, deck in decks for persona_id in deck.persona_ids}
    # A deck in an import is a shared deck: its members are shared (seed) personas, never a user's.
    known = imported_ids | set(
        Persona.objects.filter(owner__isnull=True, persona_id__in=referenced - imported_ids).values_list(
            "persona_id", flat=True
        )
    )
    seen: dict[str, str] = {}
    for label, deck in decks:
        if deck.slug in seen:
            problems.append(f"{label}: deck '{deck.slug}': listed more than once (also in {seen[deck.slug]})")
        seen[deck.slug] = label
        unknown = [persona_id for persona_id in deck.persona_ids if persona_id not in known]
        if unknown:
            problems.append(
                f"{label}: deck '{deck.slug}': personaIds: unknown persona {', '.join(repr(p) for p in unknown)} "
                "(not in this import nor in the database)"
            )
    return problems


def _persona_write(*, contract: PersonaContract, result: ImportResult, owner=None) -> Persona:
    existing = persona_list(persona_ids=[contract.persona_id]).filter(owner=owner).select_for_update().first()
    if existing is not None and _persona_contract(existing) == contract:
        result.unchanged.append(contract.persona_id)
        return existing
    persona = existing or Persona(persona_id=contract.persona_id, owner=owner)
    persona.version = contract.version
    persona.name = contract.name
    persona.tagline = contract.tagline
    persona.personality = contract.personality
    persona.bias = contract.bias
    persona.stakes = contract.stakes
    persona.epistemology = contract.epistemology
    persona.time_horizon = contract.time_horizon
    persona.flip_conditions = contract.flip_conditions
    persona.evidence_policy = contract.evidence_policy.model_dump(by_alias=True)
    persona.speech_patterns = contract.voice.speech_patterns
    persona.vocabulary = contract.voice.vocabulary
    persona.forbidden_phrases = contract.voice.forbidden_phrases
    persona.voice_examples = [example.model_dump(by_alias=True) for example in contract.voice.voice_examples]
    persona.save()
    if existing is not None:
        persona.anchor_excerpts.all().delete()
    AnchorExcerpt.objects.bulk_create(
        AnchorExcerpt(
            persona=persona,
            excerpt_id=excerpt.id,
            content=excerpt.content,
            source=excerpt.source,
            date=excerpt.date,
            position=position,
        )
        for position, excerpt in enumerate(contract.anchor_excerpts)
    )
    (result.created if existing is None else result.updated).append(contract.persona_id)
    return persona


def _persona_contract(persona: Persona) -> PersonaContract | None:
    try:
        return PersonaContract.model_validate(persona_contract_dict(persona))
    except ValidationError:
        return None  # a row edited outside the admin; the import overwrites it


def _deck_write(*, deck: DeckContract, label: str, result: ImportResult) -> None:
    personas = list(Persona.objects.filter(owner__isnull=True, persona_id__in=deck.persona_ids))
    if len(personas) != len(deck.persona_ids):
        # Checked before the transaction; a persona deleted meanwhile must still roll it all back.
        raise PersonaImportError([f"{label}: deck '{deck.slug}': personaIds: a persona disappeared during the import"])
    existing = deck_list().filter(slug=deck.slug).first()
    if existing is not None and deck_contract_dict(existing) == _deck_contract_dict_of(deck):
        result.decks_unchanged.append(deck.slug)
        return
    row = existing or Deck(slug=deck.slug)
    row.name = deck.name
    row.description = deck.description
    row.topic_area = deck.topic_area
    row.save()
    row.personas.set(personas)
    (result.decks_created if existing is None else result.decks_updated).append(deck.slug)


def _deck_contract_dict_of(deck: DeckContract) -> dict:
    return {**deck.model_dump(by_alias=True), "personaIds": sorted(deck.persona_ids)}
