"""What a project writes of its own design in its contributor and agent guides: a rule that outranks a generic cleanup.

- **Duplication declared deliberate** ("shared logic is deliberately duplicated across
  trainers", "self-contained by design", "duplication is accepted"): the project keeps
  copies on purpose, so a copy is no candidate to share; what its own rule asks for is
  that the copies stay aligned, which a drifted copy breaks.
Read from the guides the index holds (`AGENTS.md`, `CLAUDE.md`, `CONTRIBUTING.md`,
`.github/copilot-instructions.md`, ...), one sentence at a time; a sentence that argues
against duplication (`avoid`, `do not`, `unless`) says nothing of the kind.
"""

from __future__ import annotations

import re

from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex

GUIDE = re.compile(r"(?:^|/)(?:AGENTS|CLAUDE|GEMINI|CONTRIBUTING|copilot-instructions)[^/]*\.(?:md|rst|txt)$", re.I)
DELIBERATE_DUPLICATION = re.compile(
    r"\b(?:deliberate\w*|intentional\w*|on purpose)\W+(?:\w+\W+){0,3}?(?:duplicat\w*|copied)\b"
    r"|\bduplicat\w*\W+(?:\w+\W+){0,3}?(?:is|are)\s+(?:accepted|deliberate|intentional)\b"
    r"|\bself-contained by design\b",
    re.I,
)
AGAINST = re.compile(r"\b(?:avoid\w*|do not|don't|never|unless|minimi[sz]e\w*|reduce)\b", re.I)
SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]|\n|$)")
MAX_QUOTE = 90


def _declared_duplication(index: ProjectIndex) -> str | None:
    for rel in sorted((rel for rel in index.entries if GUIDE.search(rel)), key=lambda rel: (rel.count("/"), rel)):
        text = index.text(rel) or ""
        for number, line in enumerate(text.splitlines(), start=1):
            for sentence in SENTENCE.findall(line):
                found = DELIBERATE_DUPLICATION.search(sentence)
                if found and not AGAINST.search(sentence):
                    quote = " ".join(sentence.split()).strip("*_ ")
                    return f"{rel}:{number}: \"{quote[:MAX_QUOTE]}{'…' if len(quote) > MAX_QUOTE else ''}\""
    return None


DECLARED_DUPLICATION = Derived("evidence.declared_duplication", _declared_duplication)


def declared_duplication(index: ProjectIndex) -> str | None:
    """Where the project's guides declare its duplication deliberate (`path:line: "quote"`), or None."""
    return DECLARED_DUPLICATION.of(index)
