"""Small standard-library helpers written out as loops and branches: `any`/`all`, a `Counter`, `fnmatch.filter`,
an `Event.wait` and a dataclass's field dict written key by key.

Each shape is matched exactly: a loop whose body does anything besides the test (a
log line, a second store) is left alone, since the helper would drop it. The `any`/`all`
loop, the counter and the filter are idioms (never high): each saves two or three lines.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.infrastructure.shapes import Replaceable, earlier_statements, later_statements
from pylint_omni.infrastructure.shapes_flow import scalar_fields

SLEEP_CALLS = frozenset({"time.sleep", "sleep"})


def _bool_return(node: nodes.NodeNG) -> bool | None:
    """True/False for `return True`/`return False`, else None."""
    if isinstance(node, nodes.Return) and isinstance(node.value, nodes.Const) and isinstance(node.value.value, bool):
        return node.value.value
    return None


def _bool_store(node: nodes.NodeNG) -> tuple[str, bool] | None:
    """(name, value) of `name = True`/`name = False`."""
    if (isinstance(node, nodes.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], nodes.AssignName)
            and isinstance(node.value, nodes.Const) and isinstance(node.value.value, bool)):
        return node.targets[0].name, node.value.value
    return None


def _plain_test(loop: nodes.For) -> nodes.If | None:
    """The loop's one `if` (no else), when nothing in its test awaits or yields (a generator cannot)."""
    if loop.orelse or len(loop.body) != 1 or not isinstance(loop.body[0], nodes.If) or loop.body[0].orelse:
        return None
    test = loop.body[0].test
    if any(test.nodes_of_class((nodes.Await, nodes.Yield, nodes.YieldFrom, nodes.NamedExpr))):
        return None
    return loop.body[0]


def _predicate(loop: nodes.For, branch: nodes.If, hit: bool) -> tuple[str, str]:
    """(`any`/`all`, the generator) for a loop that answers `hit` when its test holds."""
    test = branch.test.as_string()
    condition = test if hit else (branch.test.operand.as_string() if isinstance(branch.test, nodes.UnaryOp)
                                  and branch.test.op == "not" else f"not ({test})")
    target = loop.target
    names = ", ".join(e.as_string() for e in target.elts) if isinstance(target, nodes.Tuple) else target.as_string()
    return ("any" if hit else "all"), f"{condition} for {names} in {loop.iter.as_string()}"


def _returned_answer(node: nodes.For, branch: nodes.If) -> tuple[bool, str, int, int] | None:
    """(answer, `written`, first, last line) of `for x in xs: if c: return A` then `return not A`."""
    after = later_statements(node)
    answer = _bool_return(branch.body[0]) if len(branch.body) == 1 else None
    if answer is None or not after or _bool_return(after[0]) is not (not answer):
        return None
    return answer, f"for {node.target.as_string()} in {node.iter.as_string()}: return ...", node.lineno, after[0].tolineno


def _flagged_answer(node: nodes.For, branch: nodes.If) -> tuple[bool, str, str, int, int] | None:
    """(answer, flag, `written`, first, last line) of `flag = not A`; `for x in xs: if c: flag = A; break`."""
    before = earlier_statements(node)
    if len(branch.body) != 2 or not isinstance(branch.body[1], nodes.Break) or not before:
        return None
    inner, outer = _bool_store(branch.body[0]), _bool_store(before[0])
    if inner is None or outer != (inner[0], not inner[1]):
        return None
    flag, answer = inner
    return answer, flag, f"{flag} flag set in a loop over {node.iter.as_string()}", before[0].lineno, node.tolineno


def any_loop(node: nodes.For) -> Replaceable | None:
    """`for x in xs: if c: return True` then `return False` (`any`; the other way round `all`), or `found = False`;
    `for x in xs: if c: found = True; break` (`found = any(...)`)."""
    branch = _plain_test(node)
    if branch is None:
        return None
    returned, flagged = _returned_answer(node, branch), _flagged_answer(node, branch)
    if returned is not None:
        answer, written, first, last = returned
        result = "return {}"
    elif flagged is not None:
        answer, flag, written, first, last = flagged
        result = f"{flag} = {{}}"
    else:
        return None
    call, generator = _predicate(node, branch, answer)
    return Replaceable(f"{call}() loop", written, call, "Python 2.5",
                       f"a loop that stops at the first match and answers {'whether one matches' if call == 'any' else 'whether all do'}"
                       f" is `{result.format(f'{call}({generator})')}`, which stops at the same item",
                       goes=f"lines {first}-{last}", places=((first, last),), idiom=True)


def counter_fill(node: nodes.If) -> Replaceable | None:
    """`if k not in d: d[k] = 0` then `d[k] += 1`: `d` as a `collections.Counter` counts from 0 itself."""
    test = node.test
    if node.orelse or len(node.body) != 1 or not (isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] == "not in"):
        return None
    key, table = test.left.as_string(), test.ops[0][1].as_string()
    store = node.body[0]
    if not (isinstance(store, nodes.Assign) and len(store.targets) == 1 and isinstance(store.targets[0], nodes.Subscript)
            and store.targets[0].value.as_string() == table and store.targets[0].slice.as_string() == key
            and isinstance(store.value, nodes.Const) and store.value.value == 0 and not isinstance(store.value.value, bool)):
        return None
    after = later_statements(node)
    if not after or not (isinstance(after[0], nodes.AugAssign) and after[0].op == "+=" and isinstance(after[0].target, nodes.Subscript)
                         and after[0].target.value.as_string() == table and after[0].target.slice.as_string() == key):
        return None
    return Replaceable("counter", f"{table}[{key}] counted from 0 by hand", "collections.Counter", "Python 2.7",
                       f"`{table}` made a `collections.Counter()` reads a missing key as 0, so `{table}[{key}] += ...` "
                       "needs no fill", glue="a missing key read elsewhere gives 0 instead of `KeyError`, and is not "
                       "inserted", goes=f"lines {node.lineno}-{node.tolineno}", places=((node.lineno, node.tolineno),),
                       idiom=True)


def fnmatch_filter(node: nodes.ListComp) -> Replaceable | None:
    """`[p for p in paths if fnmatch.fnmatch(p, pattern)]`: `fnmatch.filter(paths, pattern)`."""
    if len(node.generators) != 1:
        return None
    loop = node.generators[0]
    if loop.is_async or len(loop.ifs) != 1 or not isinstance(loop.target, nodes.AssignName) \
            or not (isinstance(node.elt, nodes.Name) and node.elt.name == loop.target.name):
        return None
    test = loop.ifs[0]
    if not (isinstance(test, nodes.Call) and test.func.as_string() in ("fnmatch.fnmatch", "fnmatch") and len(test.args) == 2
            and not test.keywords and isinstance(test.args[0], nodes.Name) and test.args[0].name == loop.target.name):
        return None
    pattern = test.args[1]
    if any(n.name == loop.target.name for n in pattern.nodes_of_class(nodes.Name)):
        return None
    return Replaceable("fnmatch filter", f"[... if fnmatch({loop.target.name}, {pattern.as_string()})]", "fnmatch.filter",
                       "Python 2.2", f"`fnmatch.filter({loop.iter.as_string()}, {pattern.as_string()})` returns the "
                       "same list (normalising the pattern once)", idiom=True)


def _flag_break(node: nodes.NodeNG) -> str | None:
    """The flag of `if not self.running: break` (or `if self.stopped: break`)."""
    if not (isinstance(node, nodes.If) and not node.orelse and len(node.body) == 1 and isinstance(node.body[0], nodes.Break)):
        return None
    test = node.test.operand if isinstance(node.test, nodes.UnaryOp) and node.test.op == "not" else node.test
    return test.as_string() if isinstance(test, (nodes.Attribute, nodes.Name)) else None


def _sleep(node: nodes.NodeNG) -> str | None:
    if isinstance(node, nodes.Expr) and isinstance(node.value, nodes.Call) and node.value.func.as_string() in SLEEP_CALLS \
            and len(node.value.args) == 1:
        return node.value.args[0].as_string()
    return None


def polling_sleep(node: nodes.For) -> Replaceable | None:
    """`for _ in range(n): if not self.running: break; time.sleep(tick)`: a sleep cut into ticks so that a flag can
    stop it, which `threading.Event.wait(timeout)` does at once."""
    if node.orelse or len(node.body) != 2 or not (isinstance(node.iter, nodes.Call) and node.iter.func.as_string() == "range"):
        return None
    flag = _flag_break(node.body[0]) or _flag_break(node.body[1])
    tick = _sleep(node.body[1]) or _sleep(node.body[0])
    if flag is None or tick is None:
        return None
    return Replaceable("interruptible sleep", f"sleep in ticks of {tick} until {flag} changes", "threading.Event.wait",
                       "Python 2.6", f"a sleep cut into ticks of {tick} that polls `{flag}` is `stop.wait(timeout)` on a "
                       "`threading.Event` the stopper sets", glue=f"`{flag}` becomes an Event (set where it is cleared "
                       "today); the wait ends at once on stop instead of within a tick", confidence="medium",
                       goes=f"lines {node.lineno}-{node.tolineno}", places=((node.lineno, node.tolineno),))


def _field_names(cls: nodes.ClassDef) -> list[str] | None:
    """The fields of a `@dataclass` class, in order (None: not a dataclass)."""
    decorators = [d.as_string() for d in cls.decorators.nodes] if cls.decorators else []
    if not any(d.rpartition(".")[2].split("(")[0] == "dataclass" for d in decorators):
        return None
    return [n.target.name for n in cls.body if isinstance(n, nodes.AnnAssign) and isinstance(n.target, nodes.AssignName)
            and "ClassVar" not in n.annotation.as_string()]


def _field_root(value: nodes.NodeNG, owner: str) -> str | None:
    """`x` of `self.x` or of a reading of it (`self.x.value`, `self.x.isoformat()`)."""
    while True:
        if isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute) and not value.args and not value.keywords:
            value = value.func.expr
        elif isinstance(value, nodes.Attribute) and isinstance(value.expr, nodes.Name) and value.expr.name == owner:
            return value.attrname
        elif isinstance(value, nodes.Attribute):
            value = value.expr
        else:
            return None


def field_literal_dict(statement: nodes.Return) -> Replaceable | None:
    """`return {"a": self.a, "b": self.b, ...}` over every field of the method's dataclass, each key its field."""
    function, value = statement.frame(), statement.value
    cls = function.parent if isinstance(function, nodes.FunctionDef) else None
    if not isinstance(value, nodes.Dict) or not isinstance(cls, nodes.ClassDef) or not function.args.arguments:
        return None
    fields, owner = _field_names(cls), function.args.arguments[0].name
    keys = [k.value if isinstance(k, nodes.Const) and isinstance(k.value, str) else None for k, _ in value.items]
    if not fields or len(fields) < 2 or keys != fields:
        return None
    if any(_field_root(v, owner) != k for k, (_, v) in zip(keys, value.items)):
        return None
    changed = [k for k, (_, v) in zip(keys, value.items) if v.as_string() != f"{owner}.{k}"]
    shown = ", ".join(f'"{k}": ...' for k in changed[:2]) + (", ..." if len(changed) > 2 else "")
    call = f"dataclasses.asdict({owner})" if not changed else f"{{**dataclasses.asdict({owner}), {shown}}}"
    exact = not changed and scalar_fields(owner, statement)
    return Replaceable("dataclass field dict", f"{function.name}: dict literal of every field of {cls.name}", "dataclasses.asdict",
                       "Python 3.7", f"a dict of every field of `{cls.name}` in order, key by key, is `{call}`",
                       glue="" if exact else "`asdict` recurses into fields holding dataclasses, lists, tuples and "
                       "dicts and deep-copies every other value, where this keeps the objects themselves" + (
                           f"; the fields it converts ({', '.join(changed[:3])}) stay as overrides" if changed else ""),
                       confidence="high" if exact else "medium",
                       goes=f"lines {statement.lineno}-{statement.tolineno}" if statement.tolineno > statement.lineno else "the dict",
                       places=((statement.lineno, statement.tolineno),))
