"""Swap the project's request class into the upstream scheduler (type substitution)."""

import sys

from tinyupstream.scheduler import Request as _UpstreamRequest

from tinyomni.engine.omni_request import OmniRequest

for _name, _module in list(sys.modules.items()):
    if _name.startswith("tinyupstream") and getattr(_module, "Request", None) is _UpstreamRequest:
        _module.Request = OmniRequest
