"""model/ is pure PyTorch: no module in it imports Streamlit, plotly, or the layers above it (services, ui, viz)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

MODEL = Path(__file__).resolve().parents[2] / "model"
FORBIDDEN = ("streamlit", "plotly", "services", "ui", "viz")


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted(MODEL.rglob("*.py")), ids=lambda p: str(p.relative_to(MODEL.parent)))
def test_model_imports_nothing_above_it(path):
    assert not imported_roots(path) & set(FORBIDDEN)


def test_the_check_sees_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy\nfrom services.rooms import RoomError\n")
    assert imported_roots(bad) & set(FORBIDDEN) == {"services"}
