"""`unused-registry-entry`: a registry entry whose key and target have no production consumer.

Registries are string-keyed tables that name code (see `index.scan.registry_scan`). An
entry is live when its key or its target is used by production code or runtime
configuration outside the registry itself; otherwise the evidence pass decides
between a high- or medium-confidence candidate and a rejected idea
(`registries.liveness`). Declarations under validation paths (tests, examples) are
not audited: they are not a supported surface.
"""

from __future__ import annotations

from dataclasses import replace

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.wording import evidence_clause, short_message
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.registries.liveness import EntryEvidence, judge_entry, read_registry
from pylint_omni.registries.qualname_modules import judge_module

ENTRY_NODE_TYPES = (nodes.Const, nodes.Call, nodes.Assign, nodes.AssignName)


class UnusedRegistryEntryChecker(OmniChecker):
    """Flags registry entries that nothing in production looks up."""

    msgs = {
        "R7301": (
            "%s",
            "unused-registry-entry",
            "A registry entry (string-keyed table, import-string Enum, @register(\"key\") "
            "decorator, REG[key] = X) whose key and target have no production consumer: "
            "not in code, deploy YAML, CLI choices or defaults, env defaults or entry points. "
            "Remove the entry (and its target when nothing else uses it).",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        self._qualname_functions(node, index, relpath)
        registries = index.facts(relpath).get("registries", [])
        if not registries:
            return
        positions = {
            (n.lineno, n.col_offset): n for n in node.nodes_of_class(ENTRY_NODE_TYPES) if n.lineno is not None
        }
        for registry in registries:
            reading = read_registry(index, relpath, registry)
            for entry in registry["entries"]:
                evidence = judge_entry(index, self.settings, relpath, registry, entry, reading)
                at = positions.get((entry["line"], entry["col"]))
                if evidence is None or at is None:
                    continue
                text = self._text(registry, entry, evidence)
                module = index.entries[relpath].get("module", "")
                self.emit("unused-registry-entry", at, evidence.verdict, (text,), self._details(relpath, registry, entry, evidence, module))

    def _qualname_functions(self, node: nodes.Module, index: ProjectIndex, relpath: str) -> None:
        """Functions of a module loaded by qualname that no built qualname reaches (`qualname_modules`)."""
        functions = {f.name: f for f in node.body if isinstance(f, (nodes.FunctionDef, nodes.AsyncFunctionDef))}
        for judged in judge_module(index, relpath):
            data = judged.function.data
            at = functions.get(data["name"])
            if at is None:
                continue
            registry = {"name": judged.function.module, "form": "qualname-loaded module", "line": data["line"], "end": data["end"], "entries": []}
            entry = {"key": data["name"], "line": data["line"], "col": 0, "span": [data["line"], data["end"]], "target": None, "suffix": False}
            evidence = EntryEvidence(judged.verdict, None, judged.consumers, [])
            text = self._text(registry, entry, evidence)
            details = replace(self._details(relpath, registry, entry, evidence, judged.function.module),
                              subject=judged.function.dotted, kind="qualname-function")
            self.emit("unused-registry-entry", at, judged.verdict, (text,), details)

    @staticmethod
    def _details(relpath: str, registry: dict, entry: dict, evidence: EntryEvidence, module: str) -> FindingDetails:
        key, target = entry["key"], evidence.target
        surface = [f"{relpath}:{entry['line']} {registry['name']}[{key!r}] ({registry['form']})"]
        simplification = f"Remove the entry {key!r} from {registry['name']}"
        benefit = f"one {registry['form']} registry entry and the name {key!r} as a supported choice"
        names = [key]
        lines = entry["span"][1] - entry["span"][0] + 1
        if target is not None:
            target_lines = target.data["end"] - target.data["line"] + 1
            lines += target_lines
            surface.append(f"{target.path}:{target.data['line']} {target.kind} {target.data['name']}")
            simplification += f", then delete {target.kind} {target.data['name']} if nothing else uses it"
            benefit += f"; {target.kind} {target.data['name']} ({target_lines} lines) once unused"
            names.append(target.data["name"])
        risk = (
            f"A configuration, checkpoint or plugin outside this repository that names {key!r} would stop "
            "resolving; run the tests that exercise the registry."
        )
        # An entry without code of its own (a key and a value) is small: the report bundles them per file.
        gain = Benefit(lines, BenefitKind.API, benefit, micro=target is None and lines <= 2,
                       bundle="unused registry entry", scope=registry["name"])
        return FindingDetails(surface, simplification + ".", gain, risk, names,
                              subject=f"{module or relpath}.{registry['name']}[{key!r}]", kind="entry")

    @staticmethod
    def _text(registry: dict, entry: dict, evidence: EntryEvidence) -> str:
        target = evidence.target
        fix = "remove the entry" + (f" and {target.data['name']} if nothing else uses it" if target else "")
        return short_message(
            f"Registry entry '{entry['key']}' of {registry['name']} has no production consumer", fix,
            evidence_clause(evidence.verdict),
        )


def register(linter: PyLinter) -> None:
    linter.register_checker(UnusedRegistryEntryChecker(linter))
