"""The type stubs shipped in the wheel name every public item of the
extension module, and nothing it lacks."""

import ast
import pathlib

import kamil._kamil as native


def _stub():
    path = pathlib.Path(native.__file__).with_name("_kamil.pyi")
    assert path.exists(), f"no stub beside {native.__file__}"
    tree = ast.parse(path.read_text())
    classes, functions = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            if any(getattr(b, "id", None) == "TypedDict" for b in node.bases):
                continue  # a stub-only type of dicts the module returns
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)
            }
        elif isinstance(node, ast.FunctionDef):
            functions.add(node.name)
    return classes, functions


def test_the_stubs_match_the_module():
    classes, functions = _stub()
    public = {n for n in dir(native) if not n.startswith("_")}
    assert public == set(classes) | functions
    for name, members in classes.items():
        real = {n for n in dir(getattr(native, name)) if not n.startswith("_")}
        if issubclass(getattr(native, name), BaseException):
            continue
        assert real == {m for m in members if not m.startswith("_")}, name
