"""``python -m engine.samples OUT.pdf``: write the bundled sample PDF."""

import sys

from engine.samples import main

raise SystemExit(main(sys.argv[1:]))
