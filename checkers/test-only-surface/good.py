"""Helpers that production uses, or that the docs present as supported API."""


def format_queue(queue):
    """Presented in docs/guide.md: supported, although only tests call it."""
    return ", ".join(map(str, queue))


def serve(queue):
    return len(queue)


if __name__ == "__main__":
    print(serve([1, 2]))
