"""Imported once by the forkserver before it forks any math worker.

Every worker then starts with math-verify's regexes compiled and ANTLR's prediction caches filled
(inherited copy-on-write), instead of paying about 100 ms per answer shape on its first items, and
a worker replaced after a timeout is ready at once.
"""

import logging

from verifier.math import warm_up

# math-verify warns once per process that its own timeouts are off: here that is by design (the
# parent enforces deadlines), so the warning is noise in the server's log.
logging.getLogger("math_verify").setLevel(logging.ERROR)
warm_up()
