"""Standard-library helpers written by hand: a memo dict or a lazy global (`functools.cache`), a lazy property
(`functools.cached_property`) and a field copy (`dataclasses.replace`).

A memo dict is matched only in a module-level function keyed by all of its
parameters: a method's cache would be shared by every instance under
`functools.cache` (and keep them alive), and a key that leaves a parameter out
returns one argument's value for another, which the library would not. A lazy
value is matched only when nothing else binds it: a reset is not a compute-once value.
"""

from __future__ import annotations

from collections.abc import Callable

from astroid import nodes

from pylint_omni.infrastructure.shapes import Replaceable, bound_value

BUILTIN_KEY_CALLS = frozenset({"str", "tuple", "int", "repr", "id", "frozenset"})


def _module_dict(name: nodes.NodeNG) -> nodes.Assign | nodes.AnnAssign | None:
    """The one module-level statement binding `name` to `{}` or `dict()`, else None."""
    if not isinstance(name, nodes.Name):
        return None
    module = name.root()
    assigned = [n for n in module.nodes_of_class(nodes.AssignName) if n.name == name.name]
    if len(assigned) != 1 or not isinstance(assigned[0].parent, (nodes.Assign, nodes.AnnAssign)):
        return None
    statement = assigned[0].parent
    value = statement.value
    empty = (isinstance(value, nodes.Dict) and not value.items) or (
        isinstance(value, nodes.Call) and value.func.as_string() == "dict" and not value.args and not value.keywords)
    return statement if statement.parent is module and empty else None


def _membership(test: nodes.NodeNG, negated: bool) -> tuple[nodes.NodeNG, nodes.NodeNG] | None:
    """(key, dict) of `key in cache` (`not in` when negated)."""
    if isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] == ("not in" if negated else "in"):
        return test.left, test.ops[0][1]
    return None


def _subscript_of(node: nodes.NodeNG, cache: str, key: str) -> bool:
    return (isinstance(node, nodes.Subscript) and node.value.as_string() == cache and node.slice.as_string() == key)


def _store(statement: nodes.NodeNG, cache: str, key: str) -> nodes.NodeNG | None:
    """The value of `cache[key] = value`, else None."""
    if isinstance(statement, nodes.Assign) and len(statement.targets) == 1 and _subscript_of(statement.targets[0], cache, key):
        return statement.value
    return None


def _memo_lines(function: nodes.FunctionDef, cache: str, key: str) -> tuple[int, int] | None:
    """(lookup line, store line) when the body is `if key in cache: return cache[key]` ... `cache[key] = v; return v`
    or `if key not in cache: ...; cache[key] = v` then `return cache[key]`, and the function returns nowhere else."""
    body = function.body
    for index, statement in enumerate(body):
        if not isinstance(statement, nodes.If) or statement.orelse:
            continue
        hit = _membership(statement.test, negated=False)
        if hit and [n.as_string() for n in hit] == [key, cache] and len(statement.body) == 1 \
                and isinstance(statement.body[0], nodes.Return) and _subscript_of(statement.body[0].value, cache, key):
            tail = body[index + 1:]
            for store, last in zip(tail, tail[1:]):
                value = _store(store, cache, key)
                if value is not None and isinstance(last, nodes.Return) and last is body[-1] and last.value is not None \
                        and (last.value.as_string() == value.as_string() and _names(value)
                             or _subscript_of(last.value, cache, key)):
                    return (statement.lineno, store.lineno) if _returns(function) == 2 else None
            return None
        miss = _membership(statement.test, negated=True)
        if miss and [n.as_string() for n in miss] == [key, cache] and _store(statement.body[-1], cache, key) is not None \
                and statement is body[-2] and isinstance(body[-1], nodes.Return) and _subscript_of(body[-1].value, cache, key):
            return (statement.lineno, statement.body[-1].lineno) if _returns(function) == 1 else None
    return None


def _names(node: nodes.NodeNG) -> bool:
    """A name or a tuple of names: returning it again returns what was stored."""
    return isinstance(node, nodes.Name) or (isinstance(node, nodes.Tuple) and all(isinstance(e, nodes.Name) for e in node.elts))


def _returns(function: nodes.FunctionDef) -> int:
    """Returns (and yields) of the function itself, not of functions nested in it."""
    return sum(1 for node in function.nodes_of_class((nodes.Return, nodes.Yield, nodes.YieldFrom), skip_klass=nodes.FunctionDef))


def memo_dict(function: nodes.FunctionDef) -> Replaceable | None:
    """A module-level function that looks its arguments up in a module-level dict, computes and stores on a miss."""
    if not isinstance(function.parent, nodes.Module) or function.decorators is not None:
        return None
    for statement in function.body:  # the lookup is a statement of the body itself (`_memo_lines`)
        test = statement.test if isinstance(statement, nodes.If) else None
        found = _membership(test, negated=False) or _membership(test, negated=True) if test is not None else None
        binding = _module_dict(found[1]) if found else None
        if found is None or binding is None:
            continue
        key, cache = found[0].as_string(), found[1].as_string()
        lines = _memo_lines(function, cache, key)
        if lines is None:
            return None
        return _memo(function, bound_value(found[0]), cache, binding, lines)
    return _memo_by_get(function)


def _memo_by_get(function: nodes.FunctionDef) -> Replaceable | None:
    """`v = CACHE.get(key)`; `if v is None: ...; CACHE[key] = v`; `return v`, the function's only return."""
    body = [s for s in function.body if not (isinstance(s, nodes.Expr) and isinstance(s.value, nodes.Const))]
    if len(body) < 3 or _returns(function) != 1:
        return None
    looked, guard, last = body[-3:]
    call = looked.value if isinstance(looked, nodes.Assign) and len(looked.targets) == 1 \
        and isinstance(looked.targets[0], nodes.AssignName) else None
    if not (isinstance(call, nodes.Call) and isinstance(call.func, nodes.Attribute) and call.func.attrname == "get"
            and len(call.args) == 1 and not call.keywords):
        return None
    binding, name = _module_dict(call.func.expr), looked.targets[0].name
    tested = _is_none_guard(guard)
    if binding is None or not isinstance(tested, nodes.Name) or tested.name != name:
        return None
    cache, key = call.func.expr.as_string(), call.args[0].as_string()
    stored = _store(guard.body[-1], cache, key)
    if stored is None or stored.as_string() != name or not isinstance(last, nodes.Return) \
            or not isinstance(last.value, nodes.Name) or last.value.name != name:
        return None
    return _memo(function, bound_value(call.args[0]), cache, binding, (looked.lineno, guard.body[-1].lineno),
                 extra="a computed None is cached by the library, where `.get` reads it as a miss and computes again")


def _memo(function: nodes.FunctionDef, key: nodes.NodeNG, cache: str, statement: nodes.NodeNG,
          lines: tuple[int, int], extra: str = "") -> Replaceable | None:
    parameters = {a.name for a in function.args.arguments}  # every kind, `*args` and `**kwargs` included
    names = {n.name for n in ([key] if isinstance(key, nodes.Name) else key.nodes_of_class(nodes.Name))}
    calls = {n.func.as_string() for n in key.nodes_of_class(nodes.Call)}
    if not parameters <= names or not names - BUILTIN_KEY_CALLS <= parameters or not calls <= BUILTIN_KEY_CALLS:
        return None  # a key that leaves a parameter out, or reads state, is not the arguments
    plain = isinstance(key, nodes.Name) or (isinstance(key, nodes.Tuple) and all(
        isinstance(e, nodes.Name) or isinstance(e, nodes.Const) for e in key.elts))
    uses = [n for n in function.root().nodes_of_class(nodes.Name) if n.name == cache]
    sharers = sorted({n.frame().name for n in uses if n.frame() is not function})
    glue = ["unbounded, as the dict is (`functools.lru_cache(maxsize=N)` if a bound is wanted)",
            "arguments must stay hashable"] + ([extra] if extra else [])
    if not plain:
        glue.append(f"the key maps the arguments (`{key.as_string()}`): the library keys on the arguments themselves, "
                    "so arguments equal under that mapping get separate entries and unhashable ones fail")
    if sharers:
        glue.append(f"`{cache}` is also used by {', '.join(sharers)}: each function gets its own cache "
                    "(`cache_clear()` replaces a clear of the dict)")
    return Replaceable("memoisation", f"{function.name}: {cache}[{key.as_string()}]", "functools.cache", "Python 3.9",
                       f"`{function.name}` returns `{cache}[key]` when present and fills it otherwise, keyed by all its "
                       "arguments", glue="; ".join(glue), decorator=True,
                       confidence="high" if plain and not sharers and not extra else "medium",
                       goes=f"`{cache}` (line {statement.lineno}), the lookup (line {lines[0]}) and the store (line {lines[1]})",
                       places=((function.fromlineno, function.tolineno), (statement.lineno, statement.tolineno)),
                       size=statement.tolineno - statement.lineno + 3)  # the dict, the lookup and its return, the store


def _fields_dict(node: nodes.NodeNG, subject: str) -> bool:
    """`{f.name: getattr(subject, f.name) for f in fields(subject)}`."""
    if not isinstance(node, nodes.DictComp) or len(node.generators) != 1 or node.generators[0].ifs:
        return False
    loop = node.generators[0]
    if not isinstance(loop.target, nodes.AssignName) or not isinstance(loop.iter, nodes.Call):
        return False
    field = loop.target.name
    return (loop.iter.func.as_string() in ("fields", "dataclasses.fields") and [a.as_string() for a in loop.iter.args] == [subject]
            and node.key.as_string() == f"{field}.name"
            and node.value.as_string() == f"getattr({subject}, {field}.name)")


def dataclass_replace(function: nodes.FunctionDef, subclassed: Callable[[nodes.ClassDef], bool]) -> Replaceable | None:
    """`d = {f.name: getattr(self, f.name) for f in fields(self)}; d.update(changes); return Cls(**d)`.

    `replace` builds `type(self)`: the same as `Cls(...)` unless the project subclasses Cls (`subclassed`).
    """
    body = [s for s in function.body if not (isinstance(s, nodes.Expr) and isinstance(s.value, nodes.Const))]
    if len(body) != 3 or not isinstance(function.parent, nodes.ClassDef) or not function.args.arguments:
        return None
    subject = function.args.arguments[0].name
    first, update, last = body
    if not (isinstance(first, nodes.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], nodes.AssignName)
            and _fields_dict(first.value, subject)):
        return None
    name = first.targets[0].name
    if not (isinstance(update, nodes.Expr) and isinstance(update.value, nodes.Call)
            and update.value.func.as_string() == f"{name}.update"):
        return None
    if not (isinstance(last, nodes.Return) and isinstance(last.value, nodes.Call) and not last.value.args
            and [k.as_string() for k in last.value.keywords or ()] == [f"**{name}"]):
        return None
    built = last.value.func.as_string()
    own = built in (f"type({subject})", f"{subject}.__class__")
    if not own and built != function.parent.name:
        return None
    own = own or not subclassed(function.parent)
    changes = ", ".join([f"**{a.as_string()}" for a in update.value.args] + [k.as_string() for k in update.value.keywords or ()])
    glue = ["`replace` calls `__init__` (and `__post_init__`) as this does, and rejects fields declared `init=False`"]
    if not own:
        glue.append(f"it builds `type({subject})`, where this builds `{built}` even for a subclass")
    elif built == function.parent.name:
        glue.append(f"it builds `type({subject})`, the same as `{built}` while no class of the project subclasses it")
    return Replaceable("dataclass copy", f"{function.name}: {built}(**{name})", "dataclasses.replace", "Python 3.7",
                       f"a dict of every field of `{subject}`, updated and passed to the constructor, is a "
                       f"shallow copy with changes: `dataclasses.replace({subject}, {changes})`",
                       glue="; ".join(glue), confidence="high" if own else "medium",
                       goes=f"lines {first.lineno}-{last.lineno}", places=((function.fromlineno, function.tolineno),),
                       size=last.tolineno - first.lineno + 1)


def _self_attribute(node: nodes.NodeNG, self_name: str) -> str | None:
    if isinstance(node, (nodes.Attribute, nodes.AssignAttr)) and isinstance(node.expr, nodes.Name) and node.expr.name == self_name:
        return node.attrname
    return None


def lazy_property(function: nodes.FunctionDef, named_outside: Callable[[nodes.NodeNG, str], list[str]]) -> Replaceable | None:
    """A `@property` whose body is `if self._a is None: ...; self._a = v` then `return self._a`, `_a` set to None in
    `__init__` only: `functools.cached_property` (Python 3.8)."""
    cls = function.parent
    decorators = function.decorators.nodes if function.decorators else []
    if not isinstance(cls, nodes.ClassDef) or [d.as_string() for d in decorators] != ["property"] \
            or len(function.args.arguments) != 1:
        return None
    if any(name in cls.locals for name in ("__slots__", "__setattr__", "__getattribute__")):
        return None  # no instance dict, or attribute writes that go elsewhere
    body = [s for s in function.body if not (isinstance(s, nodes.Expr) and isinstance(s.value, nodes.Const))]
    me = function.args.arguments[0].name
    found = _lazy_guard(body, me)
    if found is None or _returns(function) != len(body) - 1:
        return None
    attribute, guard, last = found
    elsewhere = [n for n in cls.nodes_of_class((nodes.Attribute, nodes.AssignAttr)) if n.attrname == attribute
                 and n.frame() is not function]
    writes = [n for n in elsewhere if isinstance(n, nodes.AssignAttr)]
    initial = [n for n in writes if n.frame().name == "__init__" and isinstance(n.parent, (nodes.Assign, nodes.AnnAssign))
               and isinstance(n.parent.value, nodes.Const) and n.parent.value.value is None]
    defaults = [n for n in cls.body if isinstance(n, (nodes.Assign, nodes.AnnAssign)) and isinstance(n.value, nodes.Const)
                and n.value.value is None and any(isinstance(t, nodes.AssignName) and t.name == attribute
                                                  for t in (n.targets if isinstance(n, nodes.Assign) else [n.target]))]
    unset = _missing_guard(guard, me) is not None  # a `hasattr` guard: the attribute has no initial value at all
    if unset and "__getattr__" in cls.locals:
        return None  # `hasattr` would ask `__getattr__`, which may answer for the missing attribute
    if writes != initial or len(initial) + len(defaults) != (0 if unset else 1):
        return None  # reset or set eagerly elsewhere: not a compute-once value
    where, start = ((f"`self.{attribute} = None`", initial[0].lineno) if initial else
                    (f"`{attribute} = None`", defaults[0].lineno) if defaults else ("the `hasattr` test", guard.lineno))
    reads = sorted({n.lineno for n in elsewhere if not isinstance(n, nodes.AssignAttr)})
    glue = [f"the value lives in the instance dict under `{function.name}`: `del obj.{function.name}` resets it and "
            "assignment becomes possible"] + ([] if unset else ["a computed None is kept, where the guard would compute again"])
    if reads:
        glue.append(f"`{attribute}` is also read directly (line {', '.join(map(str, reads))}): those reads change")
    outside = named_outside(cls, attribute)  # a subclass, or code elsewhere, that may set the field itself
    if outside:
        glue.append(f"`{attribute}` is also named outside the class ({', '.join(outside)}): check that nothing there sets it")
    return Replaceable("lazy property", f"{function.name}: self.{attribute}", "functools.cached_property", "Python 3.8",
                       f"`{function.name}` computes `{attribute}` on first read and returns it after, and `{attribute}` is "
                       + ("set nowhere else (a `hasattr` guard keeps a computed None too)" if unset else
                          f"set elsewhere only to None ({where})"), glue="; ".join(glue),
                       confidence="medium" if reads or outside else "high", decorator=True,
                       goes=(f"the guard (line {guard.lineno}) and the return (line {last.lineno})" if unset else
                             f"{where} (line {start}), the guard (line {guard.lineno}) and the return (line {last.lineno})"),
                       places=((function.fromlineno, function.tolineno), (start, start)),
                       size=2 if unset else 3)  # the None (unless `hasattr` guards), the guard and the return


def _is_none_guard(statement: nodes.NodeNG, operator: str = "is") -> nodes.NodeNG | None:
    """The tested operand of `if <operand> is None:` (`is not` when asked) without an else, else None."""
    if not isinstance(statement, nodes.If) or statement.orelse:
        return None
    test = statement.test
    if (isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] == operator
            and isinstance(test.ops[0][1], nodes.Const) and test.ops[0][1].value is None):
        return test.left
    return None


def _missing_guard(statement: nodes.NodeNG, me: str) -> str | None:
    """`_a` of `if not hasattr(self, "_a"):` without an else."""
    test = statement.test if isinstance(statement, nodes.If) and not statement.orelse else None
    call = test.operand if isinstance(test, nodes.UnaryOp) and test.op == "not" else None
    if isinstance(call, nodes.Call) and call.func.as_string() == "hasattr" and len(call.args) == 2 and not call.keywords \
            and call.args[0].as_string() == me and isinstance(call.args[1], nodes.Const) and isinstance(call.args[1].value, str):
        return call.args[1].value
    return None


def _lazy_guard(body: list[nodes.NodeNG], me: str) -> tuple[str, nodes.NodeNG, nodes.Return] | None:
    """(attribute, guard, final return) of `if self._a is None: ...; self._a = v` (or `if not hasattr(self, "_a")`)
    then `return self._a`, or of `if self._a is not None: return self._a` then `self._a = v; return self._a`."""
    last = body[-1] if body else None
    if not isinstance(last, nodes.Return) or last.value is None:
        return None
    attribute = _self_attribute(last.value, me)
    if len(body) == 2:
        tested = _missing_guard(body[0], me)
        if tested is None:
            operand = _is_none_guard(body[0])
            tested = _self_attribute(operand, me) if operand is not None else None
        stores = body[0].nodes_of_class(nodes.AssignAttr)
    elif len(body) == 3:
        operand = _is_none_guard(body[0], "is not")
        tested = _self_attribute(operand, me) if operand is not None else None
        early = body[0].body if tested is not None else []
        if len(early) != 1 or not isinstance(early[0], nodes.Return) or early[0].value is None \
                or _self_attribute(early[0].value, me) != attribute:
            return None
        stores = [t for t in getattr(body[1], "targets", ()) if isinstance(t, nodes.AssignAttr)]
    else:
        return None
    if attribute is None or tested != attribute or not any(_self_attribute(n, me) == attribute for n in stores):
        return None
    built = [n for statement in (body[0].body if len(body) == 2 else [body[1]])
             for n in statement.nodes_of_class((nodes.Attribute, nodes.AssignAttr)) if _self_attribute(n, me) == attribute]
    if len(built) != 1:
        return None  # the value is built up in the attribute (assigned in branches, extended): not one store to drop
    return attribute, body[0], last


def lazy_global(function: nodes.FunctionDef, named_outside: Callable[[nodes.NodeNG, str], list[str]]) -> Replaceable | None:
    """A module-level function without parameters: `global _x; if _x is None: ...; _x = v; return _x`, with `_x = None`
    bound once at module level and written nowhere else: `functools.cache` on the function (Python 3.9)."""
    module = function.parent
    if not isinstance(module, nodes.Module) or function.decorators is not None or function.args.arguments:
        return None
    body = [s for s in function.body if not (isinstance(s, nodes.Expr) and isinstance(s.value, nodes.Const))]
    if len(body) != 3 or not isinstance(body[0], nodes.Global) or not isinstance(body[2], nodes.Return) or _returns(function) != 1:
        return None
    tested = _is_none_guard(body[1])
    if not isinstance(tested, nodes.Name) or body[0].names != [tested.name] or not isinstance(body[2].value, nodes.Name) \
            or body[2].value.name != tested.name:
        return None
    name = tested.name
    bindings = [n for n in module.nodes_of_class(nodes.AssignName) if n.name == name]
    initial = [n for n in bindings if n.frame() is module and isinstance(n.parent, (nodes.Assign, nodes.AnnAssign))
               and n.parent.parent is module and isinstance(n.parent.value, nodes.Const) and n.parent.value.value is None]
    if len(initial) != 1 or any(n.frame() is not function for n in bindings if n is not initial[0]):
        return None  # reset or bound elsewhere: not a compute-once value
    elsewhere = [n for n in module.nodes_of_class(nodes.Global) if name in n.names and n.frame() is not function]
    if not any(n.frame() is function for n in bindings) or elsewhere:
        return None
    reads = sorted({n.lineno for n in module.nodes_of_class(nodes.Name) if n.name == name and n.frame() is not function})
    glue = ["a computed None is kept, where the guard would compute again"]
    if reads:
        glue.append(f"`{name}` is also read directly (line {', '.join(map(str, reads))}): read it through "
                    f"`{function.name}()` there")
    outside = named_outside(module, name)  # another module that imports, reads or resets it
    if outside:
        glue.append(f"`{name}` is also named in other files ({', '.join(outside)}): check that nothing there resets it")
    return Replaceable("lazy global", f"{function.name}: {name}", "functools.cache", "Python 3.9",
                       f"`{function.name}()` computes `{name}` on its first call and returns it after; `{name}` is bound "
                       "nowhere else", glue="; ".join(glue), confidence="medium" if reads or outside else "high", decorator=True,
                       goes=f"`{name} = None` (line {initial[0].lineno}), the `global` (line {body[0].lineno}) and the guard "
                       f"(line {body[1].lineno}); return the value directly",
                       places=((function.fromlineno, function.tolineno), (initial[0].lineno, initial[0].lineno)),
                       size=3)  # the None, the `global` and the guard
