#!/usr/bin/env bash
# Create the peers' benchmark environment, bench/.peers/venv (never a project dependency).
# Idempotent: does nothing when the pinned versions are already there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
venv="$here/.peers/venv"
pins=(dominoes==6.1.0 all-fives-domino==1.0.23)

if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "${pins[@]}" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version

for pin in sys.argv[1:]:
    name, want = pin.split("==")
    if version(name) != want:
        sys.exit(1)
PY
    echo "peers already installed in $venv"
    exit 0
fi

python="${PYTHON:-}"
if [ -z "$python" ]; then
    if [ -x "$root/.venv/bin/python" ]; then
        python="$root/.venv/bin/python"  # the same interpreter as ours, for a fair comparison
    else
        python="python3"
    fi
fi
# Resolve a venv's python to its base interpreter so the peer venv does not nest in ours.
base="$("$python" -c 'import sys; print(sys._base_executable)')"
rm -rf "$venv"
mkdir -p "$here/.peers"
"$base" -m venv "$venv"
if [ -x "$root/.venv/bin/uv" ]; then
    UV_PYTHON_DOWNLOADS=never "$root/.venv/bin/uv" pip install -q -p "$venv/bin/python" "${pins[@]}"
else
    "$venv/bin/pip" --isolated --disable-pip-version-check install -q "${pins[@]}"
fi
echo "peers installed in $venv: ${pins[*]}"
