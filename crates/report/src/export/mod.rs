//! iomark's general exports: CSV, XLSX and Markdown.
