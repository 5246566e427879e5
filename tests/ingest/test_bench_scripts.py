"""The scripts bench/ingest.py runs in fresh interpreters import what exists: a moved module once broke the
bench at its first mode and nothing noticed (the scripts are strings, so no import check reached them)."""

from __future__ import annotations

import ast
import importlib

from core.settings import REPO_ROOT


def _script_imports() -> list[tuple[str, str, str | None]]:
    tree = ast.parse((REPO_ROOT / "bench" / "ingest.py").read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            name = node.targets[0].id if isinstance(node.targets[0], ast.Name) else ""
            try:
                script = ast.parse(node.value.value)
            except SyntaxError:
                continue
            for imp in ast.walk(script):
                if isinstance(imp, ast.ImportFrom) and imp.module:
                    out += [(name, imp.module, a.name) for a in imp.names]
                elif isinstance(imp, ast.Import):
                    out += [(name, a.name, None) for a in imp.names]
    return out


def test_every_import_in_the_bench_scripts_resolves():
    imports = _script_imports()
    assert {n for n, _, _ in imports} >= {"BARE", "PIPELINE"}
    for script, module, attr in imports:
        mod = importlib.import_module(module)
        if attr is not None and not hasattr(mod, attr):
            importlib.import_module(f"{module}.{attr}")  # `from package import submodule`; raises if there is none
