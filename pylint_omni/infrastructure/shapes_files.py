"""A directory tree removed or copied by hand through `os.walk`: `shutil.rmtree`, `shutil.copytree`.

Only the bare walk matches: a filter, a skipped name or a log line inside it is a
policy the library call does not have.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.infrastructure.shapes import Replaceable, keyword, later_statements

REMOVERS = frozenset({"os.remove", "os.unlink"})
COPIERS = frozenset({"shutil.copy", "shutil.copy2", "shutil.copyfile"})


def _walk(node: nodes.For) -> tuple[nodes.Call, str, str, str] | None:
    """(walk call, root, dirs, files) of `for root, dirs, files in os.walk(...)`."""
    call, target = node.iter, node.target
    if node.orelse or not isinstance(call, nodes.Call) or call.func.as_string() != "os.walk" or not call.args:
        return None
    if not isinstance(target, nodes.Tuple) or len(target.elts) != 3 \
            or not all(isinstance(e, nodes.AssignName) for e in target.elts):
        return None
    root, dirs, files = (e.name for e in target.elts)  # type: ignore[attr-defined]
    return call, root, dirs, files


def _each(loop: nodes.NodeNG, names: str) -> tuple[str, list[nodes.NodeNG]] | None:
    """(item, body) of `for item in names: ...`."""
    if isinstance(loop, nodes.For) and not loop.orelse and isinstance(loop.target, nodes.AssignName) \
            and loop.iter.as_string() == names:
        return loop.target.name, loop.body
    return None


def _called(statement: nodes.NodeNG, functions: frozenset[str]) -> nodes.Call | None:
    call = statement.value if isinstance(statement, nodes.Expr) else None
    return call if isinstance(call, nodes.Call) and call.func.as_string() in functions else None


def _removes(loop: nodes.NodeNG, names: str, root: str, functions: frozenset[str]) -> bool:
    """`for name in names: <function>(os.path.join(root, name))`."""
    found = _each(loop, names)
    if found is None or len(found[1]) != 1:
        return False
    call = _called(found[1][0], functions)
    return call is not None and [a.as_string() for a in call.args] == [f"os.path.join({root}, {found[0]})"]


def rmtree(node: nodes.For) -> Replaceable | None:
    """`for root, dirs, files in os.walk(top, topdown=False)`: remove each file, then each directory."""
    walked = _walk(node)
    if walked is None or len(node.body) != 2:
        return None
    call, root, dirs, files = walked
    bottom_up = keyword(call, "topdown", 1)
    if not (isinstance(bottom_up, nodes.Const) and bottom_up.value is False) or len(call.args) > 2 or \
            any(k.arg != "topdown" for k in call.keywords or ()):
        return None
    first, second = node.body
    if not (_removes(first, files, root, REMOVERS) and _removes(second, dirs, root, frozenset({"os.rmdir"}))):
        return None
    top = call.args[0].as_string()
    after = next(iter(later_statements(node)), None)
    removed = after is not None and _called(after, frozenset({"os.rmdir"})) is not None \
        and [a.as_string() for a in after.value.args] == [top]
    last = after.tolineno if removed else node.tolineno
    glue = "a symbolic link to a directory is unlinked by `rmtree` where `os.rmdir` raises here"
    if not removed:
        glue = (f"`rmtree` removes `{top}` itself too, which this keeps: recreate it after (`os.makedirs`) or keep "
                f"the walk; {glue}")
    return Replaceable("tree removal", f"os.walk({top}, topdown=False) + os.remove/os.rmdir", "shutil.rmtree", "Python 2.0",
                       f"every file then every directory under `{top}`, bottom up, is removed"
                       + (f", then `{top}` itself" if removed else ""), glue=glue, confidence="high" if removed else "medium",
                       goes=f"lines {node.lineno}-{last}", places=((node.lineno, last),))


def copytree(node: nodes.For) -> Replaceable | None:
    """`for root, dirs, files in os.walk(src)`: make each target directory, copy each file; path temporaries allowed."""
    walked = _walk(node)
    if walked is None or len(walked[0].args) != 1 or walked[0].keywords:
        return None
    call, _, _, files = walked
    plain = [s for s in node.body if not isinstance(s, nodes.Assign)]
    made = [s for s in plain if _called(s, frozenset({"os.makedirs"})) is not None]
    copied = [s for s in plain if _each(s, files) is not None]
    if len(plain) != 2 or len(made) != 1 or len(copied) != 1:
        return None
    body = _each(copied[0], files)[1]  # type: ignore[index]
    copies = [s for s in body if not isinstance(s, nodes.Assign)]
    copier = _called(copies[0], COPIERS) if len(copies) == 1 else None
    if copier is None:
        return None
    source = call.args[0].as_string()
    function = copier.func.as_string()
    same_copy = function == "shutil.copy2"
    glue = ("check that the target paths mirror the walk (relative to the source, under one destination); "
            "`dirs_exist_ok=True` keeps the existing-directory tolerance of `os.makedirs(..., exist_ok=True)`")
    if not same_copy:
        glue += f"; pass `copy_function={function}`: the default `shutil.copy2` also copies metadata"
    return Replaceable("tree copy", f"os.walk({source}) + os.makedirs + {function}", "shutil.copytree", "Python 3.8",
                       f"every directory under `{source}` made again and every file copied with `{function}`",
                       glue=glue, confidence="medium", goes=f"lines {node.lineno}-{node.tolineno}",
                       places=((node.lineno, node.tolineno),))
