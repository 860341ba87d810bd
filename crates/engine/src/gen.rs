//! gen (to be implemented).
