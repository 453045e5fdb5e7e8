//! ui tests live in tests/
