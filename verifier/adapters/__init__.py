"""Reward adapters for RL frameworks that are not TRL; they talk to the service's HTTP/JSON port.

Standard library only (no math-verify, sympy or docker), so they run in a trainer's environment.
"""
