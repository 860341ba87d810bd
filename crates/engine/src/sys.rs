//! sys (to be implemented).
