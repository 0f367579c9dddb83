"""Linear-layer quantization methods; the key is built from the method name."""


def fp8_linear(weight):
    return weight


def int8_linear(weight):
    return weight


def int4_awq_linear(weight):
    return weight


QUANT_LINEAR_METHODS = {
    "fp8_linear": fp8_linear,
    "int8_linear": int8_linear,
    "int4_awq_linear": int4_awq_linear,
}


def quantize_linear(method: str, weight):
    return QUANT_LINEAR_METHODS[f"{method}_linear"](weight)
