#!/usr/bin/env bash
# Headless Chromium and its WebDriver for the browser tests (tests/web, tests/demo), and
# Caddy for the reverse proxy's tested configuration (tests/test_deploy.py), from Debian,
# where they are missing and can be installed (as root, or with sudo that asks no
# password). Otherwise it says why, and those tests skip with that reason printed.
set -u
if command -v chromium >/dev/null && command -v chromedriver >/dev/null \
    && command -v caddy >/dev/null; then
    exit 0
fi
packages="chromium chromium-driver fonts-noto-color-emoji caddy"
if [ "$(id -u)" = 0 ]; then
    run=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    run="sudo -n"
else
    echo "browser tests: Chromium is missing and this user cannot install it (apt-get install $packages, as root)" >&2
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "browser tests: Chromium is missing and this is not a Debian-like system (no apt-get)" >&2
    exit 0
fi
echo "installing $packages for the browser tests (apt-get)..." >&2
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq >/dev/null && $run apt-get install -y -qq --no-install-recommends $packages >/dev/null \
    || echo "browser tests: apt-get could not install $packages" >&2
exit 0
