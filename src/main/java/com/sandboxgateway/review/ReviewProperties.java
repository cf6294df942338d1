package com.sandboxgateway.review;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.Setting;

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
        Setting.atLeast(1, failureStreak, "gateway.review.failure-streak",
                "Set how many failed code blocks in a row flag a session as running away, e.g. 3.");
    }
}
