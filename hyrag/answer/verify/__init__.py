"""Verify: numeric grounding of every figure (`grounding`), corrective retrieval when
verification fails (`crag`), and the per-column failure tracker (`tracker`).
"""
