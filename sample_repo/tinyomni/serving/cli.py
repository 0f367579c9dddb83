"""`tinyomni-router`: run the engine loop, then serve HTTP."""

from tinyupstream.engine import run_loop

from tinyomni.serving.engine import OmniEngineCore
from tinyomni.serving.router import RequestRouter


def main() -> int:
    import uvicorn

    metrics = run_loop(OmniEngineCore(), steps=2)
    router = RequestRouter(["replica-0"])
    router.drain()
    print(metrics, len(router))
    uvicorn.run("tinyomni.serving.http:app")
    return 0
