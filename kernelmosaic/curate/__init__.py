"""Task-set curation: generators and the catalog of ops and blocks, execution filters, dedup,
selection, review (terminal and web), task sets on disk, the selection report and release.

Split from :mod:`kernelmosaic.task` (the task record, its loaders, features and the
decontamination rule, stdlib only), because curation runs references (the filters use the
verifier's judge) and draws plots: it sits above ``verify`` in the layers
(docs/architecture.md), while every package can use the task core.
"""
