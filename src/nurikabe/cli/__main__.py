"""``python -m nurikabe.cli``."""

import sys

from . import main

sys.exit(main())
