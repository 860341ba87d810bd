//! rng (to be implemented).
