"""A minimal PEP 517 build backend: a wheel of the one module, read from pyproject.toml."""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).parent


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    name, version = project["name"].replace("-", "_"), project["version"]
    info = f"{name}-{version}.dist-info"
    points = "".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in entries.items())
        for group, entries in project["entry-points"].items()
    )
    files = {
        f"{name}.py": (HERE / f"{name}.py").read_bytes(),
        f"{info}/METADATA": (
            f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n"
            + "".join(f"Requires-Dist: {d}\n" for d in project["dependencies"])
        ).encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: build_wheel.py\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": points.encode(),
    }
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    wheel = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
