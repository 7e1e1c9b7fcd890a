"""The rules site: pages generated from ``spec/`` and ``scenarios/`` at build time."""
