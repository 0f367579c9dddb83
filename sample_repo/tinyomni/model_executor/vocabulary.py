"""What the detokenizer needs to know about a tokenizer's vocabulary, computed once per tokenizer."""

from __future__ import annotations


class VocabularyInfo:
    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self._space_prefixed = None
        self._special = None

    @property
    def space_prefixed(self) -> set[int]:
        """Ids of tokens that start with the word-boundary marker."""
        if self._space_prefixed is None:
            vocab = self.tokenizer.convert_ids_to_tokens(list(range(self.tokenizer.vocab_size)))
            self._space_prefixed = {i for i, token in enumerate(vocab) if token.startswith("\u2581")}
        return self._space_prefixed

    @property
    def special(self) -> set[int]:
        """Trap: reset when the tokenizer gains tokens, so not a compute-once value."""
        if self._special is None:
            self._special = set(self.tokenizer.all_special_ids)
        return self._special

    def add_tokens(self, tokens: list[str]) -> None:
        self.tokenizer.add_tokens(tokens)
        self._special = None


_CHAT_TEMPLATE = None
_STOP_STRINGS = None


def default_chat_template() -> str:
    """The chat template used when the model ships none, read from the package once."""
    global _CHAT_TEMPLATE
    if _CHAT_TEMPLATE is None:
        _CHAT_TEMPLATE = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    return _CHAT_TEMPLATE


def stop_strings() -> list[str]:
    """Trap: `reset_stop_strings` rebinds it, so not a compute-once value."""
    global _STOP_STRINGS
    if _STOP_STRINGS is None:
        _STOP_STRINGS = ["</s>"]
    return _STOP_STRINGS


def reset_stop_strings() -> None:
    global _STOP_STRINGS
    _STOP_STRINGS = None
