"""Standard-library statements written by hand: an ignored exception (`contextlib.suppress`), a flatten
(`itertools.chain.from_iterable`), a field dict (`dataclasses.asdict`), threads started then joined
(`concurrent.futures.ThreadPoolExecutor`) and a tree removed or copied through `os.walk` (`shutil`).

Each shape is matched whole, statement by statement; one extra statement (a log line,
a filter, a flag) is behaviour the library call does not have, and the shape is left alone.
A flatten comprehension (`[y for x in xs for y in x]`) is no case: it is the idiom, and a
caller needing a list would write `list(itertools.chain.from_iterable(xs))`, no shorter.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.infrastructure.shapes import Replaceable, earlier_statements, later_statements

# Field annotations whose values `asdict`'s recursion and deep copy leave as they are: the copy is then exact.
SCALAR_ANNOTATIONS = frozenset({"int", "float", "str", "bool", "bytes", "None", "complex"})


def _previous(statement: nodes.NodeNG | None) -> nodes.NodeNG | None:
    """The statement just before `statement` in its block, else None."""
    earlier = earlier_statements(statement) if statement is not None else []
    return earlier[0] if earlier else None


def _empty_list_bound(statement: nodes.NodeNG | None, name: str) -> bool:
    """`name = []` (or `list()`)."""
    if not (isinstance(statement, nodes.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], nodes.AssignName) and statement.targets[0].name == name):
        return False
    value = statement.value
    return (isinstance(value, nodes.List) and not value.elts) or (
        isinstance(value, nodes.Call) and value.func.as_string() == "list" and not value.args and not value.keywords)


def _method_call(statement: nodes.NodeNG, receiver: str, method: str) -> nodes.Call | None:
    """The call of `receiver.method(...)` as a whole statement, else None."""
    call = statement.value if isinstance(statement, nodes.Expr) else None
    if isinstance(call, nodes.Call) and isinstance(call.func, nodes.Attribute) and call.func.attrname == method \
            and call.func.expr.as_string() == receiver:
        return call
    return None


def suppress(node: nodes.Try) -> Replaceable | None:
    """`try: <one statement> except X: pass`, nothing else: `with contextlib.suppress(X): <statement>`."""
    if len(node.body) != 1 or len(node.handlers) != 1 or node.orelse or node.finalbody:
        return None
    handler = node.handlers[0]
    if handler.type is None or handler.name is not None or len(handler.body) != 1 or not isinstance(handler.body[0], nodes.Pass):
        return None  # a bare `except:` also catches KeyboardInterrupt: left to the style checkers that name it
    caught = handler.type.as_string()
    kept = node.body[0]
    return Replaceable("ignored exception", f"try: {kept.as_string().splitlines()[0]} except {caught}: pass",
                       "contextlib.suppress", "Python 3.4",
                       f"one statement whose `{caught}` is caught and ignored: `with contextlib.suppress({caught}):` "
                       "runs it with the same handling", goes=f"the try/except/pass (lines {node.lineno}-{node.tolineno}) "
                       "for one `with` line", places=((node.lineno, node.tolineno),), idiom=True)


def _flatten(written: str, source: str, evidence: str, places: tuple[tuple[int, int], ...], built: str = "") -> Replaceable:
    call = f"list(itertools.chain.from_iterable({source}))"
    return Replaceable("flatten", written, "itertools.chain.from_iterable", "Python 2.6",
                       f"{evidence}: `{built} = {call}`" if built else f"{evidence}: `{call}`", places=places,
                       glue="wrap it in `list(...)` where the result is measured, indexed or read twice (the call gives "
                            "an iterator)",
                       goes=f"lines {places[0][0]}-{places[0][1]}" if places[0][0] != places[0][1] else "the expression")


def flatten_sum(node: nodes.Call) -> Replaceable | None:
    """`sum(xs, [])`: a flatten that copies the list so far at every step."""
    if not isinstance(node.func, nodes.Name) or node.func.name != "sum" or len(node.args) != 2 or node.keywords:
        return None
    start = node.args[1]
    if not isinstance(start, nodes.List) or start.elts:
        return None
    source = node.args[0].as_string()
    return _flatten(node.as_string(), source, f"`sum` of the lists in `{source}` onto `[]` concatenates them, copying "
                    "the list built so far at every step (quadratic)", ((node.lineno, node.tolineno),))


def flatten_loop(node: nodes.For) -> Replaceable | None:
    """`out = []` then `for x in xs: for y in x: out.append(y)` (or `for x in xs: out.extend(x)`)."""
    if node.orelse or len(node.body) != 1 or not isinstance(node.target, nodes.AssignName):
        return None
    outer, inner = node.target.name, node.body[0]
    if isinstance(inner, nodes.For) and not inner.orelse and len(inner.body) == 1 and isinstance(inner.target, nodes.AssignName) \
            and isinstance(inner.iter, nodes.Name) and inner.iter.name == outer:
        call = inner.body[0].value if isinstance(inner.body[0], nodes.Expr) else None
        added = "append"
        item = inner.target.name
    else:
        call, added, item = (inner.value if isinstance(inner, nodes.Expr) else None), "extend", outer
    if not (isinstance(call, nodes.Call) and isinstance(call.func, nodes.Attribute) and call.func.attrname == added
            and isinstance(call.func.expr, nodes.Name) and [a.as_string() for a in call.args] == [item] and not call.keywords):
        return None
    built = call.func.expr.name
    start = _previous(node)
    if not _empty_list_bound(start, built):
        return None
    source = node.iter.as_string()
    return _flatten(f"{built}.{added}(...) over {source}", source, f"`{built}` starts empty and receives every item of "
                    f"every iterable in `{source}`, in order", ((start.lineno, node.tolineno),),
                    built=built)


def _field_pair(key: nodes.NodeNG, value: nodes.NodeNG, field: str, subject: str) -> bool:
    return key.as_string() == f"{field}.name" and value.as_string() == f"getattr({subject}, {field}.name)"


def _fields_loop(loop: nodes.Comprehension | nodes.For) -> tuple[str, str] | None:
    """(field, subject) of `for f in fields(subject)` without a filter."""
    if getattr(loop, "ifs", None) or not isinstance(loop.target, nodes.AssignName) or not isinstance(loop.iter, nodes.Call):
        return None
    if loop.iter.func.as_string() not in ("fields", "dataclasses.fields") or len(loop.iter.args) != 1 or loop.iter.keywords:
        return None
    return loop.target.name, loop.iter.args[0].as_string()


def _field_dict(node: nodes.NodeNG) -> str | None:
    """The subject of `{f.name: getattr(s, f.name) for f in fields(s)}` or `dict((f.name, getattr(s, f.name)) for ...)`."""
    if isinstance(node, nodes.DictComp) and len(node.generators) == 1:
        found = _fields_loop(node.generators[0])
        return found[1] if found and _field_pair(node.key, node.value, *found) else None
    if isinstance(node, nodes.Call) and node.func.as_string() == "dict" and len(node.args) == 1 and not node.keywords:
        pairs = node.args[0]
        if isinstance(pairs, (nodes.GeneratorExp, nodes.ListComp)) and len(pairs.generators) == 1 \
                and isinstance(pairs.elt, nodes.Tuple) and len(pairs.elt.elts) == 2:
            found = _fields_loop(pairs.generators[0])
            return found[1] if found and _field_pair(*pairs.elt.elts, *found) else None
    return None


def _loop_field_dict(returned: nodes.Name, statement: nodes.Return) -> tuple[str, int] | None:
    """(subject, first line) of `d = {}; for f in fields(s): d[f.name] = getattr(s, f.name)` just before `return d`."""
    loop = _previous(statement)
    start = _previous(loop) if isinstance(loop, nodes.For) else None
    if not isinstance(loop, nodes.For) or loop.orelse or len(loop.body) != 1 or not isinstance(start, nodes.Assign):
        return None
    found = _fields_loop(loop)
    store = loop.body[0]
    if found is None or not (isinstance(store, nodes.Assign) and len(store.targets) == 1
                             and isinstance(store.targets[0], nodes.Subscript)
                             and store.targets[0].value.as_string() == returned.name
                             and _field_pair(store.targets[0].slice, store.value, *found)):
        return None
    empty = (isinstance(start.value, nodes.Dict) and not start.value.items) or (
        isinstance(start.value, nodes.Call) and start.value.func.as_string() == "dict" and not start.value.args
        and not start.value.keywords)
    if not empty or [t.as_string() for t in start.targets] != [returned.name]:
        return None
    return found[1], start.lineno


def scalar_fields(subject: str, statement: nodes.NodeNG) -> bool:
    """Whether `subject` is the method's own instance and every annotated field of its class is a plain scalar."""
    function = statement.frame()
    cls = function.parent if isinstance(function, nodes.FunctionDef) else None
    if not isinstance(cls, nodes.ClassDef) or not function.args.arguments or function.args.arguments[0].name != subject:
        return False
    annotations = [n.annotation for n in cls.body if isinstance(n, nodes.AnnAssign)]
    names = [{part for part in a.as_string().replace("Optional[", "").replace("]", "").replace(" ", "").split("|")}
             for a in annotations]
    return bool(annotations) and all(n <= SCALAR_ANNOTATIONS for n in names)


def dataclass_asdict(statement: nodes.Return) -> Replaceable | None:
    """`return` of a dict of every field of a dataclass by name, as a comprehension or a loop."""
    value = statement.value
    subject, first = _field_dict(value) if value is not None else None, statement.lineno
    if subject is None and isinstance(value, nodes.Name):
        found = _loop_field_dict(value, statement)
        subject, first = found if found else (None, first)
    if subject is None:
        return None
    exact = scalar_fields(subject, statement)
    glue = "" if exact else ("`asdict` recurses into fields holding dataclasses, lists, tuples and dicts and deep-copies "
                             "every other value, where this keeps the objects themselves: equal only for plain values")
    return Replaceable("dataclass field dict", f"{statement.frame().name}: dict of fields({subject})", "dataclasses.asdict",
                       "Python 3.7", f"a dict of every field of `{subject}` by name is `dataclasses.asdict({subject})`"
                       + ("; every field of the class is a plain scalar, which it copies as is" if exact else ""),
                       glue=glue, confidence="high" if exact else "medium",
                       goes=f"lines {first}-{statement.tolineno}" if first != statement.tolineno else "the expression",
                       places=((first, statement.tolineno),))


THREAD_GLUE = ("error handling changes: a thread's exception here goes to `threading.excepthook` and the join "
               "succeeds, where `pool.map` re-raises the first one in the caller; a pool also reuses threads "
               "(thread-local state is shared across items)")


def _thread_target(node: nodes.NodeNG) -> str | None:
    """f of `threading.Thread(target=f[, args=...])`: `daemon=`, `name=` or `kwargs=` are behaviour a pool drops."""
    if not isinstance(node, nodes.Call) or node.func.as_string() not in ("threading.Thread", "Thread") or node.args:
        return None
    keywords = {k.arg: k.value for k in node.keywords or ()}
    return keywords["target"].as_string() if "target" in keywords and set(keywords) <= {"target", "args"} else None


def _each_called(loop: nodes.NodeNG, threads: str, method: str) -> bool:
    """`for t in threads: t.<method>()`."""
    return isinstance(loop, nodes.For) and not loop.orelse and loop.iter.as_string() == threads and len(loop.body) == 1 \
        and _method_call(loop.body[0], loop.target.as_string(), method) is not None \
        and not _method_call(loop.body[0], loop.target.as_string(), method).args  # type: ignore[union-attr]


def _pool(target: str, work: str, first: int, last: int, joined: nodes.For) -> Replaceable:
    return Replaceable("thread pool", f"Thread(target={target}) per item of {work}", "concurrent.futures.ThreadPoolExecutor",
                       "Python 3.2", f"one thread per item of `{work}`, each started, then all joined, is "
                       f"`list(pool.map({target}, ...))` in a `with ThreadPoolExecutor(max_workers=...)`",
                       glue=THREAD_GLUE, confidence="medium",
                       goes=f"lines {first}-{last} and the join loop (lines {joined.lineno}-{joined.tolineno})",
                       places=((first, last), (joined.lineno, joined.tolineno)))


def thread_pool(node: nodes.For) -> Replaceable | None:
    """`threads = []`; `for x in xs: t = Thread(target=f, args=(x,)); t.start(); threads.append(t)`; then, later in
    the block, `for t in threads: t.join()`."""
    if node.orelse or len(node.body) != 3 or not isinstance(node.body[0], nodes.Assign):
        return None
    made, rest = node.body[0], node.body[1:]
    target = _thread_target(made.value)
    if len(made.targets) != 1 or not isinstance(made.targets[0], nodes.AssignName) or target is None:
        return None
    name = made.targets[0].name
    started = [s for s in rest if _method_call(s, name, "start") is not None]
    kept = [s for s in rest if isinstance(s, nodes.Expr) and isinstance(s.value, nodes.Call)
            and s.value.func.as_string().endswith(".append") and [a.as_string() for a in s.value.args] == [name]]
    if len(started) != 1 or len(kept) != 1:
        return None
    threads = kept[0].value.func.expr.as_string()
    start = _previous(node)
    joined = next((s for s in later_statements(node) if _each_called(s, threads, "join")), None)
    if not _empty_list_bound(start, threads) or joined is None:
        return None
    return _pool(target, node.iter.as_string(), start.lineno, node.tolineno, joined)


def thread_pool_listed(node: nodes.For) -> Replaceable | None:
    """`threads = [Thread(target=f, args=(x,)) for x in xs]`, then `for t in threads: t.start()`, then, later in the
    block, `for t in threads: t.join()`."""
    made = _previous(node)
    if not isinstance(made, nodes.Assign) or len(made.targets) != 1 or not isinstance(made.value, nodes.ListComp):
        return None
    threads = made.targets[0].as_string()
    target = _thread_target(made.value.elt)
    if target is None or len(made.value.generators) != 1 or made.value.generators[0].ifs \
            or not _each_called(node, threads, "start"):
        return None
    joined = next((s for s in later_statements(node) if _each_called(s, threads, "join")), None)
    if joined is None:
        return None
    return _pool(target, made.value.generators[0].iter.as_string(), made.lineno, node.tolineno, joined)
