//! `iomark hdparm -t -T`: hdparm's timings on iomark's engine.
