package com.sandboxgateway.secrets;

/**
 * US Social Security numbers written {@code AAA-GG-SSSS}. Numbers the SSA never issues are not
 * findings: area {@code 000}, {@code 666} or {@code 900}–{@code 999}, group {@code 00}, serial
 * {@code 0000}. The number must stand alone, so {@code 2024-01-15}, {@code 415-555-2671} and the
 * middle of {@code INV-123-45-6789-B} are not SSNs.
 */
final class SsnRule extends BaseRule {

    private static final CharClass GLUE = CharClass.of("A-Za-z0-9_-");
    private static final Trigger TRIGGER = new Trigger(11, 9, 0, TextTraits.DASH, 0);

    SsnRule() {
        super("us-ssn", Finding.Kind.PII, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        for (int dash = text.indexOf('-', 3); dash >= 0; dash = text.indexOf('-', dash + 1)) {
            int start = dash - 3;
            int end = start + 11;
            if (end <= text.length() && isSsnShape(text, start) && !GLUE.at(text, start - 1) && !GLUE.at(text, end)
                    && !continuesAsDecimal(text, end) && isIssuable(text, start)) {
                found = Findings.add(found, finding(start, end));
                dash = end;
            }
        }
        return found;
    }

    private static boolean isSsnShape(String text, int start) {
        for (int i = 0; i < 11; i++) {
            char c = text.charAt(start + i);
            boolean ok = i == 3 || i == 6 ? c == '-' : c >= '0' && c <= '9';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean continuesAsDecimal(String text, int end) {
        return end + 1 < text.length() && text.charAt(end) == '.' && Character.isDigit(text.charAt(end + 1));
    }

    private static boolean isIssuable(String text, int start) {
        int area = Integer.parseInt(text, start, start + 3, 10);
        int group = Integer.parseInt(text, start + 4, start + 6, 10);
        int serial = Integer.parseInt(text, start + 7, start + 11, 10);
        return area != 0 && area != 666 && area < 900 && group != 0 && serial != 0;
    }
}
