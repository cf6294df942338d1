package com.sandboxgateway.secrets;

/**
 * PEM private keys (RFC 7468): {@code -----BEGIN <label>PRIVATE KEY-----} where the label is empty
 * (PKCS#8), {@code RSA }, {@code EC }, {@code DSA }, {@code OPENSSH }, {@code ENCRYPTED } and the like,
 * plus {@code -----BEGIN PGP PRIVATE KEY BLOCK-----}. The finding runs from the header to the end of
 * the {@code -----END …-----} line. Keys are found whether their line breaks are real, escaped as
 * {@code \n} inside a JSON string or CSV cell, or gone (one long line).
 *
 * <p>A header needs a body of at least {@value #MIN_BODY} base64 characters, so documentation that
 * shows {@code -----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----} is not a finding. Without an
 * END line within {@value #MAX_KEY} characters, the finding is the header and its base64 body; a key
 * cut off by the end of the text is reported however short, since a caller scanning line by line sees
 * the header line alone.
 */
final class PrivateKeyRule extends BaseRule {

    static final int MIN_BODY = 64;
    /** An RSA-8192 key in PEM is about 6,400 characters. */
    static final int MAX_KEY = 16 * 1024;
    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";
    private static final CharClass LABEL = CharClass.of("A-Z0-9 ");
    private static final CharClass BASE64 = CharClass.of("A-Za-z0-9+/=");
    /** What a body without END line is made of: base64 and real or escaped line breaks, never spaces, which prose has. */
    private static final CharClass BODY = CharClass.of("A-Za-z0-9+/=\\\\\t\r\n");
    private static final Trigger TRIGGER = Trigger.atLeast(BEGIN.length() + "PRIVATE KEY".length() + DASHES.length(),
            TextTraits.UPPER | TextTraits.DASH);

    PrivateKeyRule() {
        super("private-key", Finding.Kind.SECRET, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        int nextEnd = -2;
        int from = 0;
        for (int begin = text.indexOf(BEGIN); begin >= 0; begin = text.indexOf(BEGIN, from)) {
            from = begin + 1;
            int headerEnd = headerEnd(text, begin);
            if (headerEnd < 0) {
                continue;
            }
            if (nextEnd != -1 && nextEnd < headerEnd) {
                // Searched forward only, so finding END lines costs one pass over the text in all.
                nextEnd = text.indexOf(END, headerEnd);
            }
            int keyEnd = nextEnd >= 0 && nextEnd - headerEnd <= MAX_KEY ? footerEnd(text, headerEnd, nextEnd) : bodyEnd(text, headerEnd);
            if (keyEnd > 0) {
                found = Findings.add(found, finding(begin, keyEnd));
                from = keyEnd;
            }
        }
        return found;
    }

    /** The index after {@code -----BEGIN …PRIVATE KEY-----} at {@code begin}, or -1. */
    private static int headerEnd(String text, int begin) {
        int labelStart = begin + BEGIN.length();
        int labelEnd = text.indexOf(DASHES, labelStart, Math.min(text.length(), labelStart + 40));
        if (labelEnd < 0 || !LABEL.all(text, labelStart, labelEnd)) {
            return -1;
        }
        String label = text.substring(labelStart, labelEnd);
        return label.endsWith("PRIVATE KEY") || label.endsWith("PRIVATE KEY BLOCK") ? labelEnd + DASHES.length() : -1;
    }

    /** The end of the END line when a real body sits before it, else -1. */
    private static int footerEnd(String text, int headerEnd, int end) {
        if (base64Count(text, headerEnd, end) < MIN_BODY) {
            return -1;
        }
        int labelStart = end + END.length();
        int closing = text.indexOf(DASHES, labelStart, Math.min(text.length(), labelStart + 40));
        return closing < 0 ? labelStart : closing + DASHES.length();
    }

    /** The end of a body with no END line; when the text ends inside the body, the end of the text; else -1. */
    private static int bodyEnd(String text, int headerEnd) {
        int end = BODY.runEnd(text, headerEnd, headerEnd + MAX_KEY);
        boolean runsToTheEnd = blankFrom(text, end);
        end = trimBreaks(text, headerEnd, end);
        if (runsToTheEnd) {
            return end;
        }
        return base64Count(text, headerEnd, end) >= MIN_BODY ? end : -1;
    }

    /** Drops trailing whitespace and escaped line breaks ({@code \\n}), which belong to the text around the key. */
    private static int trimBreaks(String text, int from, int end) {
        while (end > from) {
            char last = text.charAt(end - 1);
            if (end - 2 >= from && text.charAt(end - 2) == '\\' && (last == 'n' || last == 'r' || last == 't')) {
                end -= 2;
            } else if (!BASE64.contains(last)) {
                end--;
            } else {
                break;
            }
        }
        return end;
    }

    private static boolean blankFrom(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int base64Count(String text, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            count += BASE64.contains(text.charAt(i)) ? 1 : 0;
        }
        return count;
    }
}
