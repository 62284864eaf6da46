"""Benchmarks: heavy measurements that print the seed figure beside ours; never run by tests."""
