"""The HTTP front end (started by `tinyomni-router` through the qualname `tinyomni.serving.http:app`)."""

from fastapi import FastAPI
from pydantic import BaseModel, field_validator

from tinyomni.serving.batching import Batcher
from tinyomni.serving.codecs import codec_for
from tinyomni.serving.errors import AdmissionRejected
from tinyomni.serving.health import all_healthy
from tinyomni.serving.policies import ServingPolicy
from tinyomni.serving.router import RequestRouter

app = FastAPI()
ROUTER = RequestRouter(["replica-0", "replica-1"])
BATCHER = Batcher(4)


class GenerateRequest(BaseModel):
    prompt: str

    @field_validator("prompt")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()


@app.post("/v1/generate")
def generate(body: GenerateRequest) -> dict:
    if not ServingPolicy.named("OpenPolicy").admit({"prompt": body.prompt}) or not all_healthy():
        return {"error": "rejected"}
    try:
        replica = ROUTER.route({"prompt": body.prompt})
    except AdmissionRejected as exc:
        return {"error": str(exc)}
    audio = codec_for("opus").encode(BATCHER.split([body.prompt]))
    return {"replica": replica, "audio": len(audio), "depth": ROUTER.depth}


@app.get("/v1/debug/replicas")
def list_replicas() -> dict:  # [unused-surface] a route no client in the repository calls (medium)
    return {"replicas": ROUTER.replicas}
