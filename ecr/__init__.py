"""Entropic Claim Resolution (seed 003, section 3): numpy only, no I/O, no store."""
