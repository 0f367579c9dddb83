"""Where a duplicated value comes from, and when that source makes the copy legitimate.

A copy (`self.X = src.X`) or a derivation (`self.n = self.config["n"] // k`) is
judged by its source:
- configuration (`config`, `cfg`, `args`, `settings`, `options`, `*_params`, `*_config`,
  read by attribute or by key, or an object whose class is named so, `YarnParameters`)
  and the constants of a loaded processor or tokenizer
  (`self.processor.image_token`, `tokenizer.pad_token_id`): fixed once loaded, so a
  copy is a cached constant, not a second owner of live state;
- the source's class: a message crossing a process boundary, a class outside the
  project (an upstream contract), or a class the analysis cannot resolve: then nothing
  shows a project class that could be the single owner (on real code such sources are
  per-call contexts, collaborators handed to a constructor, or upstream objects);
- a torch module that copies values and submodules out of a constructor parameter:
  holding the parameter instead would register it as a child module.
"""

from __future__ import annotations

import re

from astroid import nodes

from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.state.evidence import OwnerFacts, OwnerLookup, infer_source_class

CONFIG_NAME = re.compile(r"(config|cfg|conf|args|settings|options|params|parameters)$", re.I)
PROCESSOR_NAME = re.compile(r"(processor|tokenizer)$", re.I)
TORCH_ANNOTATIONS = ("torch.", "nn.")


def constant_source(name: str) -> str | None:
    """Why a source named `name` (a field or the last part of a dotted source) holds constants."""
    if CONFIG_NAME.search(name):
        return f"configuration `{name}` (constants once loaded, not live state)"
    if PROCESSOR_NAME.search(name):
        return f"the loaded {PROCESSOR_NAME.search(name).group(1).lower()} `{name}` (its special tokens and sizes are constants)"
    return None


def judge_source(index: ProjectIndex, lookup: OwnerLookup, source: nodes.NodeNG) -> tuple[str, list[str], list[str]]:
    """The mirror source's name, and why it rejects or downgrades the finding."""
    text = source.as_string()
    constant = constant_source(text.rpartition(".")[2])
    if constant:
        return text, [f"copies values of {constant}"], []
    klass, written = infer_source_class(source)
    constant = constant_source(klass.name) if klass is not None else None
    if constant:
        return klass.name, [f"copies values of {constant}"], []
    if klass is not None and lookup.is_project(klass):
        owner = lookup.owner(klass)
        rejects = owner_rejections(owner, snapshot=False) + [
            f"the source type {klass.name} builds on {base}, outside the project (it may be an IPC message)"
            for base in owner.unresolved_bases[:1]
        ]
        return klass.name, rejects, []
    if klass is not None:
        return klass.name, [f"the source type {klass.qname()} is outside the project (an upstream contract)"], []
    if written:
        tail = written.split("[")[0].rpartition(".")[2].strip("'\"")
        if written.startswith(TORCH_ANNOTATIONS) or not any(d.kind == "class" for d in index.definitions_named(tail)):
            return written, [f"the source type {written} is outside the project (an upstream contract)"], []
        return written, [f"`{text}` is annotated {written}, but the annotation does not resolve to one project class here: no single owner is shown"], []
    return text, [f"the type of `{text}` is not inferred: no project class is shown that could be the single owner"], []


def owner_rejections(owner: OwnerFacts, *, snapshot: bool = True) -> list[str]:
    """Why a class's fields are not duplicated state: a message, a snapshot, reflection."""
    reasons = []
    if owner.message:
        reasons.append(f"crosses a process/IPC boundary: {owner.message}")
    if snapshot and owner.snapshot:
        reasons.append(f"deliberate snapshot: {owner.snapshot}")
    if owner.reflected:
        reasons.append(f"{owner.reflected}: every field has a reflective reader")
    return reasons


def torch_wrapper_reason(lookup: OwnerLookup, owner: OwnerFacts, source: nodes.NodeNG) -> str | None:
    """A torch module copying out of a constructor parameter that may itself be a module.

    Holding the parameter (`self.inner = inner`) would register it as a child module:
    its parameters join the wrapper's `state_dict` and stay alive. Copying the
    values and re-registering only the submodules wanted is the wrapper's design.
    A parameter whose class is a project class that is not a torch module is an
    ordinary source.
    """
    if not owner.torch_module or not isinstance(source, nodes.Name):
        return None
    frame = source.frame()
    if not isinstance(frame, nodes.FunctionDef) or source.name not in frame.argnames():
        return None
    klass, _ = infer_source_class(source)
    if klass is not None and lookup.is_project(klass) and not lookup.owner(klass).torch_module:
        return None
    return (
        f"{owner.name} is a torch module and `{source.name}` a parameter of {frame.name}: holding it would "
        "register it as a child module (its parameters and state_dict keys); copying its values and submodules is the design"
    )


def collaborator_shortcuts(source: nodes.NodeNG, fields: list[str]) -> str | None:
    """When every mirrored field is an object the source builds once, the copies are shortcuts.

    `self.block_manager = scheduler.block_manager` holds the same object the scheduler
    holds; the scheduler binds it once, in `__init__`, from a call: the two names can
    never disagree, so there is no second owner of a fact, only a second path to one.
    """
    klass, _ = infer_source_class(source)
    if klass is None:
        return None
    objects = [name for name in fields if not constant_source(name)]  # configs are judged as config copies
    if not objects:
        return None
    for name in objects:
        assigns = klass.instance_attrs.get(name, [])
        if len(assigns) != 1:
            return None
        assign = assigns[0]
        method = assign.frame()
        value = assign.parent.value if isinstance(assign.parent, nodes.Assign) else None
        if not isinstance(method, nodes.FunctionDef) or method.name != "__init__" or not isinstance(value, nodes.Call):
            return None
    return f"{klass.name} builds each of {', '.join(objects)} once in __init__: the copies are shortcuts to the same objects and cannot disagree"


MUTABLE_ANNOTATION = re.compile(
    r"(Optional\[)?(list|dict|set|deque|List|Dict|Set|DefaultDict|OrderedDict|(np|numpy)\.ndarray|(torch\.)?Tensor)\b")


def reference_copies(source: nodes.NodeNG, fields: list[str]) -> str | None:
    """Every copied field holds a mutable object (a list, a dict, an array, a tensor) by the source class's annotations.

    `Meta(req_ids=shared.req_ids, keys=shared.keys, ...)` hands over the same list
    objects: both names see every change, so there is no second copy of a fact to
    drift, only a second path to one.
    """
    klass, _ = infer_source_class(source)
    if klass is None:
        return None
    notes = {}
    for statement in klass.body:
        if isinstance(statement, nodes.AnnAssign) and isinstance(statement.target, nodes.AssignName):
            notes[statement.target.name] = statement.annotation.as_string()
    for assign in (a for name in fields for a in klass.instance_attrs.get(name, [])):
        parent = assign.parent
        if isinstance(parent, nodes.AnnAssign) and parent.target is assign:
            notes.setdefault(assign.attrname, parent.annotation.as_string())
    if all(MUTABLE_ANNOTATION.match(notes.get(name, "")) for name in fields):
        return (f"copies references to the same mutable objects of {klass.name} ({', '.join(fields[:3])}): "
                "both names see every change, a second path to one fact, not a second fact")
    return None
