//! The refactoring engine: a small spec in, text edits on the original source out, or a refusal.
