"""Link: each requirement to the claims that meet it — the Warrant gate (`warrant`), the
committed facts and Knowledge Gaps (`commitment`), and what the evidence covers (`coverage`).
"""
