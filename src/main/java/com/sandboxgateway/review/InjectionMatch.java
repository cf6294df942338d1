package com.sandboxgateway.review;

import java.util.Objects;

/**
 * Text that reads like an instruction to a model was found. Deliberately without the text or its
 * position inside the value: the caller reports where the value sits (file, line, column), and the
 * audit must not become a copy of what was planted.
 *
 * @param ruleId the rule that matched, e.g. {@code override-previous-en}
 * @param category what the text tries to do; the standard rules use {@code override} (replace the
 *                 model's instructions), {@code secret_request} (reveal environment, keys or the system
 *                 prompt), {@code exfiltration} (send data to a URL) and {@code role_markup} (imitate
 *                 chat-role markers); operator rules may add others
 */
public record InjectionMatch(String ruleId, String category) {

    public InjectionMatch {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(category, "category");
    }
}
