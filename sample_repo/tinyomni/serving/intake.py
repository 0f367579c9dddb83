"""Request intake of the router: two mixins the served queue combines."""


class IntakeMixin:
    def admit(self, request: dict) -> None:
        self._append_runtime_input(request)  # a method of the sibling mixin IntakeQueue combines


class BufferMixin:
    def _append_runtime_input(self, request: dict) -> None:  # trap: live through IntakeQueue (IntakeMixin.admit)
        self.pending.append(request)


class IntakeQueue(IntakeMixin, BufferMixin):
    def __init__(self) -> None:
        self.pending: list[dict] = []
