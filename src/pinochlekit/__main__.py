"""``python -m pinochlekit``: the ``pinochle`` command line (see :mod:`pinochlekit.cli.main`)."""

import sys

from pinochlekit.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
