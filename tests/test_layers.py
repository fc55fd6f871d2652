"""Imports point down and never go round in a circle (shared/DESIGN.md, "Layers").

Every module of the project is parsed with ast. Imports inside functions and under `if TYPE_CHECKING:` count
like any other: an import that runs late still ties two modules together, and hiding one is how circles were
kept alive before. Importing a.b.c also runs a/__init__.py and a/b/__init__.py, so those are edges too.

- No circle among the project's modules (reported as a → b → … → a, with the line of each import).
- Layers, top to bottom: app.py and pages/ → ui/ → services/ → viz/ → model/. views/ (one state dataclass per
  page) sits under ui/ and services/ and imports only model-level code. attention_lab.paths (where the app's files
  are) is below everything and imports nothing of the project; its launcher (attention_lab.cli, its __main__ and
  attention_lab.folder_check, which reads --model-dir folders with model/) is above the app it starts.
- model/ imports no streamlit or plotly; viz/, services/ and views/ no streamlit (views/ no plotly either).
- The modules at ui/'s top (shared glue: models, navigation, sidebar, …) import none of ui/'s page groups
  (ui/attention/, ui/classroom/, …); ui/presenter/ is shared by every page and may be imported from anywhere in ui/.
- devtools/ (servers and browsers for tests and benches) imports the app's packages, never tests/; the app never
  imports devtools/. Nothing outside tests/ imports tests/, and nothing imports bench/ or scripts/ (they are run
  by path). No module touches sys.path: everything imports the installed project.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Top-level folders (and files) of the project, and the layer each belongs to.
GROUPS = {
    "app": "app", "serve": "app", "pages": "app", "ui": "ui", "views": "views", "services": "services", "viz": "viz",
    "model": "model", "attention_lab": "attention_lab", "devtools": "devtools", "bench": "bench",
    "scripts": "scripts", "tests": "tests", "setup": "setup",
}  # fmt: skip
APP = {"app", "ui", "views", "services", "viz", "model", "attention_lab"}  # what serving the app imports
# What each layer may import of the project (itself always).
MAY_IMPORT = {
    "app": {"ui", "views", "services", "viz", "model", "attention_lab"},
    "ui": {"views", "services", "viz", "model", "attention_lab"},
    "services": {"views", "viz", "model", "attention_lab"},
    "views": {"model", "attention_lab"},
    "viz": {"model", "attention_lab"},
    "model": {"attention_lab"},
    "attention_lab": set(),
    "launcher": {"model", "attention_lab"},
    "setup": set(),
    "devtools": APP - {"app"},
    "bench": (APP - {"app"}) | {"devtools"},
    "scripts": (APP - {"app"}) | {"devtools"},
    "tests": (APP - {"app"}) | {"devtools", "launcher"},
}
FORBIDDEN_LIBRARIES = {
    "model": {"streamlit", "plotly"},
    "viz": {"streamlit"},
    "services": {"streamlit"},
    "views": {"streamlit", "plotly"},
}
SHARED_UI_PACKAGES = {"ui.presenter", "ui.state", "ui.streamlit_private"}  # used by every page: not a page group


@dataclass(frozen=True)
class Import:
    importer: str
    target: str  # a project module, or a third-party top-level name
    path: Path
    line: int
    in_function: bool

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}" + (" (inside a function)" if self.in_function else "")


def module_files() -> dict[str, Path]:
    """Dotted name → file of every project module (pages/step-by-step.py is "pages.step-by-step")."""
    files = {}
    for top in GROUPS:
        paths = [ROOT / f"{top}.py"] if (ROOT / f"{top}.py").is_file() else sorted((ROOT / top).rglob("*.py"))
        for path in paths:
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "__pycache__" in parts:
                continue
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


MODULES = module_files()


LAUNCHER = {"attention_lab.cli", "attention_lab.__main__", "attention_lab.folder_check"}  # `attention-lab`


def group_of(module: str) -> str:
    return "launcher" if module in LAUNCHER else GROUPS[module.split(".")[0]]


def _project_module(name: str) -> str | None:
    """The longest prefix of a dotted name that is a project module."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imported_names(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]


def _function_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inside.update(id(child) for child in ast.walk(node) if child is not node)
    return inside


def read_imports() -> tuple[list[Import], list[str]]:
    """Every import of every project module (project targets and third-party top-level names), and every use of
    sys.path or site.addsitedir."""
    imports, path_hacks = [], []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        in_function = _function_nodes(tree)
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if (
                isinstance(node, ast.Attribute) and node.attr in {"path", "addsitedir"}
                and isinstance(node.value, ast.Name) and node.value.id in {"sys", "site"}
            ):  # fmt: skip
                path_hacks.append(f"{where}: {node.value.id}.{node.attr}")
            if (
                isinstance(node, ast.ImportFrom) and node.module in {"sys", "site"}
                and any(alias.name in {"path", "addsitedir"} for alias in node.names)
            ):  # fmt: skip
                path_hacks.append(f"{where}: from {node.module} import …")
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _imported_names(module, path, node):
                target = _project_module(name)
                found = [target] if target else [name.split(".")[0]]
                if target:  # importing a.b.c runs a/__init__.py and a/b/__init__.py first
                    parts = target.split(".")
                    parents = (".".join(parts[:i]) for i in range(1, len(parts)))
                    found += [p for p in parents if p in MODULES and not module.startswith(p + ".")]
                imports += [Import(module, t, path, node.lineno, id(node) in in_function) for t in found if t != module]
    return imports, path_hacks


IMPORTS, PATH_HACKS = read_imports()
PROJECT_IMPORTS = [i for i in IMPORTS if i.target in MODULES]


def find_cycles(imports: list[Import]) -> list[list[Import]]:
    """One circle (as its imports, in order) for each strongly connected group of modules."""
    edges: dict[str, dict[str, Import]] = defaultdict(dict)
    for i in imports:
        edges[i.importer].setdefault(i.target, i)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted({i.importer for i in imports} | {i.target for i in imports}):
        if v not in index:
            connect(v)
    cycles = []
    for group in groups:  # the shortest way round from the group's first module back to it
        start = min(group)
        paths: dict[str, list[Import]] = {start: []}
        queue = [start]
        while queue:
            v = queue.pop(0)
            for w, imp in sorted(edges[v].items()):
                if w == start:
                    cycles.append([*paths[v], imp])
                    queue = []
                    break
                if w in group and w not in paths:
                    paths[w] = [*paths[v], imp]
                    queue.append(w)
    return cycles


def describe(cycle: list[Import]) -> str:
    return " → ".join([cycle[0].importer] + [f"{i.target} [{i.where()}]" for i in cycle])


def test_every_project_module_is_read():
    assert len(MODULES) > 250
    assert {"app", "ui.models", "services.training.pool", "model", "viz.attention", "devtools.harness"} <= set(MODULES)
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages <= set(GROUPS), f"a new top-level package: give it a layer in GROUPS: {packages - set(GROUPS)}"


def test_no_import_circle():
    cycles = find_cycles(PROJECT_IMPORTS)
    assert not cycles, "import circles:\n" + "\n".join(describe(c) for c in cycles)


def test_find_cycles_reports_a_circle():
    here = Path(__file__)
    made_up = [Import("ui.a", "ui.b", here, 1, False), Import("ui.b", "ui.a", here, 2, True)]
    assert [describe(c) for c in find_cycles(made_up)] == [
        "ui.a → ui.b [tests/test_layers.py:1] → ui.a [tests/test_layers.py:2 (inside a function)]"
    ]


def test_layers_import_only_what_is_below_them():
    wrong = [
        f"{i.where()}: {i.importer} ({group_of(i.importer)}) imports {i.target} ({group_of(i.target)})"
        for i in PROJECT_IMPORTS
        if group_of(i.target) != group_of(i.importer) and group_of(i.target) not in MAY_IMPORT[group_of(i.importer)]
    ]
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN_LIBRARIES))
def test_lower_layers_import_no_streamlit_or_plotly(layer):
    wrong = [
        f"{i.where()}: {i.importer} imports {i.target}"
        for i in IMPORTS
        if group_of(i.importer) == layer and i.target in FORBIDDEN_LIBRARIES[layer]
    ]
    assert not wrong, "\n".join(wrong)


def test_shared_ui_glue_imports_no_page_group():
    def page_group(module: str) -> str | None:
        parts = module.split(".")
        package = ".".join(parts[:2])
        is_package = (ROOT / "ui" / parts[1] / "__init__.py").is_file() if len(parts) > 1 else False
        return package if parts[0] == "ui" and is_package and package not in SHARED_UI_PACKAGES else None

    wrong = [
        f"{i.where()}: {i.importer} imports {i.target}"
        for i in PROJECT_IMPORTS
        if group_of(i.importer) == "ui" and page_group(i.importer) is None and page_group(i.target) is not None
    ]
    assert not wrong, "ui's shared glue imports a page group:\n" + "\n".join(wrong)


def test_no_module_touches_sys_path():
    assert not PATH_HACKS, "import the installed project instead (pip install -e .):\n" + "\n".join(PATH_HACKS)


# Streamlit's public surface: what its API reference documents (and its type for a container, in annotations).
# Every other module of Streamlit's, and every private name of it, is reached through ui.streamlit_private only.
STREAMLIT_DOOR = "ui.streamlit_private"
PUBLIC_STREAMLIT = {"streamlit", "streamlit.components.v1", "streamlit.components.v2", "streamlit.delta_generator"}
# Streamlit internals without a leading underscore that the lab reaches for (ScriptRunContext's, AppSession's,
# Runtime's): a module outside the door naming one reaches past the public API as surely as `x._y` does.
STREAMLIT_INTERNAL_NAMES = {
    "widget_user_keys_this_run", "fragment_ids_this_run", "request_rerun", "get_app_session", "get_widget_states",
    "has_fragment", "track_settling", "wait_until_settled", "is_active_session", "get_script_run_ctx",
}  # fmt: skip


def _streamlit_private_names() -> set[str]:
    """Every private name (one leading underscore) the installed Streamlit defines: functions, classes, methods,
    attributes set on self or a class, module globals."""
    import streamlit

    names: set[str] = set()
    for path in Path(streamlit.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _outside_the_door() -> dict[str, Path]:
    """The project's modules that must use Streamlit's public API only: all but the door's and the tests' (which
    check the door, and read Streamlit's messages as a browser does)."""
    return {
        m: p for m, p in MODULES.items()
        if group_of(m) != "tests" and m != STREAMLIT_DOOR and not m.startswith(STREAMLIT_DOOR + ".")
    }  # fmt: skip


def test_only_the_door_imports_streamlits_private_modules():
    wrong = []
    for module, path in _outside_the_door().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                base = node.module or ""
                found = [base] if base != "streamlit" else [f"streamlit.{alias.name}" for alias in node.names]
            else:
                continue
            for name in found:
                if name.split(".")[0] == "streamlit" and name not in PUBLIC_STREAMLIT:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module} imports {name}")
    assert not wrong, f"Streamlit's private modules outside {STREAMLIT_DOOR}:\n" + "\n".join(wrong)


def _holds_streamlit_objects(module: str) -> bool:
    """Whether a module imports Streamlit or the door (the layers below import neither: plotly's own private names,
    say viz's `fig._data`, are not Streamlit's)."""
    return any(
        i.importer == module and (i.target == "streamlit" or i.target.startswith(STREAMLIT_DOOR)) for i in IMPORTS
    )


def test_only_the_door_names_streamlits_private_attributes():
    private = _streamlit_private_names()
    assert {"_enqueue_forward_msg", "_getitem", "_key_id_mapper", "_config_options"} <= private  # the scan works
    own = {  # names the project defines itself (its own classes' private attributes, its own module globals)
        name
        for path in _outside_the_door().values()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        for name in (
            [node.name] if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            else [node.attr] if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}
            else [node.id] if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
            else []
        )
    }  # fmt: skip
    wrong = []
    for module, path in _outside_the_door().items():
        if not _holds_streamlit_objects(module):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = []
            if isinstance(node, ast.Attribute):
                named.append(node.attr)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in {"getattr", "setattr"}:
                named += [a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            for name in named:
                if name in STREAMLIT_INTERNAL_NAMES or (name in private and name not in own):
                    wrong.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {module} names {name}")
    assert not wrong, f"Streamlit's private names outside {STREAMLIT_DOOR}:\n" + "\n".join(wrong)


DOOR_MODULES_FOR_TOOLS = {f"{STREAMLIT_DOOR}.wire", f"{STREAMLIT_DOOR}.instrument"}  # the app loads neither


def test_the_door_is_entered_through_its_package():
    wrong = [
        f"{i.where()}: {i.importer} imports {i.target}"
        for i in PROJECT_IMPORTS
        if i.target.startswith(STREAMLIT_DOOR + ".") and not i.importer.startswith(STREAMLIT_DOOR)
        and group_of(i.importer) != "tests"
        and not (i.target in DOOR_MODULES_FOR_TOOLS and group_of(i.importer) in {"devtools", "bench", "scripts"})
    ]  # fmt: skip
    assert not wrong, f"import {STREAMLIT_DOOR} itself, not its modules:\n" + "\n".join(wrong)
