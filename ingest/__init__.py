"""Ingest layer: safe intake of a data room, parsing, chunking, embedding, store and manifest.

The app promises to work offline, and three libraries under this package
would otherwise phone out or write outside the workspace:
- onnxruntime (imported by unstructured, and by the embedder) writes a device
  id and an event queue under ~/.cache/Microsoft at import and, about 10 s
  later, resolves and contacts a telemetry host; ORT_DISABLE_TELEMETRY=1 read
  before it initialises stops both (onnxruntime's Privacy.md, "Disabling
  Telemetry");
- unstructured pings a telemetry endpoint on import and prints a banner;
- chromadb's telemetry is turned off where the client is built (ingest.index.store).
Every import of the libraries that load onnxruntime is under this package, so
setting the opt-outs here puts them in the environment first: in the parent,
in the parser forkserver (which imports ingest.parsing.preload) and in every process
spawned from either (they inherit the environment). They are forced, not
defaults: an inherited "0" must not turn telemetry back on.

matplotlib (imported by unstructured's inference stack, never used for
drawing) builds a font cache in ~/.cache/matplotlib; it goes to this
project's cache folder instead, unless the user chose one.
"""

import os as _os

TELEMETRY_OPT_OUTS = {
    "ORT_DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "SCARF_NO_ANALYTICS": "true",
    "UNSTRUCTURED_DISABLE_NOTICE": "1",
}
_os.environ.update(TELEMETRY_OPT_OUTS)
_cache = _os.environ.get("XDG_CACHE_HOME") or _os.path.join(_os.path.expanduser("~"), ".cache")
_os.environ.setdefault("MPLCONFIGDIR", _os.path.join(_cache, "dataroom-rlm", "matplotlib"))
