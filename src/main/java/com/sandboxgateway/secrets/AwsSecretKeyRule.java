package com.sandboxgateway.secrets;

/**
 * AWS secret access keys: exactly 40 base64 characters ({@code A-Za-z0-9/+}) with no prefix of their
 * own, so on their own they are indistinguishable from other random strings. Like gitleaks, the rule
 * therefore only reports one that starts within {@value #WINDOW} characters after an AWS keyword
 * ({@code aws}, {@code AWS_SECRET_ACCESS_KEY}, {@code SecretAccessKey}, {@code secret_access_key}) or an access key id
 * ({@code AKIA…}, as in the console's credentials CSV rows). The key must mix upper and lower case (a
 * 40-character SHA-1 in hex never does) and carry at least 4 bits per character; AWS's documentation
 * key {@code wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY} is a placeholder.
 */
final class AwsSecretKeyRule extends BaseRule {

    static final int WINDOW = 120;
    private static final int KEY_LENGTH = 40;
    private static final String[] KEYWORDS = {
            "aws", "AWS", "Aws", "ccessKey", "ccess_key", "CCESS_KEY", "AKIA", "ASIA", "ABIA", "ACCA"};
    /** A run glued to any of these is part of a longer string, not a key. */
    private static final CharClass GLUE = CharClass.BASE64;
    private static final Trigger TRIGGER = Trigger.token(KEY_LENGTH, TextTraits.UPPER | TextTraits.LOWER);

    AwsSecretKeyRule() {
        super("aws-secret-access-key", Finding.Kind.SECRET, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        Anchors keywords = Anchors.in(text, KEYWORDS);
        if (keywords == null) {
            return found;
        }
        int searchedUpTo = 0;
        for (int keyword = keywords.next(0); keyword >= 0; keyword = keywords.next(keyword + 1)) {
            // Windows of close keywords overlap; each character is examined once.
            int i = Math.max(keyword + 3, searchedUpTo);
            int windowEnd = Math.min(text.length(), keyword + 3 + WINDOW);
            while (i < windowEnd) {
                int runEnd = GLUE.runEnd(text, i, i + KEY_LENGTH + 1);
                if (runEnd == i) {
                    i++;
                    continue;
                }
                if (runEnd - i == KEY_LENGTH && GLUE.startsAt(text, i) && !endsInPadding(text, runEnd)
                        && looksLikeKey(text.substring(i, runEnd))) {
                    found = Findings.add(found, finding(i, runEnd));
                }
                i = runEnd;
            }
            searchedUpTo = Math.max(searchedUpTo, i);
        }
        return found;
    }

    /** {@code …==} ends a longer base64 string; a key is followed by anything but padding. */
    private static boolean endsInPadding(String text, int end) {
        return end < text.length() && text.charAt(end) == '=' && (end + 1 == text.length() || text.charAt(end + 1) == '=');
    }

    private static boolean looksLikeKey(String key) {
        boolean upper = false;
        boolean lower = false;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
        }
        return upper && lower && !Placeholders.isPlaceholder(key) && Randomness.bitsPerChar(key) >= 4.0;
    }
}
