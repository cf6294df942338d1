package com.sandboxgateway.secrets;

/**
 * Whether a string looks machine-generated, measured as Shannon entropy in bits per character. Random
 * base62 tokens score above 4; English words, identifiers and masks score far lower. Short strings
 * cannot score high (eight distinct characters give exactly 3 bits), so thresholds scale with length.
 */
final class Randomness {

    private Randomness() {
    }

    static double bitsPerChar(CharSequence value) {
        int n = value.length();
        if (n == 0) {
            return 0;
        }
        // Non-Latin-1 characters share buckets: entropy is only ever compared against thresholds.
        int[] counts = new int[256];
        for (int i = 0; i < n; i++) {
            counts[value.charAt(i) & 0xFF]++;
        }
        double bits = 0;
        for (int count : counts) {
            if (count > 0) {
                double p = (double) count / n;
                bits -= p * (Math.log(p) / Math.log(2));
            }
        }
        return bits;
    }

    /**
     * A token body (the part after a vendor prefix) that is not a placeholder and has at least
     * {@code min(3, log2(n) - 1.6)} bits per character: 2.4 for the 16 base32 characters of an AWS key
     * id, which random ids fall below about once in a million, 3 from 23 characters on.
     */
    static boolean looksRandom(String body) {
        double needed = Math.min(3.0, log2(body.length()) - 1.6);
        return !Placeholders.isPlaceholder(body) && bitsPerChar(body) >= needed;
    }

    /**
     * A free-form value assigned to a secret-sounding key: at least {@code min(3.5, log2(n) - 1)} bits
     * per character. The 3.5 bits gitleaks uses cannot be reached below 12 characters (n distinct
     * characters give log2(n) bits at most), so shorter values are measured against what they could
     * reach: 2 bits at 8 characters, 3 at 16, 3.5 from 23 on. Random 15-character passwords pass 9,999
     * times in 10,000; {@code aaaaaaab1} and the like do not.
     */
    static boolean looksLikeSecretValue(String value) {
        return bitsPerChar(value) >= Math.min(3.5, log2(value.length()) - 1);
    }

    private static double log2(int n) {
        return Math.log(n) / Math.log(2);
    }
}
