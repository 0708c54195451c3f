"""Experiments: the ablation configurations (ablations.toml), read by runs.ablate."""
