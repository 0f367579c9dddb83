"""Stream a generation from a running `tinyomni-router`."""

import urllib.request

from tinyomni.serving.client import StreamingClient

client = StreamingClient("http://localhost:8000")
print(urllib.request.urlopen(client.generate_url(), data=b'{"prompt": "hi"}').read())
