//! End-to-end tests of the iomark binary (one test binary, as ripgrep does).
