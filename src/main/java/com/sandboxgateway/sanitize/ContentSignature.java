package com.sandboxgateway.sanitize;

import java.nio.charset.StandardCharsets;

/** What the first bytes of a file are, by magic numbers and by what text looks like. */
enum ContentSignature {
    GZIP, ZIP, OPAQUE, TEXT;

    static ContentSignature of(byte[] b, int n) {
        if (starts(b, n, 0x1f, 0x8b)) {
            return GZIP;
        }
        if (starts(b, n, 'P', 'K', 3, 4) || starts(b, n, 'P', 'K', 5, 6)) {
            return ZIP;
        }
        if (starts(b, n, '%', 'P', 'D', 'F') || starts(b, n, 0x89, 'P', 'N', 'G') || starts(b, n, 0xff, 0xd8, 0xff)
                || starts(b, n, 'G', 'I', 'F', '8') || starts(b, n, 'R', 'I', 'F', 'F')) {
            return OPAQUE;
        }
        int control = 0;
        for (int i = 0; i < n; i++) {
            int c = b[i] & 0xff;
            if (c == 0) {
                return OPAQUE;
            }
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) {
                control++;
            }
        }
        return control * 100 > n ? OPAQUE : TEXT;
    }

    /**
     * Binary formats that hold tables or other files the gateway cannot look into, and programs; else
     * {@code null}. Only asked of binary content, so a CSV whose header starts with {@code ORC} stays a CSV.
     */
    static String refusedKind(byte[] b, int n) {
        if (starts(b, n, 0xff, 0xfe) || starts(b, n, 0xfe, 0xff) || looksLikeUtf16(b, n)) {
            return "UTF-16 text (save it as UTF-8)";
        }
        if (starts(b, n, 0xd0, 0xcf, 0x11, 0xe0)) {
            return "a legacy Office document (.xls, .doc); save it as .xlsx or .csv";
        }
        if (starts(b, n, 'P', 'A', 'R', '1')) {
            return "Parquet data";
        }
        if (starts(b, n, 'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't')) {
            return "an SQLite database";
        }
        if (starts(b, n, 'A', 'R', 'R', 'O', 'W', '1') || starts(b, n, 'F', 'E', 'A', '1')) {
            return "Arrow data";
        }
        if (starts(b, n, 0x89, 'H', 'D', 'F') || starts(b, n, 'O', 'b', 'j', 1) || starts(b, n, 'O', 'R', 'C')
                || starts(b, n, 0x93, 'N', 'U', 'M', 'P', 'Y')) {
            return "binary table data (HDF5, Avro, ORC or NumPy)";
        }
        if (starts(b, n, 0x80) && n > 1 && (b[1] >= 2 && b[1] <= 5)) {
            return "a Python pickle";
        }
        if (starts(b, n, 0xfd, '7', 'z', 'X', 'Z') || starts(b, n, 'B', 'Z', 'h') || starts(b, n, '7', 'z', 0xbc, 0xaf)
                || starts(b, n, 'R', 'a', 'r', '!') || starts(b, n, 0x28, 0xb5, 0x2f, 0xfd)
                || n > 262 && new String(b, 257, 5, StandardCharsets.US_ASCII).equals("ustar")) {
            return "an archive format other than gzip and zip";
        }
        if (starts(b, n, 0x7f, 'E', 'L', 'F') || starts(b, n, 'M', 'Z') || machO(b, n) || starts(b, n, 0, 'a', 's', 'm')) {
            return "a program";
        }
        return null;
    }

    /** Mach-O, 32 or 64 bits in either byte order, and universal binaries (whose magic Java class files share). */
    private static boolean machO(byte[] b, int n) {
        return starts(b, n, 0xcf, 0xfa, 0xed, 0xfe) || starts(b, n, 0xce, 0xfa, 0xed, 0xfe) || starts(b, n, 0xfe, 0xed, 0xfa, 0xce)
                || starts(b, n, 0xfe, 0xed, 0xfa, 0xcf) || starts(b, n, 0xca, 0xfe, 0xba, 0xbe);
    }

    /** Text in UTF-16 without a byte-order mark: every other byte zero. */
    private static boolean looksLikeUtf16(byte[] b, int n) {
        int even = 0;
        int odd = 0;
        int pairs = Math.min(n, 512) / 2;
        for (int i = 0; i < pairs * 2; i += 2) {
            even += b[i] == 0 ? 1 : 0;
            odd += b[i + 1] == 0 ? 1 : 0;
        }
        return pairs >= 2 && (odd * 10 >= pairs * 8 && even * 10 <= pairs || even * 10 >= pairs * 8 && odd * 10 <= pairs);
    }

    private static boolean starts(byte[] b, int n, int... magic) {
        if (n < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((b[i] & 0xff) != magic[i]) {
                return false;
            }
        }
        return true;
    }
}
