"""Our formats: safe YAML, the JSON forms of states, actions and events, and scenarios.

Reads and writes what :mod:`mammamia_ref.rules` defines; imports nothing above it.
"""
