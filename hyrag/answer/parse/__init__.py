"""Parse: the question read against the knowledge base's schema catalog (`parser`,
`catalog`), its route (`router`) and the requirements it sets (`requirements`).
"""
