#!/usr/bin/env bash
# Create .venv (if missing) and install pinochlekit with every extra into it.
# The install is skipped when nothing it depends on changed since the last one:
# .venv/.setup-stamp holds a hash of pyproject.toml, setup.py, the C sources and
# the Python version (the package is installed editable, so Python sources need
# no reinstall). PINOCHLEKIT_SETUP=force installs anyway. pip's output goes to
# .venv/setup.log; only a few lines of progress are shown (and the log's end if
# the install fails).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv (first run) ..."
    "$python" -m venv .venv
fi
stamp=.venv/.setup-stamp
wanted=$( { .venv/bin/python -c 'import sys; print(sys.version)'
            cat pyproject.toml setup.py; find src/pinochlekit/native -name "*.[ch]" | sort | xargs cat; } | sha256sum | cut -d' ' -f1)
if [ "${PINOCHLEKIT_SETUP:-}" != force ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    exit 0
fi
echo "setup: installing pinochlekit, its dependencies and its C extensions (about a minute; log: .venv/setup.log) ..."
rm -f "$stamp"
if ! .venv/bin/python -m pip install --disable-pip-version-check -e ".[all]" \
        > .venv/setup.log 2>&1; then
    echo "setup: the install failed; the end of .venv/setup.log:" >&2
    tail -n 20 .venv/setup.log >&2
    exit 1
fi
echo "$wanted" > "$stamp"
echo "setup: done"
