"""Unit tests of the Python client, against a local HTTP stub: `python3 -m unittest` in
packages/client-python (or `npm run client:python:test` at the repository root)."""
