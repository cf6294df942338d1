package com.sandboxgateway.secrets;

import java.util.Map;

/**
 * International Bank Account Numbers (ISO 13616): a country code, two check digits and the national
 * account number (BBAN), written solid ({@code DE89370400440532013000}) or in groups of four
 * ({@code DE89 3704 0044 0532 0130 00}). The length must be the one the country's registry entry
 * gives ({@link #LENGTHS}, the SWIFT IBAN registry for the countries that use IBANs most) and the
 * number must pass the mod-97 check, which random strings pass once in 97 tries at the right length.
 */
final class IbanRule extends BaseRule {

    static final Map<String, Integer> LENGTHS = Map.ofEntries(
            Map.entry("AD", 24), Map.entry("AE", 23), Map.entry("AL", 28), Map.entry("AT", 20), Map.entry("AZ", 28),
            Map.entry("BA", 20), Map.entry("BE", 16), Map.entry("BG", 22), Map.entry("BH", 22), Map.entry("BR", 29),
            Map.entry("CH", 21), Map.entry("CR", 22), Map.entry("CY", 28), Map.entry("CZ", 24), Map.entry("DE", 22),
            Map.entry("DK", 18), Map.entry("DO", 28), Map.entry("EE", 20), Map.entry("EG", 29), Map.entry("ES", 24),
            Map.entry("FI", 18), Map.entry("FO", 18), Map.entry("FR", 27), Map.entry("GB", 22), Map.entry("GE", 22),
            Map.entry("GI", 23), Map.entry("GL", 18), Map.entry("GR", 27), Map.entry("GT", 28), Map.entry("HR", 21),
            Map.entry("HU", 28), Map.entry("IE", 22), Map.entry("IL", 23), Map.entry("IS", 26), Map.entry("IT", 27),
            Map.entry("JO", 30), Map.entry("KW", 30), Map.entry("KZ", 20), Map.entry("LB", 28), Map.entry("LI", 21),
            Map.entry("LT", 20), Map.entry("LU", 20), Map.entry("LV", 21), Map.entry("MC", 27), Map.entry("MD", 24),
            Map.entry("ME", 22), Map.entry("MK", 19), Map.entry("MR", 27), Map.entry("MT", 31), Map.entry("MU", 30),
            Map.entry("NL", 18), Map.entry("NO", 15), Map.entry("PK", 24), Map.entry("PL", 28), Map.entry("PS", 29),
            Map.entry("PT", 25), Map.entry("QA", 29), Map.entry("RO", 24), Map.entry("RS", 22), Map.entry("SA", 24),
            Map.entry("SE", 24), Map.entry("SI", 19), Map.entry("SK", 24), Map.entry("SM", 27), Map.entry("TN", 24),
            Map.entry("TR", 26), Map.entry("UA", 29), Map.entry("VG", 24), Map.entry("XK", 20));

    private static final int MAX_LENGTH = 34;
    /** {@link #LENGTHS} indexed by the two letters, so the hot loop neither allocates nor hashes. */
    private static final byte[] LENGTH_BY_LETTERS = new byte[26 * 26];

    static {
        LENGTHS.forEach((country, length) -> LENGTH_BY_LETTERS[(country.charAt(0) - 'A') * 26 + country.charAt(1) - 'A'] = length.byteValue());
    }
    private static final Trigger TRIGGER = new Trigger(15, 6, 4, TextTraits.UPPER, 0);

    IbanRule() {
        super("iban", Finding.Kind.PII, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        char[] compact = null;
        int n = text.length() - 3;
        for (int i = 0; i < n; i++) {
            if (!isUpper(text.charAt(i)) || !isUpper(text.charAt(i + 1)) || !isDigit(text.charAt(i + 2))
                    || !isDigit(text.charAt(i + 3)) || CharClass.ALNUM.at(text, i - 1)) {
                continue;
            }
            int length = LENGTH_BY_LETTERS[(text.charAt(i) - 'A') * 26 + text.charAt(i + 1) - 'A'];
            if (length == 0) {
                continue;
            }
            if (compact == null) {
                compact = new char[MAX_LENGTH];
            }
            int end = read(text, i, length, compact);
            if (end > 0 && passesMod97(compact, length)) {
                found = Findings.add(found, finding(i, end));
                i = end - 1;
            }
        }
        return found;
    }

    /**
     * Reads {@code length} characters into {@code compact}, solid or in space-separated groups of four;
     * returns the end index, or -1 when the text does not hold exactly that many.
     */
    private static int read(String text, int start, int length, char[] compact) {
        int count = 0;
        int i = start;
        while (count < length && i < text.length()) {
            char c = text.charAt(i);
            if (isUpper(c) || isDigit(c)) {
                compact[count++] = c;
                i++;
            } else if (c == ' ' && count % 4 == 0 && count > 0 && i + 1 < text.length() && text.charAt(i + 1) != ' ') {
                i++;
            } else {
                return -1;
            }
        }
        return count == length && !CharClass.ALNUM.at(text, i) ? i : -1;
    }

    /** ISO 7064 MOD 97-10: move the first four characters to the end, letters become 10–35, the number mod 97 is 1. */
    static boolean passesMod97(char[] iban, int length) {
        int remainder = 0;
        for (int k = 0; k < length; k++) {
            char c = iban[(k + 4) % length];
            int value = isDigit(c) ? c - '0' : c - 'A' + 10;
            remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
        }
        return remainder == 1;
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
