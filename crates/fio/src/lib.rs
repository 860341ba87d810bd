//! iomark's fio front end (options, command lines, job files) and back ends (normal, JSON, terse
//! output and logs).
