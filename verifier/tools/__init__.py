"""The tools over the service and the graders: the `verifier` CLI (cli), grading a file of model
outputs (grade_file) and its HTML report (report)."""
