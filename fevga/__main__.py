"""Entry point of ``python -m fevga``."""

import sys

from .cli import main

sys.exit(main())
