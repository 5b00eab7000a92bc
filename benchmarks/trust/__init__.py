"""The trust benchmark (benchmarks/bench_trust.py): scripted models that answer right and wrong, played
through the real graph over the OpenAI HTTP path, judged against ground truth computed outside the product.

Its modules import Django models: import them after `django.setup()` (bench_trust.main does).
"""
