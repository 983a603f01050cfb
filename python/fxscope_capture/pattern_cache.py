"""The torch host's on-disk cache of traced patterns: a load's reply, keyed by everything that decides it.

The key covers the sources as given, the content of every file they can import from (a pattern file and the .py
files beside it; a `module:callable`'s whole top-level package; TorchAir's built-in pattern files), this
package's own code (it encodes the patterns), the torch version and the Python. A change to any of them is a miss.
A hit answers the load at once; the host registers the sources with torch only when a check needs them, and checks
the names it gets against the ones it sent.

The cache lives in $FXSCOPE_PATTERN_CACHE (default ~/.cache/fxscope/patterns; "0" turns it off). Entries are
written atomically (a temporary file renamed into place), so a killed host never leaves half an entry.
"""

import hashlib
import importlib.util
import json
import os
import sys
import tempfile

FORMAT = 1  # bump when the reply's shape changes


def cache_dir():
    configured = os.environ.get("FXSCOPE_PATTERN_CACHE")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fxscope", "patterns")


def _python_files(folder):
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(root, name)


def _source_files(source):
    """The files a source's registration can read: None when they cannot be known (then nothing is cached)."""
    if source.startswith("inductor:"):
        return []  # torch's own code: the torch version covers it
    if source.endswith(".py") and os.path.isfile(source):
        folder = os.path.dirname(os.path.abspath(source))
        return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py"))
    if ":" in source:
        spec = importlib.util.find_spec(source.split(":", 1)[0].split(".", 1)[0])  # no import of the user's code
        if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
            return None
        folder = os.path.dirname(spec.origin)
        return list(_python_files(folder)) if spec.submodule_search_locations else [spec.origin]
    return None


class PatternCache:
    def __init__(self, path):
        self.path = path

    @classmethod
    def for_request(cls, request, torch_version):
        """The entry for a load request, or None when caching is off or a source's files cannot be known."""
        if os.environ.get("FXSCOPE_PATTERN_CACHE") == "0":
            return None
        from . import torchair_pipeline
        digest = hashlib.sha256()

        def add(text):
            digest.update(text.encode("utf-8", "surrogateescape") + b"\0")

        for text in (str(FORMAT), torch_version, sys.version, json.dumps(request.get("sources") or []),
                     str(request.get("torchair_builtins", True))):
            add(text)
        files = list(_python_files(os.path.dirname(os.path.abspath(__file__))))
        files += torchair_pipeline.builtin_files()
        for source in request.get("sources") or []:
            found = _source_files(source)
            if found is None:
                return None
            files += found
        for path in files:
            add(os.path.abspath(path))
            try:
                with open(path, "rb") as f:
                    digest.update(hashlib.sha256(f.read()).digest())
            except OSError:
                return None
        return cls(os.path.join(cache_dir(), digest.hexdigest() + ".json"))

    def read(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and isinstance(entry.get("patterns"), list) else None

    def write(self, reply):
        entry = {k: v for k, v in reply.items() if k in ("patterns", "warnings", "torchair_builtins_from")}
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.path), suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f, allow_nan=False, default=str)
            os.replace(tmp, self.path)
        except (OSError, ValueError, TypeError):
            pass  # a cache that cannot be written costs a trace next time, nothing else
