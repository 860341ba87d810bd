//! target (to be implemented).
