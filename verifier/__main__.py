"""`python -m verifier ...`: the same CLI as the `verifier` console script."""

import sys

from verifier.tools.cli import main

sys.exit(main())
