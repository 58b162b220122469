"""Shared test configuration: the development tools' pytest plugin (the fake Discord's
``fake_discord`` fixture and a throwaway PostgreSQL server), pytester, with which the
fake's own tests check that a violation fails a test, and Hypothesis's profiles.

Hypothesis runs few examples a property by default ("dev", for a quick `make test` on a
laptop) and its full counts under the "ci" profile: loaded where the environment variable
``CI`` is set (``.ci/run`` sets it), or by name with ``HYPOTHESIS_PROFILE=ci`` (or
``pytest --hypothesis-profile=ci``). A property that asks for more examples than
Hypothesis's default takes them under "ci" only (``tests.engine.helpers.examples``).

The tests run in parallel (pytest-xdist, ``-n auto`` in pyproject's addopts: two workers a
core, the slow tests dealt out first); ``-n 0`` runs them in this one process. The fake
Discord's schema checks are remembered by body for the whole process.
"""

import functools
import itertools
import os
from collections import OrderedDict
from collections.abc import Iterator

import orjson
import pytest
from hypothesis import settings

from devtools.fakediscord.schema import RequestValidator

pytest_plugins = ["pytester", "devtools.plugin"]

SORTED = orjson.OPT_SORT_KEYS

#: Examples a property runs under each profile (Hypothesis's own default under "ci").
DEV_EXAMPLES, CI_EXAMPLES = 20, 100

# "ci" keeps what Hypothesis's own CI profile sets (derandomized, no deadline, no example
# database, reproduction blobs printed), with the full count of examples.
settings.register_profile("ci", settings.get_profile("ci"), max_examples=CI_EXAMPLES)
settings.register_profile(
    "dev", settings.get_profile("default"), max_examples=DEV_EXAMPLES, deadline=None
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if "CI" in os.environ else "dev")
)


@pytest.fixture(autouse=True)
def seasoned(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test's servers and people are old hands, whose stores are new only because a
    test's is: a lobby gets the server's usual difficulty, and nobody a first move or the
    first game's picture (bot.game.newcomers). A test marked ``first_games`` has them new,
    as they are."""
    if request.node.get_closest_marker("first_games") is None:
        from bot.game import newcomers

        monkeypatch.setattr(newcomers, "offer", lambda newness, asked: None)
        monkeypatch.setattr(newcomers, "seated", lambda table, newness, people: None)


#: How long a start waits for the fake Discord to open its game's thread. Production
#: waits 1 s (Discord answers in tens of ms, and the start must answer within 3 s); on a
#: busy 2-core CI machine the fake once took longer, and the game played in its channel.
THREAD_WAIT = 10.0


@pytest.fixture(autouse=True)
def patient_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread the fake is slow to open under load still opens (no test waits for the
    wait to run out: a refused thread is tested through Discord's answers)."""
    from bot.discord import threads

    monkeypatch.setattr(threads, "OPEN_WAIT", THREAD_WAIT)


@pytest.fixture(scope="session", autouse=True)
def schema_checks_remembered() -> Iterator[None]:
    """The fake Discord checks every request body against Discord's OpenAPI description;
    the check is a pure function of the body, and the largest body, the command list each
    bot start syncs (about 0.1 s of schema walking), is the same every time: each distinct
    body is checked once a test process, its answer remembered (the 4,096 latest)."""
    check = RequestValidator.validate
    answers: OrderedDict[tuple, object] = OrderedDict()

    @functools.wraps(check)
    def remembered(self, method: str, path_template: str, body):
        try:
            key = (id(self), method, path_template, orjson.dumps(body, option=SORTED))
        except TypeError:  # not JSON as orjson writes it: checked every time
            return check(self, method, path_template, body)
        if key in answers:
            answers.move_to_end(key)
            return answers[key]
        answer = answers[key] = check(self, method, path_template, body)
        if len(answers) > 4096:
            answers.popitem(last=False)
        return answer

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RequestValidator, "validate", remembered)
        yield


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the default, pyproject's addopts): two workers a core, at most eight.
    Much of a test's time is waiting (the bot's timers, a process starting, Discord's 5 s
    between two IDENTIFYs), so two tests a core keep the cores busy. The environment
    variable PYTEST_XDIST_AUTO_NUM_WORKERS still decides where set (``-n 0``: no workers)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own reading of it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(2 * (cores or 1), 8)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In parallel, each worker starts with its share of the tests marked slow (tens of
    seconds each), so that they run side by side from the start and the short tests fill
    in around them, rather than one of them starting last.

    pytest-xdist's worksteal scheduling (pyproject's addopts) first hands each worker an
    equal run of the collected tests, in order; idle workers then take over the end of a
    busy one's run. The slow tests are dealt round the runs, at their heads."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return  # one process: the order written
    slow = [item for item in items if item.get_closest_marker("slow")]
    short = iter([item for item in items if not item.get_closest_marker("slow")])
    runs: list[list[pytest.Item]] = [slow[k::workers] for k in range(workers)]
    left = len(items)
    for k, run in enumerate(runs):  # as worksteal sizes them: an equal share of what is left
        size = left // (workers - k)
        run += itertools.islice(short, max(size - len(run), 0))
        left -= len(run)
    items[:] = [item for run in runs for item in run] + list(short)
