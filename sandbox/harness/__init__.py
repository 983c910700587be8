"""The container side: every program that runs inside a sandbox (the runner, PID 1 of each box; the
judge; the warm interpreter; the session supervisor and kernel). Copied into each image as
/opt/sandbox/harness, where they import each other as top-level modules, and never anything of the
host: an import-linter contract checks it (docs/architecture.md "Layout")."""
