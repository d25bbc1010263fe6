"""Training and benchmarking of agents (MaskablePPO, baselines)."""
