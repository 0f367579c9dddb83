"""Written, never read: which values make an unread field worth an audit line, and which doubts remain.

The audit method bundles small cleanups only when they support a substantive removal.
An unread field is a candidate when removing it removes something:
- work done at run time: it is written (or filled) outside construction and set-up
  methods (`_init_*`, `setup*`, `load*`, `build*`, ...), so every step or request pays
  for a value nobody reads;
- an object kept alive: a constructed `Cls(...)` or a resource-like factory
  (`socket`, `client`, `thread`, `engine`, ...);
- a computation: a call that is not a plain value lookup (`new_group(...)`, `get_ip()`);
- or it is one of several unread fields of one class (`MIN_CLUSTER`): a dead part of
  the class, removed together.
An isolated constant, parameter or configuration copy written once in the constructor
(`self.lock = None`, `self.eos = "</s>"`, `self.tp = args.tp`) is lint, not an audit
candidate: it is not reported.
"""

from __future__ import annotations

import re

from astroid import nodes

from pylint_omni.state.evidence import OwnerFacts
from pylint_omni.state.patterns import ClassState, FieldWrite

MIN_CLUSTER = 3  # unread fields of one class that make them a dead part of it, each worth reporting
# Methods that set an object up (called from a base's `__init__`, or once after construction).
SETUP_METHOD = re.compile(r"_?(init|setup|build|load|configure|register|from)\w*\Z|initialize\w*\Z")
KEEP_ALIVE_CALLS = frozenset({
    "Thread", "Process", "Timer", "finalize", "socket", "Socket", "Pool", "ThreadPoolExecutor",
    "ProcessPoolExecutor", "register_forward_hook", "register_forward_pre_hook", "register_hook",
    "Event", "Lock", "RLock", "Condition", "Semaphore", "Queue", "create_task", "ensure_future", "start",
})
# A field bound from a call, named as something running: its reference may be the only one (asyncio tasks).
RUNNING_NAME = re.compile(r"(?:^|_)(?:task|thread|process|proc|future|timer|watchdog|listener)s?$", re.I)
CONFIG_WORDS = re.compile(r"config|cfg", re.I)
# Calls whose result is a looked-up or converted value, not an object kept for its reference.
PLAIN_VALUE_CALLS = frozenset({
    "get", "getenv", "getattr", "len", "int", "float", "str", "bool", "abs", "round", "min", "max", "sum",
    "format", "join", "lower", "upper", "strip", "split", "replace",
    "dict", "list", "set", "tuple", "frozenset", "defaultdict", "OrderedDict", "deque", "Counter",
})
RESOURCE_WORDS = re.compile(
    r"socket|connect|client|server|thread|process|pool|executor|stream|session|engine|open|start|spawn|launch|"
    r"hook|handle|lock|event|queue|listen|subscri|watch|timer|context|manager", re.I)


def kept_object(call: nodes.Call) -> bool:
    """A call whose result may matter by being kept: a constructed object, or a resource-like factory.

    A function returning a value (`get_dtype(cfg)`, `time.monotonic()`) does not: an
    unread field holding it is simply unread.
    """
    callee = call.func.as_string().rpartition(".")[2]
    if callee in PLAIN_VALUE_CALLS:
        return False
    return callee[:1].isupper() or bool(RESOURCE_WORDS.search(callee))


def is_plain_data(value: nodes.NodeNG | None) -> bool:
    """Constants, arithmetic and config reads: nothing a torch module would register."""
    if value is None:
        return True
    if any(isinstance(n, (nodes.Call, nodes.Lambda)) for n in value.nodes_of_class(nodes.NodeNG)):
        return False
    for name in value.nodes_of_class(nodes.Name):
        chain = name.parent.as_string() if isinstance(name.parent, nodes.Attribute) else name.name
        if not (name.name.isupper() or CONFIG_WORDS.search(chain)):
            return False
    return True


def value_doubts(writes: list[FieldWrite], owner: OwnerFacts, rejects: list[str]) -> list[str]:
    """Values whose reference may be the point: resources, hooks, registered submodules (rejects are appended)."""
    mediums = []
    for write in writes:
        calls = list(write.value.nodes_of_class(nodes.Call)) if write.value is not None else []
        names = {c.func.as_string().rpartition(".")[2] for c in calls}
        if names & KEEP_ALIVE_CALLS:
            rejects.append(f"keeps {sorted(names & KEEP_ALIVE_CALLS)[0]}(...) alive (line {write.node.lineno})")
        elif RUNNING_NAME.search(write.name) and (write.kind == "unpack" or isinstance(write.value, (nodes.Call, nodes.Await))):
            # `self._port, self._server_task = await start_server(...)`: a task asyncio keeps only weakly
            rejects.append(f"{write.name} is named as a running task or handle (line {write.node.lineno}): "
                           "holding the reference keeps it alive")
        elif owner.torch_module and not is_plain_data(write.value):
            rejects.append(f"{owner.name} is a torch module: the value may be a registered submodule or parameter")
        elif isinstance(write.value, nodes.Call) and kept_object(write.value):
            callee = write.value.func.as_string().rpartition(".")[2]
            if callee[:1].isupper() and RESOURCE_WORDS.search(callee):
                # `self.offload_server = ZMQOffloadServer(...)`: the field is the reference that keeps it running
                rejects.append(f"keeps {callee}(...) alive (line {write.node.lineno}): the field may be its only reference")
            else:
                mediums.append(f"line {write.node.lineno} keeps the {callee}(...) object: it may need to stay alive")
    return mediums


LOOKUP_PREFIXES = ("get_", "is_", "has_", "_get_")
LOOKUP_METHODS = frozenset({"data_ptr", "item", "numel", "size", "dim", "element_size", "stride", "keys", "values", "items"})


def _computes(call: nodes.Call) -> bool:
    """A call that does work worth removing with the field (not a getter or a plain value lookup)."""
    callee = call.func.as_string().rpartition(".")[2]
    return not (callee in PLAIN_VALUE_CALLS or callee in LOOKUP_METHODS or callee.startswith(LOOKUP_PREFIXES))


def worth(name: str, writes: list[FieldWrite], state: ClassState) -> str | None:
    """What removing the unread field removes beyond the line itself, or None for a lint-level field."""
    construction = state.construction_methods()
    # `_init_weight_names()` called from a base's `__init__`, `load_weights()`, `setup()`: construction too.
    changed = ({w.method for w in writes} | state.mutated_in.get(name, set())) - construction
    runtime = sorted(m for m in changed if not SETUP_METHOD.match(m))
    if runtime:
        return f"written at run time in {', '.join(runtime[:3])}"
    for write in writes:
        value = write.value
        if isinstance(value, nodes.Call) and kept_object(value):
            return f"holds a {value.func.as_string().rpartition('.')[2]}(...) object"
        work = [c for c in value.nodes_of_class(nodes.Call) if _computes(c)] if value is not None else []
        if work:
            return f"computed by {work[0].func.as_string()}(...)"
    return None


def local_handover(klass: nodes.ClassDef) -> str | None:
    """A class defined in a function whose instances leave it: a protocol adapter read by its receiver.

    `component._hf_hook = _ExecDeviceHook(device)` hands the object to code that reads
    `.execution_device` by protocol; nothing in the project names that reader.
    """
    function = klass.parent.frame() if klass.parent is not None else None
    if not isinstance(function, nodes.FunctionDef):
        return None
    for call in function.nodes_of_class(nodes.Call):
        if not (isinstance(call.func, nodes.Name) and call.func.name == klass.name):
            continue
        parent = call.parent
        if isinstance(parent, nodes.Assign) and any(isinstance(t, nodes.AssignAttr) for t in parent.targets):
            target = next(t for t in parent.targets if isinstance(t, nodes.AssignAttr))
            return f"the local class {klass.name} is handed to `{target.as_string()}` (line {call.lineno}): its receiver reads its fields"
        if isinstance(parent, (nodes.Call, nodes.Keyword, nodes.Return)):
            return f"the local class {klass.name} is handed out at line {call.lineno}: its receiver reads its fields"
    return None
