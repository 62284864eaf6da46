"""Past one machine: ingest a corpus in parallel tasks into a dataset (Lance and Parquet), and
open a knowledge base over it.

    hyrag ingest --engine ray --workers 8 corpus/ --kb dataset/
    kb = hyrag.open("dataset/")         # recognises the dataset layout

`job` (the driver), `worker` (one file's task), `merge` (results in file order, set-wise links),
`layout` (the dataset on disk). Only `job` imports Ray, and only when a job runs: the default
install has no Ray, and opening a dataset needs none.
"""
