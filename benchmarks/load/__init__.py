"""The load benchmark of the whole bot, one job a module (run it with benchmarks/load_bench.py)."""
