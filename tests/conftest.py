"""Every test run keeps the model response cache in its own temporary folder, never the user's."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_response_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("REPOTRANS_CACHE_DIR", str(tmp_path_factory.mktemp("response-cache")))
    yield
    mp.undo()
