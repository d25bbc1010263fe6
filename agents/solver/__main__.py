"""``python -m agents.solver``: see :mod:`agents.solver.cli`."""

import sys

from agents.solver.cli import main

sys.exit(main())
