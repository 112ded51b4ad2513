"""``python -m formatbook_core.cli`` runs the ``formatbook`` command."""

import sys

from . import main

sys.exit(main())
