package com.sandboxgateway.sanitize;

/** How the gateway reads a file, decided from its bytes by {@link FormatDetector}. */
enum FileFormat {
    /** A delimited table: comma, semicolon or pipe ({@code TSV}: tab). */
    CSV, TSV, JSONL,
    /** A JSON array of objects, read element by element. */
    JSON_ARRAY,
    GZIP,
    /** A zip file: a workbook or an archive, told apart once its directory is read. */
    ZIP,
    /** Free text, scanned line by line and passed on unchanged. */
    TEXT,
    /** Bytes that cannot hold a table (an image, a PDF), passed on unchanged. */
    OPAQUE
}
