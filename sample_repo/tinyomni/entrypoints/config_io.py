"""Reading deploy files and writing audio outputs."""

try:  # planted: pyyaml is a hard dependency (pyyaml>=6.0 in pyproject.toml)
    import yaml
except ImportError:
    yaml = None

try:  # trap: soundfile is the optional `audio` extra
    import soundfile
except ImportError:
    soundfile = None

try:  # planted: a module of this project whose own imports cannot fail
    from tinyomni.envs import environment_variables
except ImportError:
    environment_variables = {}

try:  # planted, medium: a project module that needs transformers, which only tinyvllm's metadata requires
    from tinyomni.compat import torch_at_least
except ImportError:
    def torch_at_least(minimum: str) -> bool:
        return False


def load_deploy(path: str) -> dict:
    if yaml is None:
        raise RuntimeError("pyyaml is required to read deploy files")
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def write_wav(path: str, samples, rate: int) -> None:
    if soundfile is None:
        raise RuntimeError("install tinyomni[audio] to write audio")
    soundfile.write(path, samples, rate)


def uses_new_compile() -> bool:
    return torch_at_least("2.4") and "TINYOMNI_LOG_LEVEL" in environment_variables
