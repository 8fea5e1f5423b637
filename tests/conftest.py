import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    if not EXAMPLES.is_dir():
        pytest.fail(f"The worked examples are missing: expected {EXAMPLES} beside the repository.")
    return EXAMPLES


def load_example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())
