#!/bin/sh
# Debian's chromium for the browser tests (Playwright drives /usr/bin/chromium and never downloads a
# browser): nothing to do when it is there; else installed with apt-get (as root, or through sudo).
set -e
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "the browser tests need Debian's chromium at /usr/bin/chromium (no apt-get here: install it, or set PLAY_CHROMIUM)" >&2
    exit 1
fi
as_root=""
if [ "$(id -u)" != 0 ]; then
    as_root="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -q
$as_root apt-get install -y -q chromium
