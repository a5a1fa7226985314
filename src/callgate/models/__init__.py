"""Model adapters (placeholder while the package is built)."""
