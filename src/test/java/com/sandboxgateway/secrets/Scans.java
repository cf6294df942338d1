package com.sandboxgateway.secrets;

import java.util.List;

/** Test shorthand: what the standard scanner finds, as {@code ruleId=value} strings easy to assert on. */
final class Scans {

    private Scans() {
    }

    static List<String> found(String text) {
        return SecretScanner.standard().scan(text).stream()
                .map(f -> f.ruleId() + "=" + text.substring(f.start(), f.end()))
                .toList();
    }
}
