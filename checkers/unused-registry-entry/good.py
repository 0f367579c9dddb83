"""Registries whose entries are all proven live, or saved by evidence the tool respects."""


def _flash(q, k, v):
    return q


def _naive(q, k, v):
    return q


def _sdpa(q, k, v):
    return q


# Every key is reachable: the table is handed out whole as CLI choices.
KERNEL_CHOICES = {
    "flash": _flash,
    "naive": _naive,
    "sdpa": _sdpa,
}


def add_arguments(parser):
    parser.add_argument("--kernel", choices=sorted(KERNEL_CHOICES), default="flash")


def fp8_linear(w):
    return w


def int8_linear(w):
    return w


# Keys are built with an f-string, so `int8_linear` may be looked up although no literal names it.
LINEAR_METHODS = {
    "fp8_linear": fp8_linear,
    "int8_linear": int8_linear,
}


def quantize(method: str, w):
    return LINEAR_METHODS[f"{method}_linear"](w)


def _stage_worker():
    return "worker"


def _stage_pipeline():
    return "pipeline"


# Keys named by the deploy configuration (context/deploy/stages.yaml).
STAGE_KINDS = {
    "ar": _stage_worker,
    "diffusion": _stage_pipeline,
}


def build(kind: str):
    return STAGE_KINDS[kind]()
