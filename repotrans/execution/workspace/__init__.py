"""Scratch copies of a target, patching candidates into them, choosing the tests that cover them."""
