"""Conventions, not candidates: an idiom that unrelated model families each write in their own file.

A serving project keeps one file or folder per model family (`models/llama.py`,
`models/qwen2/`), and each repeats the same idioms on purpose — a fused QKV split, a
pre-norm decoder layer, a per-model `forward`, rotary helpers: a model file reads on
its own and changes with its model. Such a copy group is a rejected idea ("a
convention of N model families"), not a candidate, when every copy lies in a model
family (an entry below a folder of `FAMILY_FOLDERS`), the copies span two families or
more, the unit is not a whole module (a module copied whole is one model forked), and:
- they span `CONVENTION_FAMILIES` families or more: a pattern most model files repeat;
- or they span `NAMED_FAMILIES` families or more, each copy in a class named after its
  own family (`DeepseekMLP`, `Glm4MoeMLP`, `Qwen2MoeMLP`; a per-model `forward` or
  `load_weights`): each model defines its own layers and model classes;
- or the copies differ only in the names of classes of their own model (each builds its
  own decoder layer, attention, model): the per-model pattern itself;
- or the unit is small (at most `SMALL_IDIOM` statements that do something): a shared
  helper would couple unrelated models for a few lines.
A copy of a family's code that another family's file reuses as it is (a scheduler, a
kernel, a weight loader copied into a second model folder) stays a candidate below
those bounds, and so does any group with a copy outside model families (a shared
layer the model files could import).

A family is named by the first word of its entry below the family folder that is not a
word most entries of that folder share (`flash_llama_modeling.py` among
`flash_*_modeling.py` files is `llama`; `qwen2_vl.py` is `qwen`; `models/llama/...` is
`llama`), the entry below the first family folder on the path (`models/qwen_image/`
holds one family however many files it has); a folder grouping model files by kind
(`models/custom_modeling/`, `models/transformers/`, `models/runner_models/`) is passed
through: its entries are the families.
"""

from __future__ import annotations

import re
from typing import Iterable

from pylint_omni.changes.wording import named as listed
from pylint_omni.copies.keeper import COMMON
from pylint_omni.copies.members import Member
from pylint_omni.copies.verdict import Judgement
from pylint_omni.index.derived import Built
from pylint_omni.index.project_index import ProjectIndex

# Thresholds of the rule, in one place (see the module docstring for why each exists):
FAMILY_FOLDERS = frozenset({"models", "model_zoo", "pipelines"})  # folders whose every entry is one model family
CONVENTION_FAMILIES = 4  # families sharing a unit before it is the project's per-model pattern, whatever its size
NAMED_FAMILIES = 3  # families whose own, family-named classes hold the copies (DeepseekMLP, Glm4MoeMLP, Qwen2MoeMLP)
SMALL_IDIOM = 8  # statements that do something: at most this, an idiom two unrelated families may each keep
GENERIC_SHARE = 0.5  # a word in at least this share of a folder's entries names the folder's kind (`flash`, `pipeline`)
MIN_ENTRIES = 4  # entries a folder needs before any of its words counts as generic
GENERIC_WORDS = COMMON | {"init", "model", "models", "modeling", "module", "modules", "registry", "config", "configs"}
GROUPING_WORDS = frozenset({"modeling", "transformers", "transformer", "custom", "pipelines", "diffusers", "models"})  # such a
# folder below a family folder groups model files by kind (`custom_modeling/`, `transformers/`): its entries are the families
WORD = re.compile(r"[a-z]{2,}")  # letters only: `qwen2_5_vl` -> qwen, vl; a version or a one-letter tag names no family
NAME_TAIL = re.compile(r"([A-Za-z_]\w*)$")

_FAMILIES: Built[Families] = Built("copies.families")


class Families:
    """The model family of each production file, from the project's folders (once per run)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._entries: dict[str, set[str]] = {}  # folder -> the names of its entries (file stems and folders)
        for path in paths:
            parts = path.split("/")
            for depth in range(1, len(parts)):
                self._entries.setdefault("/".join(parts[:depth]), set()).add(parts[depth].removesuffix(".py"))
        self._generic: dict[str, frozenset[str]] = {}

    def _generic_words(self, folder: str) -> frozenset[str]:
        found = self._generic.get(folder)
        if found is None:
            entries = self._entries.get(folder, set())
            counts: dict[str, int] = {}
            for entry in entries:
                for word in set(WORD.findall(entry.lower())):
                    counts[word] = counts.get(word, 0) + 1
            found = frozenset(w for w, n in counts.items() if len(entries) >= MIN_ENTRIES and n >= GENERIC_SHARE * len(entries))
            self._generic[folder] = found
        return found

    def _named(self, parts: list[str], start: int) -> str | None:
        """The family word of the entry `parts[start]` (None: a shared module or folder of the family folder,
        `utils.py`, `__init__`); a folder that groups model files by kind (`custom_modeling/`, `transformers/`) is
        passed through to the entry below it."""
        for position in range(start, len(parts)):
            folder = position < len(parts) - 1
            words = WORD.findall(parts[position].removesuffix(".py").lower())
            if folder and set(words) & GROUPING_WORDS:
                continue
            if set(words) & COMMON:
                return None  # the family folder's shared code (`transformers_utils.py`, `base_pipeline.py`): no family
            generic = self._generic_words("/".join(parts[:position])) | GENERIC_WORDS
            specific = next((w for w in words if w not in generic), None)
            if specific is None and any(w not in GENERIC_WORDS for w in words):
                return parts[position].removesuffix(".py").lower()  # `z_image` among `*_image` entries: the entry itself
            return specific
        return None

    def of(self, paths: list[str]) -> dict[str, str | None]:
        """Each path's family: the entry below the first family folder on its path (None outside family folders)."""
        found: dict[str, str | None] = {}
        for path in paths:
            parts = path.split("/")
            first = next((i for i, part in enumerate(parts[:-1]) if part in FAMILY_FOLDERS), None)
            found[path] = self._named(parts, first + 1) if first is not None else None
        return found


def families(index: ProjectIndex, paths: Iterable[str]) -> Families:
    return _FAMILIES.of(index, lambda: Families(paths))


def _own_classes(index: ProjectIndex, judgement: Judgement) -> bool:
    """Every drifted copy differs from the kept one only in names of model classes (each builds its own)."""
    drifted = [m for m in judgement.group.members[1:] if not judgement.identical(m)]
    if not drifted:
        return False
    for member in drifted:
        found = judgement.drifts.get(member)
        differences = found.substantive() if found is not None else []
        if not differences or any(d.kind != "call" or not _model_class(index, d.kept)
                                  or not _model_class(index, d.other) for d in differences):
            return False
    return True


def _model_class(index: ProjectIndex, text: str) -> bool:
    """The shown name is a class defined in a model family's file."""
    tail = NAME_TAIL.search(text)
    if tail is None or text.endswith("…"):
        return False
    return any(d.kind == "class" and in_family(d.path) for d in index.definitions_named(tail.group(1)))


def in_family(path: str) -> bool:
    return any(part in FAMILY_FOLDERS for part in path.split("/")[:-1])


def convention(index: ProjectIndex, judgement: Judgement, paths: Iterable[str]) -> str | None:
    """Why a copy group is a per-model convention (a rejected idea), or None (`paths`: the production files)."""
    members = judgement.group.members
    if any(m.kind == "module" for m in members):
        return None
    known = families(index, paths)
    files = list(dict.fromkeys(m.path for m in members))
    by_path = known.of(files)
    if any(family is None for family in by_path.values()):
        return None
    named = sorted(set(by_path.values()))  # type: ignore[arg-type]
    if len(named) < 2:
        return None
    what = f"a convention of {len(named)} model families ({listed(named)})"
    if len(named) >= CONVENTION_FAMILIES:
        return f"{what}: each family keeps its own copy of the pattern"
    if len(named) >= NAMED_FAMILIES and _family_classes(members, by_path):
        return f"{what}: each model's own class holds its copy"
    if _own_classes(index, judgement):
        return f"{what}: each copy builds its own model's classes"
    if _size(judgement.kept) <= SMALL_IDIOM:
        return f"{what}: a {_size(judgement.kept)}-statement idiom each model keeps in its own file"
    return None


def _family_classes(members: list[Member], by_path: dict[str, str | None]) -> bool:
    """Every copy lies in a class named after its own model family (the unit itself, or the class of a method or of
    the method holding a block): each model defines its own layer or model class, and the copies are its code."""
    for member in members:
        owner = member.qual if member.kind == "class" else member.qual.partition(".")[0] if "." in member.qual else ""
        family = by_path.get(member.path) or ""
        if not owner or not family or family.replace("_", "") not in owner.lower():
            return False
    return True


def _size(member: Member) -> int:
    return member.statements
