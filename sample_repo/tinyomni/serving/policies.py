"""Admission policies: every subclass registers itself when it is defined."""


class ServingPolicy:
    _known: dict = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        ServingPolicy._known[cls.__name__] = cls

    @classmethod
    def named(cls, name: str) -> "ServingPolicy":
        return cls._known[name]()

    def admit(self, request: dict) -> bool:
        return True


class OpenPolicy(ServingPolicy):
    def admit(self, request: dict) -> bool:
        return bool(request)
