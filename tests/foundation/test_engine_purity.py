"""The engines stay plain Python (ARCHITECTURE.md, layer 1): importing them loads no Django."""

import subprocess
import sys

from tests.conftest import REPO

PROBE = r"""
import importlib, pkgutil, sys
imported = []
for package_name in ("scoring.engine", "settlements.engine", "play", "door.draw"):
    package = importlib.import_module(package_name)
    imported.append(package_name)
    for module in pkgutil.walk_packages(package.__path__, package_name + "."):
        importlib.import_module(module.name)
        imported.append(module.name)
django = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(len(imported))
if django:
    sys.exit("Importing the engines loaded Django: " + ", ".join(django[:5]))
if "scoring.engine.rules.model" not in imported:
    sys.exit("The engine modules were not found: nothing was checked.")
"""


def test_engine_modules_import_without_django():
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr or result.stdout
    assert int(result.stdout.strip()) >= 3
