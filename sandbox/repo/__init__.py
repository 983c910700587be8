"""Repository tasks (SWE-style): the host side's pure parts (docs/repo-tasks.md "Where it lives").

`patch` reads the model's unified diff from a completion and refuses one that touches a protected
path; `results` turns a test framework's machine-readable report into a status per test id;
`grading` decides resolution from those statuses by SWE-bench's rules. No Docker, no service.
"""
