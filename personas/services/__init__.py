"""What changes personas and decks, by sub-domain:

- ``contract_import``: contract files (a file, a folder, an upload, the seed) into the database;
- ``contract_export``: the database back into the same contract files;
- ``studio``: what a user does with their own personas and decks in the browser;
- ``roles``: the Analyst/Critic mode's plain roles.

The names most callers want are re-exported here.
"""

from personas.services.contract_export import (
    persona_contract_dict,
    persona_contract_json,
    persona_export,
    persona_export_files,
    persona_export_zip,
)
from personas.services.contract_import import (
    MAX_ARCHIVE_BYTES,
    MAX_CONTRACT_BYTES,
    MAX_JSON_NESTING,
    SEED_DIR,
    ImportResult,
    PersonaImportError,
    persona_import,
    persona_import_upload,
    persona_seed_load,
)
from personas.services.roles import RoleSeat, role_personas

__all__ = [
    "MAX_ARCHIVE_BYTES",
    "MAX_CONTRACT_BYTES",
    "MAX_JSON_NESTING",
    "SEED_DIR",
    "ImportResult",
    "PersonaImportError",
    "persona_contract_dict",
    "persona_contract_json",
    "persona_export",
    "persona_export_files",
    "persona_export_zip",
    "persona_import",
    "persona_import_upload",
    "persona_seed_load",
    "RoleSeat",
    "role_personas",
]
