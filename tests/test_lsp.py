"""An LSP editor setup, for real: python-lsp-server with its pylint plugin and pylint-omni.

This is the setup the README gives for Neovim (built-in LSP), Emacs (eglot/lsp-mode),
Helix or Sublime: pylsp runs `pylint --from-stdin path` on the open buffer. The test
speaks the protocol over stdio: open a file, read the published diagnostics.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import SAMPLE_REPO
from pylint_omni.index.settings import UPSTREAM_INSTALLED_ENV
from test_cli import editor_args

pytest.importorskip("pylsp")


class LspClient:
    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "pylsp"], cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 1

    def send(self, method: str, params: dict[str, Any], request: bool = False) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            message["id"] = self.next_id
            self.next_id += 1
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("pylsp closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def diagnostics_for(self, uri: str, deadline_s: float = 240) -> list[dict[str, Any]]:
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                found = [d for d in message["params"]["diagnostics"] if d.get("source") == "pylint"]
                if found:
                    return found
        raise AssertionError("no pylint diagnostics published")

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def test_pylsp_publishes_pylint_omni_diagnostics(tmp_path: Path) -> None:
    repo = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, repo)
    env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "PYLINT_OMNI_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path),
           UPSTREAM_INSTALLED_ENV: os.environ[UPSTREAM_INSTALLED_ENV]}
    client = LspClient(repo, env)
    try:
        client.send("initialize", {"processId": None, "rootUri": repo.as_uri(), "capabilities": {}}, request=True)
        assert "capabilities" in client.read()["result"]
        client.send("initialized", {})
        settings = {"pylsp": {"plugins": {
            "pylint": {"enabled": True, "executable": "pylint", "args": editor_args()["pylsp"]},  # the README's
            "pycodestyle": {"enabled": False}, "pyflakes": {"enabled": False}, "mccabe": {"enabled": False},
        }}}
        client.send("workspace/didChangeConfiguration", {"settings": settings})
        path = repo / "tinyomni" / "envs.py"
        uri = path.as_uri()
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": path.read_text()}})
        client.send("textDocument/didSave", {"textDocument": {"uri": uri}})
        diagnostics = client.diagnostics_for(uri)
    finally:
        client.close()
    assert [(d["range"]["start"]["line"], d["code"]) for d in diagnostics] == [(8, "R7301")]
    assert "TINYOMNI_USE_LEGACY_SCHEDULER" in diagnostics[0]["message"]
