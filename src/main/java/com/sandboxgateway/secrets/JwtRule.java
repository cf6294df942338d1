package com.sandboxgateway.secrets;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * JSON Web Tokens in compact form (RFC 7519/7515): base64url header, payload and signature joined by
 * dots, or the five segments of an encrypted JWE (RFC 7516). The header of every JWT is a JSON object
 * naming its algorithm, so it always starts {@code eyJ} (base64 of <code>{"</code>); the rule decodes
 * it and requires {@code "alg"}, which random dotted strings never have. Unsigned tokens
 * ({@code alg: none}, empty signature) authenticate nothing and are not findings.
 */
final class JwtRule extends BaseRule {

    private static final int MAX_SEGMENT = 8 * 1024;
    private static final int MIN_SIGNATURE = 16;
    private static final CharClass SEGMENT = CharClass.BASE64URL;
    private static final Trigger TRIGGER = new Trigger(40, 0, MIN_SIGNATURE, TextTraits.UPPER | TextTraits.LOWER | TextTraits.DOT, 0);

    JwtRule() {
        super("jwt", Finding.Kind.SECRET, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        for (int start = text.indexOf("eyJ"); start >= 0; ) {
            int resumeAt = start + 1;
            if (SEGMENT.startsAt(text, start)) {
                int headerEnd = SEGMENT.runEnd(text, start, start + MAX_SEGMENT);
                resumeAt = Math.max(resumeAt, headerEnd);
                int end = tokenEnd(text, headerEnd);
                if (end > 0 && headerEnd - start >= 10 && hasAlgorithm(text.substring(start, headerEnd))) {
                    found = Findings.add(found, finding(start, end));
                    resumeAt = end;
                }
            }
            start = text.indexOf("eyJ", resumeAt);
        }
        return found;
    }

    /**
     * The end of the segments after the header: four more for a JWE, else two for a JWS, the last of
     * them a real signature (or tag). A dot right after the token, as at the end of a sentence, is not a segment.
     */
    private static int tokenEnd(String text, int headerEnd) {
        int[] ends = new int[6];
        ends[1] = headerEnd;
        int segments = 1;
        while (segments < 5 && ends[segments] < text.length() && text.charAt(ends[segments]) == '.') {
            ends[segments + 1] = SEGMENT.runEnd(text, ends[segments] + 1, ends[segments] + 1 + MAX_SEGMENT);
            segments++;
        }
        for (int count = 5; count >= 3; count -= 2) {
            if (segments >= count && ends[count] - ends[count - 1] - 1 >= MIN_SIGNATURE && !SEGMENT.at(text, ends[count])) {
                return ends[count];
            }
        }
        return -1;
    }

    private static boolean hasAlgorithm(String header) {
        try {
            String json = new String(Base64.getUrlDecoder().decode(header), StandardCharsets.ISO_8859_1).strip();
            return json.startsWith("{") && json.contains("\"alg\"");
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }
}
