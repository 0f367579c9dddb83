"""`redundant-payload-conversion`: an encode→decode round trip, or the same encoding twice, in one process.

Flagged:
- a decoder applied to its own encoder's output: `pickle.loads(pickle.dumps(x))`,
  `json.loads(json.dumps(x))`, `base64.b64decode(base64.b64encode(x))` (a `.decode()`
  between is still the same bytes), `zlib.decompress(zlib.compress(x))`,
  `np.frombuffer(x.tobytes())`, `np.array(x.tolist())`, `np.array(t.cpu().numpy())`,
  `data.decode(c).encode(c)` — directly or through a local whose only other use is `len()`;
- the same payload encoded twice on one path (`len(pickle.dumps(x))` then `pickle.dumps(x)`).
Not flagged: one-way packing such as `torch.frombuffer(pickle.dumps(obj), dtype=torch.uint8)`
for `torch.distributed` object transport, `json.dumps(x, default=str)` sanitising,
and codec changes (`.encode("latin-1").decode("utf-8")`).
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.tensors.copy_findings import CopyChecker, CopyFinding, code_span
from pylint_omni.tensors.local_flow import enclosing_function, keyword_named, single_binding_value, uses_of
from pylint_omni.tensors.repeated_values import repeated_pairs
from pylint_omni.tensors.facts import Strength, call_name, method_call, receiver

BASE64_PAIRS = {
    f"base64.{prefix}decode": f"base64.{prefix}encode"
    for prefix in ("b64", "urlsafe_b64", "standard_b64", "b32", "b32hex", "b16", "b85", "a85")
}
# decoder -> (encoders, what the round trip is, strength): HEURISTIC where the round trip can be on purpose.
ROUND_TRIPS: dict[str, tuple[tuple[str, ...], str, Strength]] = {
    "pickle.loads": (("pickle.dumps", "cloudpickle.dumps"), "pickle", Strength.HEURISTIC),
    "cloudpickle.loads": (("cloudpickle.dumps", "pickle.dumps"), "pickle", Strength.HEURISTIC),
    "json.loads": (("json.dumps",), "JSON", Strength.HEURISTIC),
    "orjson.loads": (("orjson.dumps",), "JSON", Strength.HEURISTIC),
    "msgpack.unpackb": (("msgpack.packb",), "msgpack", Strength.HEURISTIC),
    "msgspec.msgpack.decode": (("msgspec.msgpack.encode",), "msgpack", Strength.HEURISTIC),
    "msgspec.json.decode": (("msgspec.json.encode",), "JSON", Strength.HEURISTIC),
    "base64.decodebytes": (("base64.encodebytes",), "base64", Strength.PROVEN),
    **{dec: ((enc,), "base64", Strength.PROVEN) for dec, enc in BASE64_PAIRS.items()},
    **{f"{lib}.decompress": ((f"{lib}.compress",), "compression", Strength.PROVEN) for lib in ("zlib", "gzip", "lzma", "bz2")},
}
ROUND_TRIP_RISK = {
    "pickle": "the result was an independent deep copy: code that mutates it would now mutate `{payload}`",
    "JSON": "the round trip also copied and normalised types (tuples to lists, keys to str): readers relying on that change",
    "msgpack": "the result was an independent, type-normalised copy: code that mutates it would now mutate `{payload}`",
}
WHY_ON_PURPOSE = {
    "pickle": "the round trip may be a deliberate deep copy (`copy.deepcopy(x)` says so)",
    "JSON": "the round trip also normalises types (tuples to lists, keys to str), which may be the point",
    "msgpack": "the round trip may be a deliberate deep copy or type normalisation",
}
SANITISING_KEYWORDS = ("default", "cls", "enc_hook", "object_hook", "dec_hook", "type", "ext_hook")
ENCODERS = frozenset(enc for encs, _, _ in ROUND_TRIPS.values() for enc in encs) | frozenset(BASE64_PAIRS.values())
# A method call's resolved name ends in its own attribute: any other attribute names no encoder (nothing to resolve).
ENCODER_TAILS = frozenset(enc.rpartition(".")[2] for enc in ENCODERS) | {"tobytes"}


def _payload_source(arg: nodes.NodeNG, call: nodes.Call) -> tuple[nodes.NodeNG, str] | None:
    """The expression a decoder decodes: the argument, or the value of a local whose only other use is `len()`."""
    while (text_step := method_call(arg, "decode", "encode")) is not None and not text_step.keywords:
        arg = receiver(text_step)  # base64 text and bytes are the same payload
    if not isinstance(arg, nodes.Name):
        return arg, ""
    value = single_binding_value(arg)
    function = enclosing_function(call)
    if value is None or isinstance(value, nodes.AssignName) or function is None:
        return None
    for use in uses_of(function, arg.name):
        if use is arg:
            continue
        if not (isinstance(use.parent, nodes.Call) and isinstance(use.parent.func, nodes.Name) and use.parent.func.name == "len"):
            return None  # sent or stored elsewhere: the encoding has another consumer
    return value, f" (through `{arg.name}`, line {value.lineno})"


def decode_of_encode(call: nodes.Call) -> CopyFinding | None:
    decoder = call_name(call)
    if decoder is None or not call.args:
        return None
    if decoder in ("numpy.frombuffer", "torch.frombuffer"):
        return _frombuffer_of_tobytes(call, decoder)
    if decoder in ("numpy.array", "numpy.asarray"):
        return _array_of_host_copy(call, decoder)
    if decoder not in ROUND_TRIPS:
        return None
    encoders, what, strength = ROUND_TRIPS[decoder]
    found = _payload_source(call.args[0], call)
    if found is None or not isinstance(found[0], nodes.Call) or call_name(found[0]) not in encoders:
        return None
    encode, through = found
    if any(keyword_named(c, k) is not None for c in (encode, call) for k in SANITISING_KEYWORDS) or not encode.args:
        return None  # custom hooks make it a conversion, not a round trip
    payload = encode.args[0].as_string()
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"decodes the {what} encoding it just made{through}",
        cost="1 encode + 1 decode and a bytes copy of the payload, in one process",
        fix=f"use `{payload}` directly"
        + (" (`copy.deepcopy` if an independent copy is needed)" if strength < Strength.PROVEN else ""),
        evidence=f"`{call_name(encode)}` feeds `{decoder}` in this function",
        strength=strength,
        saved=f"1 {what} encode + 1 decode and 1 bytes copy of the payload",
        risk=ROUND_TRIP_RISK.get(what, "the result is the original object, not an equal copy: in-place writes to it reach "
                                 "`{payload}`").format(payload=payload),
        unknown=WHY_ON_PURPOSE.get(what, ""),
        pattern=f"{what} round trip",
    )


def _frombuffer_of_tobytes(call: nodes.Call, decoder: str) -> CopyFinding | None:
    found = _payload_source(call.args[0], call)
    if found is None:
        return None
    source, through = found
    tobytes = method_call(source, "tobytes")
    if tobytes is None or tobytes.args:
        return None
    array = receiver(tobytes).as_string()
    dtype = keyword_named(call, "dtype") or (call.args[1] if len(call.args) > 1 else None)
    view = f"`{array}.reshape(-1).view({dtype.as_string()})`" if dtype is not None else f"`{array}.reshape(-1)`"
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"copies an array to bytes only to reinterpret those bytes{through}",
        cost="1 full bytes copy, then a read-only view of it",
        fix=f"reinterpret in place: {view} (`.copy()` if an independent array is needed)",
        evidence=f"`.tobytes()` of `{array}` feeds `{decoder}`",
        strength=Strength.PROVEN,
        saved="1 full bytes copy of the array",
        risk=f"the view shares memory with `{array}` and is writable, unlike the read-only copy: writes reach `{array}`",
        pattern="bytes round trip",
    )


def _array_of_host_copy(call: nodes.Call, decoder: str) -> CopyFinding | None:
    host = method_call(call.args[0], "tolist", "numpy")
    if host is None or host.args:
        return None
    subject = receiver(host)
    if host.func.attrname == "tolist":
        return CopyFinding(
            node=call,
            surface=code_span(call),
            problem="rebuilds an array from its own Python list",
            cost="array → Python list (one object per element) → array: 2 conversions where one suffices",
            fix=f"convert once: `{subject.as_string()}.numpy()` for a tensor (`.copy()` for a NumPy array)",
            evidence=f"`.tolist()` of `{subject.as_string()}` feeds `{decoder}`",
            strength=Strength.PROVEN,
            saved="1 Python list (one object per element) and 1 conversion",
            risk="`np.array` of a list inferred the dtype and made a copy; `.numpy()` keeps the tensor's dtype and shares its memory",
            pattern="array rebuilt from its own list",
        )
    if decoder == "numpy.asarray" or method_call(subject, "cpu") is None or keyword_named(call, "dtype") is not None:
        return None  # `.numpy()` shares memory: np.array of it is the one copy unless `.cpu()` already copied
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem="copies a host copy again",
        cost="device→host (.cpu()) then a second host copy (np.array): 2 copies where one suffices",
        fix=f"use `{call.args[0].as_string()}` (`.cpu()` already copies a device tensor)",
        evidence="`np.array` of `.cpu().numpy()` in one expression",
        strength=Strength.HEURISTIC,
        saved="1 host copy (np.array)",
        risk="for a tensor already on the host `.cpu().numpy()` shares its memory: writes to the array reach the tensor",
        unknown="if the tensor is already on the host, `.cpu()` is free and `np.array` is the only copy",
        pattern="host copy copied again",
    )


def text_round_trip(call: nodes.Call) -> CopyFinding | None:
    """`data.decode(c).encode(c)` and `text.encode(c).decode(c)` with one codec and no error handler."""
    outer = method_call(call, "encode", "decode")
    inner = method_call(receiver(call), "encode", "decode") if outer is not None else None
    if inner is None or outer.func.attrname == inner.func.attrname or outer.keywords or inner.keywords:
        return None
    if len(outer.args) > 1 or len(inner.args) > 1:
        return None  # an error handler ("ignore", "replace") makes it a cleaning step
    codec = [(c.args[0].as_string().strip("'\"").lower().replace("_", "-") if c.args else "utf-8") for c in (inner, outer)]
    if codec[0] != codec[1]:
        return None
    kinds = "bytes → str → bytes" if inner.func.attrname == "decode" else "str → bytes → str"
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"converts {kinds} with one codec",
        cost="2 conversions and 2 copies that give back an equal value",
        fix=f"use `{receiver(inner).as_string()}` (the round trip only validates the codec)",
        evidence=f"`.{inner.func.attrname}({codec[0]})` then `.{outer.func.attrname}({codec[1]})` in one expression",
        strength=Strength.PROVEN,
        saved="2 conversions and 2 copies",
        risk=f"the round trip raised on data invalid in {codec[0]}: without it such data passes through unchecked",
        pattern="text codec round trip",
    )


def _encoding_key(call: nodes.Call) -> tuple[str, nodes.NodeNG] | None:
    if isinstance(call.func, nodes.Attribute) and call.func.attrname not in ENCODER_TAILS:
        return None
    name = call_name(call)
    if name in ENCODERS and call.args:
        return call.as_string(), call.args[0]
    found = method_call(call, "tobytes")
    if found is not None and not found.args:
        return call.as_string(), receiver(found)
    return None


class PayloadConversionChecker(CopyChecker):
    """Flags encode→decode round trips and repeated encodings of one payload."""

    symbol = "redundant-payload-conversion"
    msgs = {
        "R7305": (
            "%s",
            "redundant-payload-conversion",
            "A payload is encoded and decoded again in one process (pickle, JSON, msgpack, "
            "base64, compression, tobytes→frombuffer, tolist→array, bytes→str→bytes), or "
            "encoded twice on one path. Keep the original value, or encode once and reuse.",
        ),
    }

    def visit_call(self, node: nodes.Call) -> None:
        if self.skipping:
            return
        finding = decode_of_encode(node) or text_round_trip(node)
        if finding is not None:
            self.report(finding)

    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        if self.skipping:
            return
        for earlier, later in repeated_pairs(node, _encoding_key):
            self.report(CopyFinding(
                node=later,
                surface=code_span(later),
                problem=f"encodes the same payload again (first at line {earlier.lineno})",
                cost="2 serializations (and 2 byte buffers) of one unchanged value",
                fix=f"encode once at line {earlier.lineno}, keep the bytes in a local and reuse them",
                evidence="the payload is not rebound, mutated or passed to a call between the two, "
                "and the second always runs after the first",
                strength=Strength.PROVEN,
                saved="1 serialization and its byte buffer",
                risk="if the payload changes between the two through an alias (another thread, a callback), "
                "the reused bytes are the earlier ones",
                pattern="repeated encoding",
            ))

    visit_asyncfunctiondef = visit_functiondef


def register(linter: PyLinter) -> None:
    linter.register_checker(PayloadConversionChecker(linter))
