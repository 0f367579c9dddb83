"""What authors say of a field in comments: a documented compatibility alias (a trap of every shape) or a reader the
code does not show ("so that the patched function can access it"). Read from pylint's token stream (`module_comments`).
"""

from __future__ import annotations

import re

from astroid import nodes

from pylint_omni.evidence.comments import module_comments
from pylint_omni.state.patterns import FieldWrite

COMPAT_WORDS = ("alias", "compat", "backward", "deprecat", "legacy")
# A comment naming a reader elsewhere ("so that the patched function can access it", "read by the runner").
READER_WORDS = re.compile(r"\b(can|could|to|will|may)\s+(\w+\s+)?access\b|\b(read|used|needed|consumed|expected|looked up) by\b", re.I)


def compat_note(klass: nodes.ClassDef, name: str, lines: list[int]) -> str | None:
    """A comment on the field's lines (or right above) or the class docstring calling it a compatibility alias."""
    comments = module_comments(klass.root()).by_line  # a documented compatibility alias is a trap
    for line in lines:
        for number in (line, line - 1):
            comment = comments.get(number, "")
            if any(word in comment.lower() for word in COMPAT_WORDS):
                return f"documented compatibility alias ({comment.strip()!r} at line {number})"
    doc = (klass.doc_node.value if klass.doc_node else "") or ""
    if name in doc and any(word in doc.lower() for word in COMPAT_WORDS):
        return f"documented compatibility alias (the docstring of {klass.name} names {name})"
    return None

def reader_note(writes: list[FieldWrite]) -> str | None:
    """A comment on a write, or right above it or above the block holding it, saying the field is read elsewhere."""
    for write in writes:
        comments = module_comments(write.node.root()).by_line
        starts = [write.node.lineno]
        parent = write.node.statement().parent
        if isinstance(parent, (nodes.If, nodes.With, nodes.Try)):
            starts.append(parent.fromlineno)  # `# set it so that X can access it` above the `if`
        for line in starts:
            said = [comments.get(line, "")]
            above = line - 1
            while above in comments and above >= line - 4:
                said.append(comments[above])
                above -= 1
            found = next((c for c in said if READER_WORDS.search(c)), None)
            if found:
                return found.lstrip("# ").strip()
    return None
