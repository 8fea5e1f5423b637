"""Apps depend one way (docs/ARCHITECTURE.md): engines <- play <- houserules <- the calculators
<- clubs <- the feature apps. Every import of every project module (at the top, inside
functions, relative or absolute) is read with ``ast`` and checked against the table below: a
module may import its own layer and the layers listed before it, never one listed after it.

Where a lower layer must reach a higher one, it does so the Django way, without an import: a
signal (``clubs.signals.table_recomputed``, ``houserules.signals.house_rule_changed``), a setting
naming a class (``HOUSE_RULE_ACCESS``), or a foreign key named by string."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

# Lowest first. Each row: the layer's name, the packages or modules it holds (the longest
# matching prefix wins: scoring.engine is an engine, the rest of scoring a calculator).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("engines", ("scoring.engine", "settlements.engine", "exports")),
    ("play", ("play",)),
    ("Django glue", ("config.authentication", "config.api_errors", "config.api_limits",
                     "config.middleware", "config.throttles", "config.env",
                     "config.unavailable", "config.sqlite3",
                     "config.plain_serializer")),
    ("house rules", ("houserules",)),
    ("calculators", ("scoring", "settlements")),
    ("clubs", ("clubs",)),
    ("feature apps", ("league", "safekeeping", "sheets", "compare", "door", "accounts")),
    # Club history (imports, statistics, the rating) reads league's per-night summary.
    ("features on league", ("history",)),
    ("project", ("config",)),
]
# Not layered: they may import anything, and nothing imports them.
OUTSIDE = ("tests", "bench", "scripts", "build", "docs", "static", "templates", "var")


def layer_of(module: str) -> tuple[int, str, str] | None:
    """(rank, layer name, matching prefix) of a project module; None for anything else."""
    best = None
    for rank, (name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > len(best[2]):
                    best = (rank, name, prefix)
    return best


def project_modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(REPO.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        if len(parts) < 2 or parts[0] in OUTSIDE or parts[0].startswith("."):
            continue  # manage.py and the like, the tests, benches and the virtualenv
        if not (REPO / parts[0] / "__init__.py").exists():
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imports_of(module: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """(line, imported module) for every import in the file, wherever it stands."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # ``from scoring import engine`` imports the module scoring.engine.
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if sub in known else base))
    return found


def broken_rules() -> list[str]:
    modules = project_modules()
    known = set(modules)
    problems = []
    for module, path in modules.items():
        own = layer_of(module)
        if own is None:
            problems.append(f"{module} ({path.relative_to(REPO)}) belongs to no layer: add its "
                            "package to LAYERS in this test, where it stands.")
            continue
        for line, target in imports_of(module, path, known):
            theirs = layer_of(target)
            if theirs is not None and theirs[0] > own[0]:
                problems.append(
                    f"{path.relative_to(REPO)}:{line}: {module} ({own[1]}) imports {target} "
                    f"({theirs[1]}): the {own[1]} layer may not import from the {theirs[1]} "
                    "layer above it; use a signal, a setting naming a class, or move the code "
                    "down.")
    return problems


def test_no_module_imports_from_a_layer_above_its_own():
    problems = broken_rules()
    assert not problems, "\n".join(problems)


def test_the_check_sees_every_layer_and_catches_an_upward_import(tmp_path):
    modules = project_modules()
    assert {"houserules.resolve", "clubs.recording", "scoring.engine.score", "play.table",
            "settlements.api", "league.models"} <= set(modules)
    # An import inside a function, as houserules would write it to reach clubs, is seen.
    sample = tmp_path / "resolve.py"
    sample.write_text("def f():\n    from clubs.models import Club\n    from . import copies\n")
    found = imports_of("houserules.resolve", sample, set(modules))
    assert found == [(2, "clubs.models"), (3, "houserules.copies")]
    assert layer_of("clubs.models")[0] > layer_of("houserules.resolve")[0]
    assert layer_of("scoring.engine.score")[1] == "engines"
    assert layer_of("scoring.api")[1] == "calculators"
