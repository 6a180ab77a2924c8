#!/usr/bin/env bash
# Install what fevga-bot needs on a fresh Debian/Ubuntu machine: redis-server (and openssl), a C compiler and the
# Python headers, the fallback fonts for players' names (apt, each only when missing; the compiler builds
# fevga's optional compiled core)
# and a virtual environment in .venv with the project and its dependencies (pip). Safe to run again.
# Usage: scripts/setup.sh [pip extras, e.g. test]
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_packages=()
command -v redis-server >/dev/null 2>&1 || apt_packages+=(redis-server)
# the TLS cluster tests make a throwaway CA and certificates with the openssl command
command -v openssl >/dev/null 2>&1 || apt_packages+=(openssl)
python3 -m venv --help >/dev/null 2>&1 && python3 -c "import ensurepip" 2>/dev/null || apt_packages+=(python3-venv)
command -v gcc >/dev/null 2>&1 || apt_packages+=(gcc libc6-dev)
python3 -c "import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
  2>/dev/null || apt_packages+=(python3-dev)
# fonts for names as written on the board (CJK, Arabic, Hebrew and other scripts, colour emoji, symbols)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || apt_packages+=(fonts-noto-cjk)
[ -f /usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf ] || apt_packages+=(fonts-noto-core)
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || apt_packages+=(fonts-noto-color-emoji)
[ -f /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ] || apt_packages+=(fonts-symbola)
# The browser tests (tests/browser) drive Debian's chromium through Playwright: only with the test extra.
if [[ ",${1:-}," == *",test,"* ]] && ! command -v chromium >/dev/null 2>&1; then apt_packages+=(chromium); fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  echo "==> installing ${apt_packages[*]} (apt)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  python3 -m venv .venv
fi
extras="${1:-}"
target="."
[ -n "$extras" ] && target=".[$extras]"
echo "==> installing fevga-bot${extras:+ with [$extras]} into .venv (pip)"
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e "$target"
