#!/usr/bin/env bash
# Writes requirements/run.lock and requirements/test.lock (`make lock`): pyproject.toml's
# dependencies resolved afresh by pip-tools' pip-compile, every package pinned to an exact
# version with the hashes of all its published files (`pip install --require-hashes`
# installs nothing else), and the markers pyproject.toml gives (uvloop: not on Windows).
#
# run.lock: what running needs (`make run`, and the wheel's dependencies in
# tests/test_packaging.py); test.lock: that and the test tools (`make test`, so CI). The
# project itself is left out (it is installed on top, editable, with --no-deps). Commit both
# with the change that asked for them; `make test` then installs and tests exactly those
# versions.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# pip-tools in an environment of its own, on the Python the locks are for
"$python" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --upgrade pip 'pip-tools>=7.4'

compile() {  # compile <lock> <pip-compile options...>
    local lock=$1
    shift
    # into a new file: nothing pinned before is preferred, every version is the newest allowed
    "$work/tools/bin/pip-compile" --quiet --no-header --generate-hashes --allow-unsafe \
        --strip-extras --no-emit-index-url --no-emit-find-links "$@" \
        --output-file "$work/lock" pyproject.toml
    {
        echo "# Written by \`make lock\` (requirements/lock.sh) with $("$work/tools/bin/python" --version): do not edit."
        cat "$work/lock"
    } >"$lock.new"
    rm "$work/lock"
    mv "$lock.new" "$lock"
    echo "wrote $lock ($(grep -c '^[A-Za-z]' "$lock") packages)"
}

compile requirements/run.lock
# setuptools builds the project in the tests (tests/store, tests/test_packaging)
compile requirements/test.lock --extra test
