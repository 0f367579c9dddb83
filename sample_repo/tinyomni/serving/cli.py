"""`tinyomni-router`: run the engine loop, then serve HTTP."""

from tinyupstream.engine import run_loop

from tinyomni.serving.budget_bytes import ByteBudgeter
from tinyomni.serving.engine import OmniEngineCore
from tinyomni.serving.keys import hash_key
from tinyomni.serving.router import RequestRouter
from tinyomni.serving.spill import SpillManager
from tinyomni.serving.weights import WeightSwapper


def main() -> int:
    import uvicorn

    metrics = run_loop(OmniEngineCore(), steps=2)
    router = RequestRouter(["replica-0"])
    router.drain()
    if not ByteBudgeter(64).admit("hello"):
        return 1
    WeightSwapper().swap_in("q_proj")
    SpillManager().reserve(hash_key("replica-0") % 4)
    print(metrics, len(router))
    uvicorn.run("tinyomni.serving.http:app")
    return 0
