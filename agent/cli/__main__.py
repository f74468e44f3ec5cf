"""``python -m agent.cli`` runs the ``nesy`` command."""

import sys

from agent.cli import main

sys.exit(main())
