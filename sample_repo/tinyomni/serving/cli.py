"""`tinyomni-router`: run the engine loop, then serve HTTP."""

from tinyupstream.engine import run_loop

from tinyomni.serving.backends.first import FirstBackend
from tinyomni.serving.backends.round_robin import RoundRobinBackend
from tinyomni.serving.blocks import Residual
from tinyomni.serving.budget_bytes import ByteBudgeter
from tinyomni.serving.decode import paged_decode
from tinyomni.serving.engine import OmniEngineCore, ReplayEngineCore
from tinyomni.serving.fastops_registry import register_fast_ops
from tinyomni.serving.intake import IntakeQueue
from tinyomni.serving.keys import hash_key
from tinyomni.serving.metrics import count_request
from tinyomni.serving.pipeline_link import PipelineLink
from tinyomni.serving.router import RequestRouter
from tinyomni.serving.runtime_env import runtime_devices
from tinyomni.serving.spill import SpillManager
from tinyomni.serving.textops.lower import to_lower
from tinyomni.serving.textops.upper import to_upper
from tinyomni.serving.transfers import LoadTracker, SendTracker
from tinyomni.serving.weights import WeightSwapper


def main() -> int:
    import uvicorn

    metrics = run_loop(OmniEngineCore(), steps=2)
    run_loop(ReplayEngineCore(), steps=1)
    register_fast_ops(lambda name, op: None)
    sending, loading = SendTracker(), LoadTracker()
    sending.start("r0")
    loading.begin("r0")
    loading.step({"r0"})
    block = Residual()
    print(paged_decode([1, 2, 3, 4], 2), to_lower("A") + to_upper("b"), block.act, block.scale)
    router = RequestRouter(["replica-0"])
    router.drain()
    if not ByteBudgeter(64).admit("hello"):
        return 1
    WeightSwapper().swap_in("q_proj")
    SpillManager().reserve(hash_key("replica-0") % 4)
    intake = IntakeQueue()
    intake.admit({"id": "r0"})
    link = PipelineLink(rank=0, world=2)
    counters: dict = {}
    count_request(counters)
    picked = [RoundRobinBackend(["a", "b"]).pick(), FirstBackend(["a"]).pick(), runtime_devices({"devices": "1"})]
    print(metrics, len(router), intake.pending, link.next_rank(), counters, picked)
    uvicorn.run("tinyomni.serving.http:app")
    return 0
