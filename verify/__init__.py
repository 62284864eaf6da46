"""ReverseVerifier and the answerability gate: no database code."""
