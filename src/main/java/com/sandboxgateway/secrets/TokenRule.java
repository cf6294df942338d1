package com.sandboxgateway.secrets;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A credential that its vendor made recognizable: a literal prefix ({@code ghp_}, {@code AKIA},
 * {@code xoxb-}) and a body of known alphabet and length, the approach of gitleaks' rules. The rule
 * finds each prefix with a plain string search, then checks the full shape with a regex anchored at
 * that spot (bounded and possessive, so it cannot backtrack), that the token is not glued to a longer
 * word, and that the body after the prefix looks random rather than like {@code xxxxxxxx} or {@code your-key}.
 */
final class TokenRule extends BaseRule {

    /** Checks the part of a matched token after its prefix. */
    interface BodyCheck {
        boolean accepts(String body);
    }

    private final String anchor;
    private final int anchorOffset;
    private final String[] prefixes;
    private final Pattern shape;
    private final int maxLength;
    private final CharClass tokenChars;
    private final BodyCheck bodyCheck;

    /**
     * @param anchor a literal found in every prefix at the same offset, searched for first: one search
     *        for {@code gh} costs less than five for {@code ghp_}, {@code gho_}, … and the prefixes are checked where it occurs
     * @param prefixes literals every token starts with
     * @param shape the whole token, prefix included; its quantifiers must be bounded
     * @param maxLength the longest token the shape can match
     * @param tokenChars characters that may not touch the token on either side
     * @param trigger the condition a text must meet before the rule runs
     */
    TokenRule(String id, String anchor, String[] prefixes, String shape, int maxLength, CharClass tokenChars, BodyCheck bodyCheck,
            Trigger trigger) {
        super(id, Finding.Kind.SECRET, trigger);
        this.anchor = anchor;
        this.anchorOffset = prefixes[0].indexOf(anchor);
        for (String prefix : prefixes) {
            if (anchorOffset < 0 || prefix.indexOf(anchor) != anchorOffset) {
                throw new IllegalArgumentException(id + ": the anchor " + anchor + " must sit at the same place in every prefix");
            }
        }
        this.prefixes = prefixes.clone();
        this.shape = Pattern.compile(shape);
        this.maxLength = maxLength;
        this.tokenChars = tokenChars;
        this.bodyCheck = bodyCheck;
    }

    @Override
    public Findings findAll(String text, Findings found) {
        Matcher matcher = null;
        for (int hit = text.indexOf(anchor, anchorOffset); hit >= 0; ) {
            int at = hit - anchorOffset;
            int resumeAt = at + 1;
            String prefix = prefixAt(text, at);
            if (prefix != null && tokenChars.startsAt(text, at)) {
                // No later prefix inside this run of token characters can start a token either.
                resumeAt = Math.max(resumeAt, tokenChars.runEnd(text, at, at + maxLength + 1));
                if (matcher == null) {
                    matcher = shape.matcher(text);
                }
                matcher.region(at, Math.min(text.length(), at + maxLength));
                if (matcher.lookingAt() && !tokenChars.at(text, matcher.end())
                        && bodyCheck.accepts(text.substring(at + prefix.length(), matcher.end()))) {
                    found = Findings.add(found, finding(at, matcher.end()));
                    resumeAt = matcher.end();
                }
            }
            hit = text.indexOf(anchor, resumeAt + anchorOffset);
        }
        return found;
    }

    private String prefixAt(String text, int at) {
        for (String prefix : prefixes) {
            if (text.startsWith(prefix, at)) {
                return prefix;
            }
        }
        return null;
    }
}
