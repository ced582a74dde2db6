"""Speed benchmarks, one module per part: ``python -m tools.bench.<part>`` prints its figures."""
