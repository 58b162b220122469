"""Shared test configuration: the development tools' pytest plugin (the fake Discord's
``fake_discord`` fixture and a throwaway PostgreSQL server), pytester, with which the
fake's own tests check that a violation fails a test, and Hypothesis's profiles.

Hypothesis runs few examples a property by default ("dev", for a quick `make test` on a
laptop) and its full counts under the "ci" profile: loaded where the environment variable
``CI`` is set (``.ci/run`` sets it), or by name with ``HYPOTHESIS_PROFILE=ci`` (or
``pytest --hypothesis-profile=ci``). A property that asks for more examples than
Hypothesis's default takes them under "ci" only (``tests.engine.helpers.examples``).
"""

import os

from hypothesis import settings

pytest_plugins = ["pytester", "devtools.plugin"]

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
