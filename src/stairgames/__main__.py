"""``python -m stairgames``: the ``stairgames`` command."""

import sys

from stairgames.cli import main

sys.exit(main())
