//! `iomark hdparm -t -T`.
