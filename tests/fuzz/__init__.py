"""The fuzz suite: hostile variants of valid payloads through every public entry point.

    pytest tests/fuzz -q                          # the CI budget (fixed seed, under a minute)
    HYPOTHESIS_PROFILE=long pytest tests/fuzz -q  # many more examples, fresh randomness

Defects found in code outside the schema and dialect layers are kept as focused
`xfail(strict=True)` examples in `test_found_defects.py`, and the strategies that would hit
them say so where they leave them out.
"""
