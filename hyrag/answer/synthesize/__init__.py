"""Synthesize: the drafted sentences and brief (`synthesis`), answers in the question's own
words (`phrasing`), the answer's values (`values`) and its context pack (`contextpack`).
"""
