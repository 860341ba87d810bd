//! worker (to be implemented).
