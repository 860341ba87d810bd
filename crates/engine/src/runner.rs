//! runner (to be implemented).
