//! Parsers: text in, [`crate::Record`]s out. Syntax only; legality is the replayer's job.
