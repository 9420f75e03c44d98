"""A tiny package shaped like stairgames whose modules break the import contract on
purpose, one rule each (tests/test_import_contract.py parses it; importing it does nothing)."""
