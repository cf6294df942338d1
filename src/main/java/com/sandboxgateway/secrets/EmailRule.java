package com.sandboxgateway.secrets;

import java.util.Set;

/**
 * E-mail addresses, {@code local@domain.tld} (RFC 5321 limits: a local part of at most 64 characters
 * from {@code A-Za-z0-9._%+-}, labels of at most 63, a top-level domain of 2–24 letters). Not e-mail:
 * credentials in URLs ({@code scheme://user:pw@host}, the url-password rule's), retina assets
 * ({@code icon@2x.png}), package versions ({@code react@18.2.0}), decorators and {@code git@host:repo} remotes.
 */
final class EmailRule extends BaseRule {

    private static final int MAX_LOCAL = 64;
    private static final int MAX_DOMAIN = 253;
    private static final CharClass LOCAL = CharClass.of("A-Za-z0-9._%+-");
    private static final CharClass DOMAIN = CharClass.of("A-Za-z0-9.-");
    private static final Set<String> FILE_EXTENSIONS = Set.of(
            "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "css", "js", "ts", "json", "html", "xml", "txt",
            "md", "yml", "yaml", "java", "py", "lock", "pdf");
    private static final Trigger TRIGGER = Trigger.atLeast(6, TextTraits.AT | TextTraits.DOT);

    EmailRule() {
        super("email", Finding.Kind.PII, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        for (int at = text.indexOf('@'); at >= 0; ) {
            int resumeAt = at + 1;
            int localStart = localStart(text, at);
            int domainEnd = domainEnd(text, at + 1);
            if (localStart >= 0 && domainEnd > 0 && !insideUrl(text, localStart) && !isGitRemote(text, localStart, at, domainEnd)) {
                found = Findings.add(found, finding(localStart, domainEnd));
                resumeAt = domainEnd;
            }
            at = text.indexOf('@', resumeAt);
        }
        return found;
    }

    /** The start of the local part before {@code at}, or -1. */
    private static int localStart(String text, int at) {
        int start = LOCAL.runStart(text, at, at - MAX_LOCAL - 1);
        if (at - start > MAX_LOCAL) {
            return -1;
        }
        if (start > 0 && text.charAt(start - 1) == '\\' && (text.charAt(start) == 'n' || text.charAt(start) == 't')) {
            start++; // the letter of an escaped line break or tab, as in "…\nbob@example.org"
        }
        while (start < at && text.charAt(start) == '.') {
            start++;
        }
        return start < at && text.charAt(at - 1) != '.' ? start : -1;
    }

    /** The end of a valid domain after {@code from}, or -1. */
    private static int domainEnd(String text, int from) {
        int end = DOMAIN.runEnd(text, from, from + MAX_DOMAIN + 1);
        if (end - from > MAX_DOMAIN) {
            return -1;
        }
        while (end > from && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == '-')) {
            end--;
        }
        int lastDot = end - 1;
        while (lastDot > from && text.charAt(lastDot) != '.') {
            lastDot--;
        }
        if (lastDot <= from || !labelsValid(text, from, end)) {
            return -1;
        }
        String tld = text.substring(lastDot + 1, end);
        boolean letters = tld.length() >= 2 && tld.length() <= 24 && tld.chars().allMatch(Character::isLetter);
        return letters && !FILE_EXTENSIONS.contains(tld.toLowerCase(java.util.Locale.ROOT)) ? end : -1;
    }

    private static boolean labelsValid(String text, int from, int to) {
        int labelStart = from;
        for (int i = from; i <= to; i++) {
            if (i == to || text.charAt(i) == '.') {
                int length = i - labelStart;
                if (length == 0 || length > 63 || text.charAt(labelStart) == '-' || text.charAt(i - 1) == '-') {
                    return false;
                }
                labelStart = i + 1;
            }
        }
        return true;
    }

    /** Whether the address is the userinfo and host of a URL: a {@code ://} earlier in the same word. */
    private static boolean insideUrl(String text, int localStart) {
        int wordStart = localStart;
        int limit = Math.max(0, localStart - 256);
        while (wordStart > limit && !Character.isWhitespace(text.charAt(wordStart - 1))) {
            wordStart--;
        }
        int scheme = text.indexOf("://", wordStart, localStart);
        return scheme >= 0;
    }

    private static boolean isGitRemote(String text, int localStart, int at, int domainEnd) {
        return at - localStart == 3 && text.startsWith("git", localStart) && domainEnd < text.length() && text.charAt(domainEnd) == ':';
    }
}
