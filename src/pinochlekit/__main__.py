"""``python -m pinochlekit``: the ``pinochle`` command line (see :mod:`pinochlekit.cli`)."""

import sys

from pinochlekit.cli import main

if __name__ == "__main__":
    sys.exit(main())
