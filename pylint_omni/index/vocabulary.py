"""The words the rules know about hardware, code paths and libraries: one home, documented defaults, user extensions.

No judgement code spells a vendor, chip, device or code-family name itself: it asks this
vocabulary (`tests/test_vocabulary.py` fails when one of these words appears elsewhere in a
rule). A project extends it in `[tool.pylint.pylint-omni]`, one option per list:
- `omni-platform-words`: hardware vendors, device types, chips and their backends and
  collective libraries. A folder, module or name part that is one of them marks code for one
  platform: parallel backends are a reason to keep an abstraction (`evidence.extension_points`)
  and to keep a copy (`copies`), a kernel package's wiring may be pending (`surfaces.unwired`),
  `torch.<platform>` is a build probe (`compat.evaluate`).
- `omni-hot-path-names`, `omni-cold-path-names`: function names whose code runs on every step or
  request, or once (`evidence.heat`), as regular expressions over the whole name.
The torch device types (`"cuda:0"`, `.cuda()`) and the collective libraries authors name when
they explain a copy are library conventions: defaults here too, extended by the platform words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

DEFAULT_PLATFORM_WORDS: tuple[str, ...] = (
    # GPU vendors and their stacks
    "cuda", "rocm", "hip", "gpu", "dcu", "musa", "maca", "metal", "mps",
    # other accelerators and their software stacks
    "npu", "ascend", "cann", "xpu", "hpu", "gaudi", "habana", "tpu", "neuron", "mlu", "camb", "dlinfer",
    # chips named in paths (Ascend 310P, A2/A3, Blackwell-class "sm" targets are written as numbers)
    "310p", "a2", "a3", "a5",
)
TORCH_DEVICE_TYPES: tuple[str, ...] = ("cpu", "meta", "cuda", "npu", "xpu", "mps", "hpu", "musa", "mlu")
COLLECTIVE_LIBRARIES: tuple[str, ...] = ("nccl", "hccl", "rccl", "gloo", "mpi", "ucc", "oneccl")
KERNEL_FOLDERS: tuple[str, ...] = ("triton", "kernels", "kernel", "ops", "csrc")
# A folder of other projects' code kept in the tree (pip's `_vendor`, a `third_party/` copy of a model's repository).
VENDORED_FOLDERS: tuple[str, ...] = ("third_party", "thirdparty", "third-party", "_vendor", "vendored")
VENDORED_FOLDER = re.compile(rf"^(.*?(?:^|/)(?:{'|'.join(re.escape(w) for w in VENDORED_FOLDERS)}))/")
# Model bases whose library builds instances from input by the annotated type (a request body, a nested field).
VALIDATING_MODEL_BASES: frozenset[str] = frozenset({"BaseModel", "RootModel", "BaseSettings", "Struct"})
# `torch.<name>` probes whose presence says how torch was built (a platform's module, or torch's own build parts).
TORCH_BUILD_PARTS: tuple[str, ...] = ("_C", "ops", "backends", "version", "distributed", "compiler")

# Import names whose distribution is named differently; used when no metadata says.
IMPORT_TO_DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "PIL": ("pillow",),
    "yaml": ("pyyaml",),
    "cv2": ("opencv-python", "opencv-python-headless", "opencv-contrib-python"),
    "sklearn": ("scikit-learn",),
    "skimage": ("scikit-image",),
    "zmq": ("pyzmq",),
    "google": ("protobuf",),
    "attr": ("attrs",),
    "dateutil": ("python-dateutil",),
    "dotenv": ("python-dotenv",),
    "bs4": ("beautifulsoup4",),
    "jwt": ("pyjwt",),
    "multipart": ("python-multipart",),
    "flash_attn": ("flash-attn",),
    "torch_npu": ("torch-npu",),
    "tvm_ffi": ("apache-tvm-ffi",),
    "mooncake": ("mooncake-transfer-engine",),
    "fitz": ("pymupdf",),
    "serial": ("pyserial",),
}
# torch's own methods that move a tensor or a module to a device, and a decorator that captures a CUDA graph.
TORCH_DEVICE_METHODS: frozenset[str] = frozenset(TORCH_DEVICE_TYPES) - {"meta"}
GRAPH_CAPTURE_DECORATORS: tuple[str, ...] = ("cuda_graph",)
# A decorator whose last name says it hands the function to something that calls it later: a registry, a command
# group (`@cli.command("stop")`), a hook or an event. Matched on the decorator's last dotted name.
HANDING_ON_DECORATOR = re.compile(
    r"regist|^add_|hook|plugin|^on_|listen|subscribe|handler|command|callback|export", re.IGNORECASE
)


def decorator_tail(text: str) -> str:
    """A decorator's last name as written: `functools.lru_cache(maxsize=None)` -> `lru_cache`."""
    return text.partition("(")[0].rpartition(".")[2].strip()


# A web framework's route decorator with its path (`@router.post("/v1/load")`, `@app.get("/healthz")`): the app
# calls the function for that path, whoever names the module.
ROUTE_DECORATOR = re.compile(r"^[\w.]+\.(?:get|post|put|patch|delete|head|options|api_route|route|websocket)\(\s*"
                             r"(?:path\s*=\s*)?['\"]/")


def hands_on(decorator: str) -> bool:
    """Whether a decorator as written (`cli.command("stop")`, `@register_x(Kind.Y)`, `@router.post("/v1/x")`) hands
    the function on."""
    return bool(HANDING_ON_DECORATOR.search(decorator_tail(decorator)) or ROUTE_DECORATOR.match(decorator.strip()))
# Upstream modules that exist only in some platform builds of a package (a reimplementation of their code may be
# the project's portable version): vLLM's compiled extensions.
# calls that run a Python file by its path (`importlib.util.spec_from_file_location(name, path)` and its loader,
# `runpy.run_path`, `imp.load_source`): the file's definitions are used though nothing imports its module
PATH_LOADERS: tuple[str, ...] = ("spec_from_file_location", "SourceFileLoader", "run_path", "load_source")
PLATFORM_ONLY_MODULES: frozenset[str] = frozenset({"vllm_flash_attn", "_C", "_custom_ops", "_rocm_C", "_moe_C", "_flashmla_C", "cumem"})

DEFAULT_HOT_PATH_NAMES: tuple[str, ...] = (
    r"_?forward\w*", r"\w+_forward", r"__call__", r"_?step", r"\w+_step", r"step_\w+", r"_?decode\w*", r"\w+_decode",
    r"execute_model", r"_?model_forward", r"_?sample", r"sample_tokens", r"\w+_sample", r"_?denoise\w*", r"generate",
    r"_?generate_\w+", r"schedule", r"update_from_output", r"_?update_states", r"_?prepare_inputs\w*",
    r"_?process_(?:inputs|outputs)", r"\w+_loop", r"run_busy_loop", r"handle_\w+", r"add_request",
    r"_?process_request\w*", r"create_\w*completion\w*", r"create_speech", r"create_image\w*", r"infer\w*", r"predict\w*",
)
DEFAULT_COLD_PATH_NAMES: tuple[str, ...] = (
    r"__init__", r"__post_init__", r"__new__", r"__init_subclass__", r"__del__", r"__enter__", r"__exit__", r"setup\w*",
    r"_?init_weights?\w*", r"initialize\w*", r"_?load_(?:weights|model|state_dict)\w*", r"load_hf_weights",
    r"_?build_model\w*", r"from_pretrained", r"from_config", r"from_\w+", r"create_model\w*", r"_?register\w*",
    r"configure\w*", r"_?dummy_run", r"_?dummy_\w+", r"profile_run", r"capture_model", r"compile_or_warm_up_model",
    r"_?warm_?up\w*", r"\w+_warmup", r"determine_available_memory", r"initialize_kv_cache\w*", r"get_kv_cache_spec",
    r"shutdown", r"close", r"cleanup", r"destroy\w*", r"main", r"cli", r"parse_args", r"add_cli_args",
    r"get_\w*config\w*", r"__repr__", r"__str__",
    # Saving a trained model and periodic supervision: once per run or per tick, never per token or request.
    r"_?save_(?:model|pretrained|checkpoint|trained\w*|weights|state_dict|config)\w*", r"\w+_save_checkpoint",
    r"_?\w*supervis\w*", r"_?\w*watchdog\w*", r"_?\w*heartbeat\w*", r"_?health_?check\w*",
)


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


@dataclass(frozen=True)
class Vocabulary:
    """The words of one project: the defaults and what its settings add."""

    platforms: tuple[str, ...] = DEFAULT_PLATFORM_WORDS
    hot_names: tuple[str, ...] = DEFAULT_HOT_PATH_NAMES
    cold_names: tuple[str, ...] = DEFAULT_COLD_PATH_NAMES
    _patterns: dict[str, re.Pattern[str]] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def _pattern(self, key: str, build: str) -> re.Pattern[str]:
        found = self._patterns.get(key)
        if found is None:
            found = self._patterns[key] = re.compile(build, re.IGNORECASE if key.startswith("i") else 0)
        return found

    @property
    def platform_set(self) -> frozenset[str]:
        return frozenset(w.lower() for w in self.platforms)

    def is_platform(self, word: str) -> bool:
        return word.lower() in self.platform_set

    @property
    def platform_token(self) -> re.Pattern[str]:
        """A platform word standing alone in text (`torch.cuda`, `"npu:0"`, `cuda_graph`): not inside another word."""
        return self._pattern("i-token", rf"(?<![a-z])(?:{_alternation((*self.platforms, *COLLECTIVE_LIBRARIES))})(?![a-z])")

    @property
    def platform_part(self) -> re.Pattern[str]:
        """A platform word as one `_`-separated part of a file or folder name (`ascend_attn`, `attn_310p`)."""
        return self._pattern("i-part", rf"(?:^|_)(?:{_alternation(self.platforms)})(?:_|$)")

    @property
    def kernel_folder(self) -> re.Pattern[str]:
        """A folder of kernels: a kernel folder word or a platform word as one path part."""
        return self._pattern("kernels", rf"(?:^|/)(?:{_alternation((*KERNEL_FOLDERS, *self.platforms))})(?:/|$)")

    @property
    def device_types(self) -> frozenset[str]:
        """torch device types: its own list, and any platform word the project adds that is one."""
        return frozenset((*TORCH_DEVICE_TYPES, *(w for w in self.platforms if w not in DEFAULT_PLATFORM_WORDS)))

    @property
    def device_string(self) -> re.Pattern[str]:
        """A device string: `"cuda"`, `"npu:1"`."""
        return self._pattern("device", rf"\A(?:{_alternation(tuple(self.device_types))})(?::\d+)?\Z")

    @property
    def build_probes(self) -> frozenset[str]:
        """`torch.<name>` attributes whose presence depends on how torch was built."""
        return frozenset((*self.platforms, *TORCH_BUILD_PARTS))

    @property
    def hot_name(self) -> re.Pattern[str]:
        return self._pattern("hot", rf"(?:{'|'.join(self.hot_names)})\Z")

    @property
    def cold_name(self) -> re.Pattern[str]:
        return self._pattern("cold", rf"(?:{'|'.join(self.cold_names)})\Z")


DEFAULT_VOCABULARY = Vocabulary()


@lru_cache(maxsize=16)
def vocabulary(platforms: tuple[str, ...] = (), hot_names: tuple[str, ...] = (), cold_names: tuple[str, ...] = ()) -> Vocabulary:
    """The defaults extended by a project's words (the `omni-*` options): one value per distinct setting."""
    if not (platforms or hot_names or cold_names):
        return DEFAULT_VOCABULARY
    return Vocabulary(tuple(dict.fromkeys((*DEFAULT_PLATFORM_WORDS, *platforms))),
                      tuple(dict.fromkeys((*DEFAULT_HOT_PATH_NAMES, *hot_names))),
                      tuple(dict.fromkeys((*DEFAULT_COLD_PATH_NAMES, *cold_names))))
