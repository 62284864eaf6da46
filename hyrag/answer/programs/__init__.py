"""The answer core as typed programs over the table model (issue 19).

The folder is the pipeline: `lexicon` (one tokenizer, one stemmer, the question's periods) ->
`link` (question words against a table's row and column paths) -> `candidates` (the programs a
question may mean, in the one language of `language`) -> `score` (a log-linear ranker whose
weights are fitted on training questions by `fit`, shipped as `weights.json`) -> `execute` (one
interpreter; every result carries its operands as cells) -> `route` (the component the engine
calls: the best program, committed as the engine's facts and derivations, or None). Text
questions take `spans` (a clause of a retrieved sentence, quoted and cited, scored by a model
fitted by `hyrag bench fit-spans` and shipped as `span_weights.json`), the engine's last resort.
"""
