"""ReverseVerifier and calibrated abstention: no database code, no import of `hyrag` or `ingest`.

`verify(draft, evidence, computations)` -> `Report` (verdict pass / weak / fail, score, failures
naming each failing token and sentence). The engine maps its committed facts onto `Evidence` and
its derivations onto `Computation`; numbers in the draft are tokenized here (`verify.tokens`),
numbers of the evidence come pre-parsed from ingestion (`Evidence.value`, `.scale`).
"""

from verify.abstain import Signals, Weights, calibrate, complexity, confidence, reliability_table
from verify.grounding import TokenCheck, check_numbers, computation_ok, recompute
from verify.report import CHECKER, Report, verify
from verify.types import Computation, Evidence

__all__ = ["CHECKER", "Computation", "Evidence", "Report", "Signals", "TokenCheck", "Weights",
           "calibrate", "check_numbers", "complexity", "computation_ok", "confidence",
           "recompute", "reliability_table", "verify"]
