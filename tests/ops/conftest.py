import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def state_dir():
    """A state folder for an embedded PostgreSQL started by a launcher under test.

    Not under pytest's tmp_path: run as root, pgserver runs PostgreSQL as its own user, which must
    be able to reach the folder, and every pytest session as root resets /tmp/pytest-of-root to 0700
    (so another session starting meanwhile would lock the server out of its own data)."""
    path = Path(tempfile.mkdtemp(prefix="faultline-launcher-test-"))
    path.chmod(0o755)
    yield path / "state"
    shutil.rmtree(path, ignore_errors=True)
