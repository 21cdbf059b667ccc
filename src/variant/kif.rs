//! Variant records in KIF (filled in below).
