# Sourced by scripts/serve and scripts/test: make .venv and install the project into it.
# pip runs only when pyproject.toml changed since the last install (a stamp holds its hash),
# so a second run starts at once.
# Usage: bootstrap "" (the service) or bootstrap test (with the test tools).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }

bootstrap() {
    local extras="$1" python="${PYTHON:-}" want stamp candidate
    cd "$ROOT"
    if [ ! -x "$PY" ]; then
        if [ -z "$python" ]; then
            for candidate in python3 python3.13 python3.12 python3.11; do
                if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
                    python="$candidate"
                    break
                fi
            done
        fi
        if [ -z "$python" ] || ! new_enough "$python"; then
            echo "Python 3.11 or newer is needed: install it, or set PYTHON=/path/to/python3.11." >&2
            exit 1
        fi
        echo "Creating the virtual environment in $VENV" >&2
        "$python" -m venv "$VENV"
    fi
    want="$("$PY" -c 'import hashlib, sys; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest())')"
    # The test install includes everything the service needs.
    for stamp in "$VENV/.installed-$extras" "$VENV/.installed-test"; do
        if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
            return 0
        fi
    done
    echo "Installing dependencies from pyproject.toml${extras:+ (with $extras extras)}" >&2
    "$PY" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$PY" -m pip install --quiet --disable-pip-version-check ".${extras:+[$extras]}"
    echo "$want" >"$VENV/.installed-$extras"
}
