"""``python -m solitaire_rl.agents.solver``: see :mod:`solitaire_rl.agents.solver.cli`."""

import sys

from solitaire_rl.agents.solver.cli import main

sys.exit(main())
