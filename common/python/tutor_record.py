"""The record every Python lab writes: the same schema as the C++ labs (docs/METHODOLOGY.md,
"The record"), so the grader reads one format.

    sys.path.insert(0, <repo>/common/python); import tutor_record
    record = tutor_record.head("a02_transpose_triton", "A02", "measurement")
    record.update({"device": ..., "variants": [...]})
    tutor_record.write_json(record, path)   # "-" is standard output; files are written atomically
"""
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile

SCHEMA_VERSION = 1  # tutor::kRecordSchemaVersion in common/include/tutor/report.hpp


def version() -> str:
    """$TUTOR_VERSION when set (a tree copied without its .git, as the C++ labs take -DTUTOR_VERSION),
    else `git describe --always --dirty --tags` of the checkout, like the C++ labs' version field."""
    if os.environ.get("TUTOR_VERSION"):
        return os.environ["TUTOR_VERSION"]
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=here,
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def head(lab: str, module: str, kind: str) -> dict:
    """The fields every record starts with; kind is measurement, model or simulation."""
    if kind not in ("measurement", "model", "simulation"):
        raise ValueError(f"record kind must be measurement, model or simulation, not {kind!r}")
    return {"schema_version": SCHEMA_VERSION, "lab": lab, "module": module, "version": version(),
            "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "command": " ".join(shlex.quote(a) for a in ["python3"] + sys.argv), "kind": kind}


def write_json(record: dict, path: str) -> None:
    """Writes the record to path ("-": standard output) through a temporary file in the same
    folder and a rename, so a reader sees the old file or the new one, never half of one."""
    text = json.dumps(record, indent=2) + "\n"
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    folder = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    with tempfile.NamedTemporaryFile("w", dir=folder, prefix=f".{name}.", suffix=".tutor-tmp", delete=False) as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    # A temporary file is private (0600); the record gets the mode a plain open() would give it.
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(f.name, 0o666 & ~mask)
    os.replace(f.name, path)
