"""Decide: answer, abstain, clarify or ask for verification (`decision`), and the guards that
refuse a figure which does not answer what was asked (`guards`).
"""
