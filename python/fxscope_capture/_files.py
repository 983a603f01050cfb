"""Atomic file writes: a temporary file in the destination folder, fsync, then os.replace.

A program killed mid-write leaves either the previous file or none, never a truncated one.
"""

import contextlib
import json
import os
import re
import tempfile
import uuid


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_open(path, mode="wb"):
    """Opens a temporary file next to `path`; on a clean exit it replaces `path`, on an error it is removed."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp creates 0600; give the file the permissions open() would
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_path(path):
    """A temporary path next to `path` for a writer that takes a file name (safetensors.torch.save_file); on a
    clean exit the file is synced and replaces `path`, on an error it is removed."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def dumps(document):
    """JSON text with one line per graph node (readable and diffable at 100k nodes, a third of indented size).
    Non-finite floats must already be encoded; allow_nan=False enforces it."""
    token = "@fxscope-node-" + uuid.uuid4().hex + "-"
    compact = []

    def mark(value, key=None):
        if isinstance(value, dict):
            return {k: mark(v, k) for k, v in value.items()}
        if isinstance(value, list):
            if key == "nodes":
                out = []
                for node in value:
                    compact.append(json.dumps(node, ensure_ascii=False, allow_nan=False, separators=(", ", ": ")))
                    out.append(token + str(len(compact) - 1))
                return out
            return [mark(v) for v in value]
        return value

    text = json.dumps(mark(document), indent=1, ensure_ascii=False, allow_nan=False)
    text = re.sub('"' + re.escape(token) + r'(\d+)"', lambda m: compact[int(m.group(1))], text)
    return text + "\n"


def write_json(path, document):
    """Writes `document` to `path` atomically as UTF-8 JSON."""
    text = dumps(document)
    with atomic_open(path, "w") as f:
        f.write(text)
    return path
