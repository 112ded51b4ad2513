"""``python -m formatbook_core`` runs the ``formatbook`` command."""

import sys

from .cli import main

sys.exit(main())
