#!/usr/bin/env bash
# Writes requirements/run.lock and requirements/test.lock (`make lock`): pyproject.toml's
# dependencies resolved afresh, each set installed into a new virtual environment and frozen.
#
# run.lock: what running needs (`make run`, and the wheel's dependencies in
# tests/test_packaging.py); test.lock: that and the test tools (`make test`, so CI). Every
# package is pinned to the exact version installed, the project itself left out (it is
# installed on top, editable, with --no-deps). Commit both with the change that asked for
# them; `make test` then installs and tests exactly those versions.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

freeze() {  # freeze <venv> <extra> <lock> <packages left out of the lock...>
    local venv=$work/$1 extra=$2 lock=$3
    shift 3
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet ".$extra"
    {
        echo "# Written by \`make lock\` (requirements/lock.sh) with $("$venv/bin/python" --version): do not edit."
        "$venv/bin/python" -m pip freeze --all --exclude pip --exclude apophis-bot "${@/#/--exclude=}"
    } >"$lock.new"
    mv "$lock.new" "$lock"
    echo "wrote $lock ($(grep -vc '^#' "$lock") packages)"
}

# setuptools only builds the project: running does not need it (the tests build a wheel).
freeze run "" requirements/run.lock setuptools
freeze test "[test]" requirements/test.lock
