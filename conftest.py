"""pytest configuration shared by the doctests of ``src`` and the tests.

``pinochlekit.players.search.fastcore`` needs the C extension ``pinochlekit.native._core`` (built by
``pip install -e .``); without it the module raises ImportError by design, so
its doctests are skipped instead of failing collection.
"""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("pinochlekit.native._core") is None:
    collect_ignore.append("src/pinochlekit/fastcore.py")
