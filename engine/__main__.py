"""``python -m engine``: the command line (``engine.cli.main``)."""

import gc
import sys

from engine.cli.main import main

code = main()
gc.freeze()  # what is left goes with the process: exit skips the collector's last pass over all of it
sys.exit(code)
