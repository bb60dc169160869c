"""Files only their owner may read: the folders and SQLite databases that hold
secret deal seeds and seat-token hashes (docs/web.md "Security and limits").

A folder this module creates is ``0700``; a database file, with its ``-wal``
and ``-shm`` companions, ``0600``, whatever the process's umask. SQLite creates
the companions with the database file's own mode, and :func:`private_sqlite`
narrows any left by an older version.

>>> import os, stat, tempfile
>>> base = os.path.join(tempfile.mkdtemp(), "data")
>>> db = private_sqlite(private_dir(base) / "web.db")
>>> oct(stat.S_IMODE(os.stat(base).st_mode)), oct(stat.S_IMODE(os.stat(db).st_mode))
('0o700', '0o600')
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["private_dir", "private_sqlite"]

#: The companions SQLite keeps next to a database in WAL mode (and a rollback journal).
_COMPANIONS = ("", "-wal", "-shm", "-journal")


def private_dir(path: str | os.PathLike[str], narrow: bool = False) -> Path:
    """Create ``path`` (and missing parents) readable by its owner only (``0700``).

    An existing folder keeps its mode unless ``narrow`` (the program's own data
    folder): a database given anywhere, say in ``/tmp``, never changes that folder.
    """
    folder = Path(path)
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for new in reversed(missing):
        with contextlib.suppress(FileExistsError):
            new.mkdir(mode=0o700)
        os.chmod(new, 0o700)  # mkdir's mode is masked by the umask
    if narrow and not missing:
        os.chmod(folder, 0o700)
    return folder


def private_sqlite(path: str | os.PathLike[str]) -> Path:
    """Make sure the SQLite database at ``path`` exists (empty if new) with mode
    ``0600``, and its companions that exist too; the path. Its folder must exist
    (a missing one is :class:`FileNotFoundError`: a mistyped path is not created)."""
    file = Path(path)
    # never open (and close) a database that exists: closing any descriptor of a file
    # drops every POSIX lock this process holds on it, SQLite's included
    # (https://www.sqlite.org/howtocorrupt.html, section 2.2)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(file, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    for suffix in _COMPANIONS:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(f"{file}{suffix}", 0o600)
    return file
