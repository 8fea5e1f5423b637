# Sourced by scripts/serve and scripts/test: make .venv and install the project into it.
# pip runs only when pyproject.toml changed since the last install (a stamp holds its hash),
# so a second run starts at once.
# Usage: bootstrap "" (the service) or bootstrap test (with the test tools).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

bootstrap() {
    local extras="$1" python="${PYTHON:-python3}" want stamp
    cd "$ROOT"
    if [ ! -x "$PY" ]; then
        if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "Python 3.11 or newer is needed: set PYTHON=/path/to/python3.11 (found: $("$python" --version 2>&1))." >&2
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
