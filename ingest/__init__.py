"""Ingest layer: safe intake of a data room, parsing, chunking, embedding, store and manifest.

unstructured pings a telemetry endpoint on import and prints a banner;
chromadb's telemetry is turned off where the client is built (ingest.store).
These opt-outs must be in the environment before unstructured is first
imported, here and in every spawned parser process (which inherits it).
"""

import os as _os

for _k, _v in (("DO_NOT_TRACK", "1"), ("SCARF_NO_ANALYTICS", "true"), ("UNSTRUCTURED_DISABLE_NOTICE", "1")):
    _os.environ.setdefault(_k, _v)
