"""Every test run keeps the model response cache in its own temporary folder, never the user's; and
every test module closes the descriptors it opens (runners, sandboxes, indexes, engine clients)."""
from __future__ import annotations

import gc
import os

import pytest

# what a module may leave open: process-wide things opened once, on first use (an embedding model's
# files and caches); a leaking owner (a runner never closed) leaves dozens per module, and the long
# test process once passed 1024 descriptors (select.select failed in the docker sandbox)
LEAK_LIMIT = 32


@pytest.fixture(autouse=True, scope="session")
def _private_response_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("REPOTRANS_CACHE_DIR", str(tmp_path_factory.mktemp("response-cache")))
    yield
    mp.undo()


def _descriptors() -> dict[str, str]:
    """This process's open descriptors: number -> what it points at."""
    found = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            found[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass
    return found


@pytest.fixture(autouse=True, scope="module")
def _the_module_closes_what_it_opens():
    if not os.path.isdir("/proc/self/fd"):
        yield
        return
    before = _descriptors()
    yield
    gc.collect()
    left = sorted(target for fd, target in _descriptors().items() if before.get(fd) != target)
    if len(left) > LEAK_LIMIT:
        pytest.fail(f"this module left {len(left)} descriptors open (at most {LEAK_LIMIT}), e.g. {left[:6]}: "
                    "close what its tests open (a fixture that yields and closes it)", pytrace=False)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With -n N (scripts/test.sh): whole modules per worker, shared resources in one (support/xdist_schedule.py)."""
    from tests.support.xdist_schedule import ModuleScheduling

    return ModuleScheduling(config, log)
