package com.sandboxgateway.review;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Review signals ({@code gateway.review}): the operator's own rule files, merged onto the standard ones
 * at startup, and when a session counts as running away.
 *
 * @param injectionRules an operator's injection rule file (format: {@code review/README.md}), added to
 *        the standard rules; may disable standard rules by id. Empty: the standard rules only
 * @param codeRules an operator's code rule file, merged onto the standard flags. Empty: the standard flags only
 * @param failureStreak a code block is flagged {@code runaway_session} when it makes its session's
 *        consecutive failed code blocks exceed this many
 */
@ConfigurationProperties("gateway.review")
public record ReviewProperties(Path injectionRules, Path codeRules, @DefaultValue("3") int failureStreak) {

    public ReviewProperties {
        if (failureStreak < 1) {
            throw new IllegalArgumentException("gateway.review.failure-streak must be at least 1, not " + failureStreak);
        }
    }
}
