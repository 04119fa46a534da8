"""``python -m engine``: the command line (``engine.cli.main``)."""

import sys

from engine.cli.main import main

sys.exit(main())
