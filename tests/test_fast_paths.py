"""The fast paths of the index and the judges give what the slow ones gave.

Each shortcut taken for speed (issue "Speed with every message on") is checked
against the standard-library way it replaces, on tricky inputs and on this
project's own source files: the prose and comment regexes against `tokenize`, the node walks
against `ast.walk` and `ast.NodeVisitor`, the streamed cache text against one
`json.dumps`; and a test file gets only the scanners that read consumers.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import tokenize
from pathlib import Path

from pylint.checkers import BaseChecker
from pylint.lint import PyLinter

from pylint_omni.evidence.comments import comments_in
from pylint_omni.index.cache import _chunks
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import FastVisitor, child_nodes, walk_nodes
from pylint_omni.index.settings import OmniSettings
from pylint_omni.plugin import register_scanners
from pylint_omni.surfaces.outside import prose_lines

OWN_SOURCES = sorted((Path(__file__).resolve().parents[1] / "pylint_omni").rglob("*.py"))

TRICKY = "\n".join([
    '"""Module docstring with a # inside."""',
    'x = "a # not a comment"  # a real comment',
    'y = \'it\\\'s "quoted" here\'',
    'z = rb"raw bytes with spaces" + f"{x} and {y}" + Rb\'x\'',
    'w = """multi',
    'line # still the string',
    '"""',
    '# comment with \'quotes" unbalanced',
    "v = u'single-word'",
    'def f(a="default value", *, b=\'\'\'"x" y\'\'\') -> None:',
    '    """Docstring of f."""',
    '    return None  # trailing',
    '',
])


def _tokenized(text: str) -> list[tuple[int, str]]:
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and " " in token.string):
            found.append((token.start[0], token.string))
    return found


def test_prose_lines_are_the_comments_and_strings_tokenize_gives() -> None:
    assert prose_lines(TRICKY) == _tokenized(TRICKY)
    assert (3, "'it\\'s \"quoted\" here'") in prose_lines(TRICKY)
    assert all(prose_lines(text) == _tokenized(text) for text in (p.read_text(encoding="utf-8") for p in OWN_SOURCES))


def test_comments_are_the_ones_tokenize_gives_with_their_line_and_place() -> None:
    def tokenized(text: str) -> list[tuple[int, str, bool]]:
        return [(t.start[0], t.string, t.line[:t.start[1]].strip() == "")
                for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]

    read = [(c.line, c.text, c.own_line) for c in comments_in(TRICKY)]
    assert read == tokenized(TRICKY)
    assert (2, "# a real comment", False) in read and (8, "# comment with 'quotes\" unbalanced", True) in read
    assert not any("still the string" in text or "not a comment" in text for _, text, _ in read)
    sample = sorted((Path(__file__).resolve().parents[1] / "sample_repo").rglob("*.py"))
    for text in (p.read_text(encoding="utf-8") for p in [*OWN_SOURCES, *sample]):
        assert [(c.line, c.text, c.own_line) for c in comments_in(text)] == tokenized(text)


def test_node_walks_visit_what_the_standard_library_visits_but_ctx() -> None:
    class Counting(FastVisitor):
        def __init__(self) -> None:
            self.seen: list[ast.AST] = []

        def visit_Call(self, node: ast.Call) -> None:  # a visit method, then the walk goes on below it
            self.generic_visit(node)

        def generic_visit(self, node: ast.AST) -> None:
            self.seen.append(node)
            super().generic_visit(node)

    for path in [*OWN_SOURCES[:40], None]:
        tree = ast.parse(TRICKY if path is None else path.read_text(encoding="utf-8"))
        expected = [n for n in ast.walk(tree) if not isinstance(n, ast.expr_context)]
        assert list(walk_nodes(tree)) == expected  # same nodes, same (breadth-first) order
        children = [n for n in ast.iter_child_nodes(tree.body[-1]) if not isinstance(n, ast.expr_context)]
        assert list(child_nodes(tree.body[-1])) == children
        visitor = Counting()
        visitor.visit(tree)
        assert sorted(map(id, visitor.seen)) == sorted(map(id, expected))


def test_a_node_without_children_is_visited_when_its_type_has_a_method() -> None:
    class Names(FastVisitor):  # no `generic_visit` of its own: childless nodes of other types cost nothing
        def __init__(self) -> None:
            self.names: list[str] = []

        def visit_Name(self, node: ast.Name) -> None:
            self.names.append(node.id)

    for path in OWN_SOURCES[:40]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        visitor = Names()
        visitor.visit(tree)
        assert sorted(visitor.names) == sorted(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))


def test_the_cache_text_is_one_dumps_of_the_document() -> None:
    document = {
        "version": 3, "files": {f"pkg/m{i}.py": {"facts": {"refs": {"a": "1,name"}}, "size": i} for i in range(600)},
        1: {True: 2, None: [1], "é": {}}, "empty": {}, "list": [1, {"x": "y"}],
    }
    assert "".join(_chunks(document)) == json.dumps(document, separators=(",", ":"))


def test_a_test_file_gets_only_the_scanners_that_read_consumers(tmp_path: Path) -> None:
    register_scanners()
    (tmp_path / "pyproject.toml").write_text("[project]\nname='p'\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "tests").mkdir()
    body = "import sys\nif sys.version_info < (3, 6):\n    X = 1\n\ndef helper(a):\n    b = a + 1\n    c = b * 2\n    return c\n"
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text(body)
    (tmp_path / "tests" / "test_mod.py").write_text(body + "\ndef test_it():\n    from pkg.mod import helper\n    helper(1)\n")
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    index.refresh()
    for key in ("copies.fingerprints", "compat.conditions"):  # facts of audited code only
        assert index.extra("pkg/mod.py", key) and index.extra("tests/test_mod.py", key) is None
    for key in ("surfaces.module", "configuration.options"):  # consumers' facts: every file
        assert index.extra("tests/test_mod.py", key) is not None
    assert "helper" in index.facts("tests/test_mod.py")["refs"]


def test_checkers_compare_and_sort_as_pylint_compares_them() -> None:
    linter = PyLinter()
    linter.load_default_plugins()
    linter.load_plugin_modules(["pylint_omni"])
    checkers = [c for group in linter._checkers.values() for c in group]  # pylint: disable=protected-access
    ours = [c for c in checkers if type(c).__module__.startswith("pylint_omni")]
    assert len(ours) > 5
    for a in ours:
        for b in checkers:
            assert (a == b) is BaseChecker.__eq__(a, b)
            assert (a != b) is not BaseChecker.__eq__(a, b)
        assert hash(a) == BaseChecker.__hash__(a)
        assert a == type(a)(linter) and hash(a) == hash(type(a)(linter))
    by_pylint = sorted(checkers, key=functools.cmp_to_key(
        lambda x, y: -1 if (not BaseChecker.__gt__(x, y) and not BaseChecker.__eq__(x, y)) else (1 if BaseChecker.__gt__(x, y) else 0)))
    assert [id(c) for c in sorted(checkers)] == [id(c) for c in by_pylint]
